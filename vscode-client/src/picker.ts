/** "evalsubmit: Select Interpreter": a quick pick of the Pythons >= 3.11 found (PATH, the Python
 * extension's environments, the current setting) plus "Browse...", written to the user setting
 * `evalsubmit.interpreter`. No `vscode` import. */
import * as fs from 'node:fs';
import {
  Exec,
  PythonCommand,
  PythonInfo,
  describe,
  isSupported,
  nodeExec,
  pathCandidates,
  probePython,
  versionText,
} from './python';
import { PickItem, Ui } from './ui';

export const BROWSE = 'Browse...';
export const AUTOMATIC = 'Find automatically';

export interface PickerDeps {
  ui: Ui;
  /** The current `evalsubmit.interpreter` (substituted), empty when not set. */
  current: string[];
  /** Interpreters the Python extension knows (its active one first). */
  fromPythonExtension: () => Promise<string[]>;
  /** Writes `evalsubmit.interpreter` (undefined: remove it). */
  write: (value: string | undefined) => Promise<void>;
  exec?: Exec;
  candidates?: PythonCommand[];
}

interface Found extends PickItem {
  value: string | undefined;
  kind: 'python' | 'browse' | 'automatic';
}

/** Probes every candidate once (in parallel), keeping supported ones, one per real executable. */
export async function discover(deps: Pick<PickerDeps, 'current' | 'fromPythonExtension' | 'exec' | 'candidates'>): Promise<PythonInfo[]> {
  const exec = deps.exec ?? nodeExec;
  const commands: PythonCommand[] = [];
  if (deps.current.length > 0) {
    commands.push({ command: deps.current[0], args: deps.current.slice(1), source: 'setting' });
  }
  for (const p of await deps.fromPythonExtension()) {
    commands.push({ command: p, args: [], source: 'python-extension' });
  }
  commands.push(...(deps.candidates ?? pathCandidates()));
  const probed = await Promise.all(commands.map((c) => probePython(c, exec)));
  const seen = new Set<string>();
  const found: PythonInfo[] = [];
  for (const r of probed) {
    if (!r.ok || !isSupported(r.info)) {
      continue;
    }
    const key = realpath(r.info.executable);
    if (!seen.has(key)) {
      seen.add(key);
      found.push(r.info);
    }
  }
  return found;
}

function realpath(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return p;
  }
}

const SOURCE_WORDS: Record<PythonCommand['source'], string> = {
  setting: 'current setting',
  'python-extension': 'Python extension',
  path: 'on PATH',
};

/** Runs the picker; returns what was written (a path, '' for "automatic"), or undefined. */
export async function selectInterpreter(deps: PickerDeps): Promise<string | undefined> {
  const found = await discover(deps);
  const items: Found[] = found.map((info) => ({
    label: `Python ${versionText(info)}`,
    description: info.command.source === 'path' ? describe(info.command) : info.executable,
    detail: `${info.executable} · ${SOURCE_WORDS[info.command.source]}`,
    value: info.command.source === 'path' ? info.executable : describe(info.command),
    kind: 'python',
  }));
  items.push({ label: BROWSE, description: 'Choose a Python executable', value: undefined, kind: 'browse' });
  if (deps.current.length > 0) {
    items.push({
      label: AUTOMATIC,
      description: "Remove the setting: the Python extension's interpreter, else python3 on PATH",
      value: undefined,
      kind: 'automatic',
    });
  }
  const chosen = await deps.ui.pick(items, {
    title: 'evalsubmit: Python for the language server (3.11 or newer)',
    placeholder: found.length ? 'Choose an interpreter' : 'No Python 3.11+ found: browse for one',
  });
  if (!chosen) {
    return undefined;
  }
  if (chosen.kind === 'automatic') {
    await deps.write(undefined);
    return '';
  }
  let value = chosen.value;
  if (chosen.kind === 'browse') {
    const file = await deps.ui.openFile({ title: 'Python executable for evalsubmit' });
    if (!file) {
      return undefined;
    }
    const r = await probePython({ command: file, args: [], source: 'setting' }, deps.exec ?? nodeExec);
    if (!r.ok) {
      await deps.ui.message('error', `evalsubmit: ${r.detail}`);
      return undefined;
    }
    if (!isSupported(r.info)) {
      await deps.ui.message('error', `evalsubmit: ${file} is Python ${versionText(r.info)}; the server needs 3.11 or newer.`);
      return undefined;
    }
    value = file;
  }
  if (!value) {
    return undefined;
  }
  await deps.write(value);
  return value;
}
