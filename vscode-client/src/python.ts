/**
 * Which Python runs the server, whether `evalsubmit` is importable there, and how to install it.
 * No `vscode` import: the Python extension's API and process spawning are passed in.
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

export interface PythonCommand {
  /** Program to run (`/path/to/python`, or the first item of `evalsubmit.interpreter`). */
  command: string;
  /** Arguments before `-m ...` (from an array-valued `evalsubmit.interpreter`). */
  args: string[];
  source: 'setting' | 'python-extension' | 'default';
}

/** The part of the ms-python extension's exported API that is used (`environments` API). */
export interface PythonExtensionApi {
  environments?: {
    getActiveEnvironmentPath(resource?: unknown): { id: string; path: string } | undefined;
    resolveEnvironment(
      env: { id: string; path: string } | string,
    ): Promise<{ executable: { uri?: { fsPath: string } } } | undefined>;
    onDidChangeActiveEnvironmentPath?: (listener: () => unknown) => { dispose(): unknown };
  };
  settings?: {
    getExecutionDetails?(resource?: unknown): { execCommand?: string[] };
  };
}

export const DEFAULT_PYTHON = 'python3';

/** Interpreter from the Python extension's active environment, if it tells one. */
export async function interpreterFromPythonExtension(
  api: PythonExtensionApi | undefined,
  resource?: unknown,
): Promise<string[] | undefined> {
  if (!api) {
    return undefined;
  }
  try {
    const envs = api.environments;
    if (envs) {
      const active = envs.getActiveEnvironmentPath(resource);
      if (active) {
        const resolved = await envs.resolveEnvironment(active);
        const exe = resolved?.executable?.uri?.fsPath;
        if (exe) {
          return [exe];
        }
      }
    }
    const exec = api.settings?.getExecutionDetails?.(resource)?.execCommand;
    if (exec && exec.length > 0) {
      return exec;
    }
  } catch {
    // The Python extension failing to answer is not our error: fall back to python3.
  }
  return undefined;
}

/** `evalsubmit.interpreter`, else the Python extension's environment, else `python3`. */
export async function resolveInterpreter(
  setting: string[],
  pythonExtension: () => Promise<string[] | undefined>,
): Promise<PythonCommand> {
  if (setting.length > 0) {
    return { command: setting[0], args: setting.slice(1), source: 'setting' };
  }
  const fromExt = await pythonExtension();
  if (fromExt && fromExt.length > 0) {
    return { command: fromExt[0], args: fromExt.slice(1), source: 'python-extension' };
  }
  return { command: DEFAULT_PYTHON, args: [], source: 'default' };
}

export function serverArgs(python: PythonCommand): string[] {
  // -P (Python 3.11+, which the server requires): the workspace folder, the server's working
  // directory, is not put on sys.path, so no workspace module can shadow one of the server's.
  return [...python.args, '-P', '-m', 'evalsubmit.lsp'];
}

export function describe(python: PythonCommand): string {
  return [python.command, ...python.args].join(' ');
}

export type ExecResult = { code: number | null; stdout: string; stderr: string; error?: string };
export type Exec = (command: string, args: string[], timeoutMs: number) => Promise<ExecResult>;

export const nodeExec: Exec = (command, args, timeoutMs) =>
  new Promise((resolve) => {
    execFile(command, args, { timeout: timeoutMs, maxBuffer: 4 * 1024 * 1024 }, (err, stdout, stderr) => {
      const e = err as (NodeJS.ErrnoException & { code?: number | string }) | null;
      resolve({
        code: e ? (typeof e.code === 'number' ? e.code : null) : 0,
        stdout: String(stdout),
        stderr: String(stderr),
        error: e ? (typeof e.code === 'string' ? e.code : e.message) : undefined,
      });
    });
  });

export type PackageCheck =
  | { ok: true; version: string; location: string }
  | { ok: false; reason: 'no-python' | 'missing' | 'error'; detail: string };

const PROBE =
  'import json, evalsubmit\n' +
  'print(json.dumps({"version": getattr(evalsubmit, "__version__", ""), ' +
  '"location": (evalsubmit.__file__ or "")}))';

/** Runs `<python> -c "import evalsubmit"` and says whether the server package is there. */
export async function checkServerPackage(python: PythonCommand, exec: Exec = nodeExec): Promise<PackageCheck> {
  const r = await exec(python.command, [...python.args, '-c', PROBE], 30_000);
  if (r.error === 'ENOENT' || r.error === 'EACCES') {
    return { ok: false, reason: 'no-python', detail: `${describe(python)}: ${r.error}` };
  }
  if (r.code === 0) {
    try {
      const info = JSON.parse(r.stdout.trim().split('\n').pop() ?? '{}') as Record<string, string>;
      return { ok: true, version: info.version ?? '', location: info.location ?? '' };
    } catch {
      return { ok: true, version: '', location: '' };
    }
  }
  if (/ModuleNotFoundError|No module named/.test(r.stderr)) {
    return { ok: false, reason: 'missing', detail: lastLine(r.stderr) };
  }
  return { ok: false, reason: 'error', detail: lastLine(r.stderr) || r.error || `exit ${r.code}` };
}

function lastLine(text: string): string {
  const lines = text.trim().split('\n');
  return lines[lines.length - 1] ?? '';
}

/** A folder holding a checkout of this project (its pyproject names the `evalsubmit` project). */
export function findCheckout(
  candidates: string[],
  readFile: (p: string) => string | undefined = readIfExists,
): string | undefined {
  for (const dir of candidates) {
    const text = readFile(path.join(dir, 'pyproject.toml'));
    if (text && /^\s*name\s*=\s*["']evalsubmit["']/m.test(text)) {
      return dir;
    }
  }
  return undefined;
}

function readIfExists(p: string): string | undefined {
  try {
    return fs.readFileSync(p, 'utf8');
  } catch {
    return undefined;
  }
}

/** `pip install -e <checkout>` for a repo checkout, else `pip install evalsubmit`. */
export function installArgs(python: PythonCommand, checkout: string | undefined): string[] {
  const target = checkout ? ['-e', checkout] : ['evalsubmit'];
  return [...python.args, '-m', 'pip', 'install', ...target];
}
