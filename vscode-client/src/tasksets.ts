/** Asking the user for the taskset to run: a quick pick of the platform's tasksets when the
 * platform answers, else free text. */
import { SERVER_COMMANDS } from './constants';
import { PickItem, ServerCommandRunner, Ui, errorText } from './ui';

/** The reference pattern the platform accepts: optional workspace, name, optional `#revision`. */
export const TASKSET_REF = /^[\w\-.]+(\/[\w\-.]+)?(#[\w\-.]+)?$/;

export function validateTasksetRef(value: string): string | undefined {
  const v = value.trim();
  if (v === '') {
    return 'Enter a taskset reference such as "my-workspace/my-taskset".';
  }
  return TASKSET_REF.test(v)
    ? undefined
    : `"${v}" is not a taskset reference: use "workspace/name", "name" or "workspace/name#revision".`;
}

/** Turns whatever `evalsubmit.listTasksets` returned into pick items (strings, or objects with
 * `ref`/`reference`, or `workspace` + `name`, optionally `description`). */
export function tasksetItems(result: unknown): PickItem[] {
  const list = Array.isArray(result)
    ? result
    : typeof result === 'object' && result !== null
      ? ((result as Record<string, unknown>).tasksets ??
        (result as Record<string, unknown>).data ??
        (result as Record<string, unknown>).items)
      : undefined;
  if (!Array.isArray(list)) {
    return [];
  }
  const items: PickItem[] = [];
  for (const entry of list) {
    if (typeof entry === 'string') {
      items.push({ label: entry });
    } else if (typeof entry === 'object' && entry !== null) {
      const e = entry as Record<string, unknown>;
      const ref =
        (typeof e.ref === 'string' && e.ref) ||
        (typeof e.reference === 'string' && e.reference) ||
        (typeof e.name === 'string'
          ? typeof e.workspace === 'string' && e.workspace
            ? `${e.workspace}/${e.name}`
            : e.name
          : undefined);
      if (ref) {
        const description = typeof e.description === 'string' ? e.description : undefined;
        items.push(description ? { label: ref, description } : { label: ref });
      }
    }
  }
  return items;
}

/** A command result that reports a failure instead of throwing: `{error: "..."}`. */
export function commandError(result: unknown): string | undefined {
  if (typeof result === 'object' && result !== null && !Array.isArray(result)) {
    const e = (result as Record<string, unknown>).error;
    if (typeof e === 'string' && e !== '') {
      return e;
    }
    if (typeof e === 'object' && e !== null && 'message' in e) {
      return String((e as { message: unknown }).message);
    }
  }
  return undefined;
}

export async function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms / 1000} s`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export interface PromptOptions {
  defaultTaskset?: string | null;
  /** Where the submission is (0-based): the server lists the tasksets of the workspace this
   * code's job would go to (`NeMoPlatform(workspace=...)` in the code, unless the settings,
   * the SDK's environment or config name another), and suggests a `TasksetRef` near it. */
  at?: { uri: string; line: number; character: number };
  listTimeoutMs?: number;
  log?: (line: string) => void;
}

/** The `workspace` and `suggested` reference of a `evalsubmit.listTasksets` answer. */
export function listingContext(result: unknown): { workspace?: string; suggested?: string } {
  const r = typeof result === 'object' && result !== null && !Array.isArray(result) ? (result as Record<string, unknown>) : {};
  const text = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);
  return { workspace: text(r.workspace), suggested: text(r.suggested) };
}

/** The taskset reference the user chose, or undefined when they cancelled. */
export async function promptForTaskset(
  ui: Ui,
  run: ServerCommandRunner,
  options: PromptOptions = {},
): Promise<string | undefined> {
  let items: PickItem[] = [];
  let unreachable: string | undefined;
  let context: { workspace?: string; suggested?: string } = {};
  try {
    const result = await withTimeout(
      run(SERVER_COMMANDS.listTasksets, options.at ? [options.at] : []),
      options.listTimeoutMs ?? 10_000,
      'Listing tasksets',
    );
    context = listingContext(result);
    const failure = commandError(result);
    if (failure) {
      throw new Error(failure);
    }
    items = tasksetItems(result);
  } catch (err) {
    unreachable = errorText(err);
    options.log?.(`Could not list tasksets from the platform: ${unreachable}`);
  }
  if (context.workspace) {
    options.log?.(`Tasksets of workspace ${context.workspace}: ${items.map((i) => i.label).join(', ') || 'none'}`);
  }
  const value = context.suggested ?? options.defaultTaskset ?? undefined;
  const inWorkspace = context.workspace ? ` (workspace ${context.workspace})` : '';
  let chosen: string | undefined;
  if (items.length > 0) {
    chosen = await ui.pickOrType(items, {
      title: `Submit evaluation: taskset${inWorkspace}`,
      placeholder: 'Choose a taskset of the platform, or type a reference (workspace/name)',
      value,
    });
    if (chosen !== undefined) {
      const problem = validateTasksetRef(chosen);
      if (problem) {
        await ui.message('error', problem);
        return undefined;
      }
    }
  } else {
    chosen = await ui.inputBox({
      title: `Submit evaluation: taskset${inWorkspace}`,
      prompt: unreachable
        ? `The platform's tasksets could not be listed (${unreachable}). Type a taskset reference.`
        : 'Type a taskset reference (workspace/name).',
      placeHolder: 'workspace/taskset',
      value,
      validateInput: validateTasksetRef,
    });
  }
  return chosen?.trim() || undefined;
}
