/** Submitting evaluations and showing jobs: the executeCommand middleware for the server's
 * `evalsubmit.submit`, and the client commands Submit Evaluation and Show Job. */
import { SERVER_COMMANDS } from './constants';
import { causeSentence } from './jobview';
import { PlatformSetup, ensurePlatform } from './platformsetup';
import { commandError, promptForTaskset } from './tasksets';
import { LensInfo, ServerCommandRunner, Ui, errorText } from './ui';

export interface SubmitArgs {
  uri: string;
  line: number;
  character: number;
  tasks: string | null;
  /** The client tells the outcome itself (one toast with Show Job / Show Logs): the server
   * then keeps its final message for the log. */
  clientReportsOutcome?: boolean;
}

export interface JobRef {
  name: string;
  workspace?: string;
  status?: string;
  url?: string;
  /** The job's error (from its logs), when it failed. */
  error?: string;
  /** The platform's message on the final status. */
  details?: string;
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The job in a submit result: `{name, workspace, status, url}` at the top or under `job`. */
export function jobFromResult(result: unknown): JobRef | undefined {
  if (typeof result === 'string' && result.trim() !== '') {
    return { name: result.trim() };
  }
  const top = asRecord(result);
  if (!top) {
    return undefined;
  }
  for (const r of [asRecord(top.job), top]) {
    if (!r) {
      continue;
    }
    const name = str(r.name) ?? str(r.job_name) ?? str(r.jobName);
    if (name) {
      const outcome = asRecord(top.outcome) ?? {};
      const job: JobRef = {
        name,
        workspace: str(r.workspace) ?? str(top.workspace),
        status: str(r.status) ?? str(top.status),
        url: str(r.url) ?? str(top.url),
      };
      const error = str(outcome.error);
      const details = str(outcome.details);
      if (error) {
        job.error = error;
      }
      if (details) {
        job.details = details;
      }
      return job;
    }
  }
  return undefined;
}

/** Remembers the jobs submitted in this window, newest first, for Show Job. */
export class JobHistory {
  private readonly jobs: JobRef[] = [];
  add(job: JobRef): void {
    const i = this.jobs.findIndex((j) => j.name === job.name && j.workspace === job.workspace);
    if (i >= 0) {
      this.jobs.splice(i, 1);
    }
    this.jobs.unshift(job);
    this.jobs.splice(20);
  }
  list(): readonly JobRef[] {
    return this.jobs;
  }
  find(name: string): JobRef | undefined {
    return this.jobs.find((j) => j.name === name);
  }
}

export interface SubmitDeps {
  ui: Ui;
  run: ServerCommandRunner;
  history: JobHistory;
  defaultTaskset: () => string | null;
  log: (line: string) => void;
  /** Opens the job view (`logsOnly`: the job's logs). */
  openJob: (job: JobRef, logsOnly?: boolean) => Promise<void>;
  /** Checks the platform before asking anything, and offers to set its URL (see
   * `platformsetup.ts`); without it, the submission itself tells an unreachable platform. */
  platform?: PlatformSetup;
}

export const SHOW_JOB = 'Show Job';
export const SHOW_LOGS = 'Show Logs';
export const OPEN = 'Open';

/** The one notification that ends a submission: what happened to the job, and why. */
export function outcomeMessage(job: JobRef): { level: 'error' | 'warning' | 'info'; text: string; actions: string[] } {
  const where = job.workspace ? ` in workspace ${job.workspace}` : '';
  switch (job.status) {
    case 'error':
    case 'failed': {
      const cause = causeSentence(job.error) ?? (job.details ? `${job.details}.`.replace(/\.\.$/, '.') : 'the platform gave no reason (see Show Job).');
      return { level: 'error', text: `Evaluation job ${job.name} failed: ${cause}`, actions: [SHOW_JOB, SHOW_LOGS] };
    }
    case 'cancelled':
      return { level: 'warning', text: `Evaluation job ${job.name}${where} was cancelled.`, actions: [SHOW_JOB, SHOW_LOGS] };
    case 'completed':
      return { level: 'info', text: `Evaluation job ${job.name}${where} completed.`, actions: [SHOW_JOB, ...(job.url ? [OPEN] : [])] };
    default: {
      const status = job.status ? ` (status: ${job.status})` : '';
      return { level: 'info', text: `Submitted evaluation job ${job.name}${where}${status}.`, actions: [SHOW_JOB, ...(job.url ? [OPEN] : [])] };
    }
  }
}

/** Reports the outcome of a submit: a notification naming the job. */
export async function reportSubmitted(deps: SubmitDeps, result: unknown): Promise<void> {
  const rec = asRecord(result);
  const refused = rec && rec.submitted === false;
  const problem = commandError(result) ?? (refused ? (str(rec.reason) ?? str(rec.message) ?? 'no reason given') : undefined);
  if (problem !== undefined) {
    deps.log(`Not submitted: ${problem}`);
    await deps.ui.message('warning', `Evaluation not submitted: ${problem}`);
    return;
  }
  const job = jobFromResult(result);
  if (!job) {
    deps.log(`Submit returned no job: ${JSON.stringify(result)}`);
    if (result !== undefined && result !== null) {
      await deps.ui.message('info', 'Submit finished, but the server named no job. See the logs.');
    }
    return;
  }
  deps.history.add(job);
  const { level, text, actions } = outcomeMessage(job);
  deps.log(text);
  const choice = await deps.ui.message(level, text, ...actions);
  if (choice === SHOW_JOB || choice === SHOW_LOGS) {
    await deps.openJob(job, choice === SHOW_LOGS);
  } else if (choice === OPEN && job.url) {
    await deps.ui.openExternal(job.url);
  }
}

/** `middleware.executeCommand`: for `evalsubmit.submit` with `tasks: null` (code lens or code action
 * whose taskset is not in the code), asks for the taskset before forwarding. Returns undefined
 * without forwarding when the user cancels. The submit request is sent with a work-done token, so
 * its progress shows as a cancellable notification. Other commands pass through. */
export function executeCommandMiddleware(deps: SubmitDeps) {
  return async (
    command: string,
    args: unknown[],
    next: (command: string, args: unknown[]) => unknown,
  ): Promise<unknown> => {
    if (command !== SERVER_COMMANDS.submit) {
      return next(command, args);
    }
    const first = asRecord(args[0]);
    let forwarded = args;
    if (typeof first?.uri === 'string' && !(await ensurePlatform(deps, first.uri))) {
      return undefined;
    }
    if (first && (first.tasks === null || first.tasks === undefined)) {
      const tasks = await promptForTaskset(deps.ui, deps.run, {
        defaultTaskset: deps.defaultTaskset(),
        at: positionOf(first),
        log: deps.log,
      });
      if (tasks === undefined) {
        deps.log('Submit cancelled: no taskset chosen.');
        return undefined;
      }
      forwarded = [{ ...first, tasks }, ...args.slice(1)];
    }
    if (first) {
      forwarded = [{ ...asRecord(forwarded[0]), clientReportsOutcome: true }, ...forwarded.slice(1)];
    }
    try {
      const tasks = asRecord(forwarded[0])?.tasks;
      const result = await deps.ui.withProgress(
        `Submitting evaluation (${String(tasks ?? 'taskset from the code')})…`,
        (progress) => deps.run(command, forwarded, progress),
        true,
      );
      void reportSubmitted(deps, result);
      return result;
    } catch (err) {
      deps.log(`evalsubmit.submit failed: ${errorText(err)}`);
      void deps.ui.message('error', `Submit evaluation failed: ${errorText(err)}`);
      return undefined;
    }
  };
}

/** The taskset the server's "Submit evaluation" code lens at this line carries: a string when the
 * code names it (`tasks=TasksetRef("ws/name")`), null when it does not, undefined when no lens of
 * ours covers the line. The innermost lens wins. */
export function tasksetFromLenses(lenses: LensInfo[], line: number): string | null | undefined {
  const ours = lenses
    .filter((l) => l.command === SERVER_COMMANDS.submit && l.startLine <= line && line <= l.endLine)
    .sort((a, b) => a.endLine - a.startLine - (b.endLine - b.startLine));
  if (ours.length === 0) {
    return undefined;
  }
  const tasks = asRecord(ours[0].arguments?.[0])?.tasks;
  return typeof tasks === 'string' && tasks !== '' ? tasks : null;
}

/** Client command Submit Evaluation: the active editor's cursor, a taskset (from the code when it
 * names one, else asked for), then the server. */
export async function submitEvaluation(deps: SubmitDeps): Promise<unknown> {
  const editor = deps.ui.activeEditor();
  if (!editor || editor.languageId !== 'python') {
    await deps.ui.message(
      'warning',
      'Submit Evaluation: put the cursor on a submit() call or a Gym runner in a Python file.',
    );
    return undefined;
  }
  if (!(await ensurePlatform(deps, editor.uri))) {
    return undefined;
  }
  let fromCode: string | null | undefined;
  try {
    fromCode = deps.ui.codeLenses ? tasksetFromLenses(await deps.ui.codeLenses(editor.uri), editor.line) : undefined;
  } catch (err) {
    deps.log(`Reading the code lenses failed: ${errorText(err)}`);
  }
  let tasks: string | undefined;
  if (typeof fromCode === 'string') {
    // The server takes a taskset named in the code over the command's: don't ask for another.
    deps.log(`Taskset from the code: ${fromCode}`);
    tasks = fromCode;
  } else {
    tasks = await promptForTaskset(deps.ui, deps.run, {
      defaultTaskset: deps.defaultTaskset(),
      at: { uri: editor.uri, line: editor.line, character: editor.character },
      log: deps.log,
    });
  }
  if (tasks === undefined) {
    return undefined;
  }
  const args: SubmitArgs = {
    uri: editor.uri,
    line: editor.line,
    character: editor.character,
    tasks,
    clientReportsOutcome: true,
  };
  deps.log(`Submitting ${editor.uri}:${editor.line + 1}:${editor.character + 1} with taskset ${tasks}`);
  try {
    const result = await deps.ui.withProgress(
      `Submitting evaluation (${tasks})…`,
      (progress) => deps.run(SERVER_COMMANDS.submit, [args], progress),
      true,
    );
    await reportSubmitted(deps, result);
    return result;
  } catch (err) {
    deps.log(`evalsubmit.submit failed: ${errorText(err)}`);
    await deps.ui.message('error', `Submit evaluation failed: ${errorText(err)}`);
    return undefined;
  }
}

/** Client command Show Job: pick a job (this window's submissions, or type a name), then open
 * its view. */
export async function showJob(
  deps: Pick<SubmitDeps, 'ui' | 'history' | 'openJob'>,
  given?: JobRef,
  logsOnly = false,
): Promise<void> {
  let job = given;
  if (!job) {
    const items = deps.history.list().map((j) => ({
      label: j.name,
      description: [j.workspace, j.status].filter(Boolean).join(' · '),
    }));
    const name = items.length
      ? await deps.ui.pickOrType(items, {
          title: logsOnly ? 'Show job logs' : 'Show job',
          placeholder: 'Choose a job submitted from this window, or type a job name',
        })
      : await deps.ui.inputBox({ title: logsOnly ? 'Show job logs' : 'Show job', prompt: 'Job name', placeHolder: 'job name' });
    if (!name) {
      return;
    }
    job = deps.history.find(name.trim()) ?? { name: name.trim() };
  }
  await deps.openJob(job, logsOnly);
}

function positionOf(arg: Record<string, unknown>): { uri: string; line: number; character: number } | undefined {
  const { uri, line, character } = arg;
  return typeof uri === 'string' && typeof line === 'number' && typeof character === 'number'
    ? { uri, line, character }
    : undefined;
}
