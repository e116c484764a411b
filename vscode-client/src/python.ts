/**
 * Finding a Python >= 3.11 for the server: the `evalsubmit.interpreter` setting, else the Python
 * extension's selected environment, else `python3` / `python` (and `python3.1x`) on PATH.
 * No `vscode` import: the Python extension's API and process spawning are passed in.
 */
import { execFile } from 'node:child_process';

export const MIN_PYTHON: readonly [number, number] = [3, 11];

export interface PythonCommand {
  /** Program to run (`/path/to/python`, or the first item of an array-valued setting). */
  command: string;
  /** Arguments placed before the script arguments (array-valued setting, e.g. `py -3`). */
  args: string[];
  source: 'setting' | 'python-extension' | 'path';
}

/** What `<python> -c PROBE` reports. */
export interface PythonInfo {
  command: PythonCommand;
  version: [number, number, number];
  /** `sys.executable`: the real interpreter behind a shim or a launcher. */
  executable: string;
  /** True for a free-threaded build (no binary wheels are bundled for those). */
  freeThreaded: boolean;
  /** `evalsubmit` importable there (version), for `evalsubmit.importStrategy: fromEnvironment`. */
  evalsubmit?: { version: string; location: string };
}

export type ProbeResult =
  | { ok: true; info: PythonInfo }
  | { ok: false; reason: 'not-found' | 'error'; detail: string };

/** The part of the ms-python extension's exported API that is used (`environments` API). */
export interface PythonExtensionApi {
  environments?: {
    getActiveEnvironmentPath(resource?: unknown): { id: string; path: string } | undefined;
    resolveEnvironment(
      env: { id: string; path: string } | string,
    ): Promise<{ executable: { uri?: { fsPath: string } } } | undefined>;
    readonly known?: readonly { id: string; path: string; executable?: { uri?: { fsPath: string } } }[];
    onDidChangeActiveEnvironmentPath?: (listener: () => unknown) => { dispose(): unknown };
  };
  settings?: {
    getExecutionDetails?(resource?: unknown): { execCommand?: string[] };
  };
}

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
    // The Python extension failing to answer is not our error: fall back to PATH.
  }
  return undefined;
}

/** The Python extension's selected interpreter, asked for only in a trusted workspace: in
 * Restricted Mode the workspace may have chosen it (its `.venv`, `python.defaultInterpreterPath`)
 * and the server would run it. Untrusted, the API is not even loaded. */
export async function interpreterWhenTrusted(
  trusted: () => boolean,
  api: () => Promise<PythonExtensionApi | undefined>,
  resource?: unknown,
): Promise<string[] | undefined> {
  return trusted() ? interpreterFromPythonExtension(await api(), resource) : undefined;
}

/** Restarts the server when the Python extension's selected environment changes, while the
 * server follows it (no `evalsubmit.interpreter`) and the workspace is trusted (before trust it
 * is not used, and granting trust restarts anyway). */
export function watchPythonExtension(
  api: PythonExtensionApi | undefined,
  deps: { trusted(): boolean; follows(): boolean; restart(): void },
): { dispose(): unknown } | undefined {
  return api?.environments?.onDidChangeActiveEnvironmentPath?.(() => {
    if (deps.trusted() && deps.follows()) {
      deps.restart();
    }
  });
}

/** Every interpreter the Python extension knows (for the picker); never throws. */
export function knownToPythonExtension(api: PythonExtensionApi | undefined): string[] {
  try {
    return (api?.environments?.known ?? [])
      .map((e) => e.executable?.uri?.fsPath ?? e.path)
      .filter((p): p is string => typeof p === 'string' && p !== '');
  } catch {
    return [];
  }
}

/** Names tried on PATH, in this order, when neither the setting nor the Python extension names
 * an interpreter. */
export function pathCandidates(platform: NodeJS.Platform = process.platform): PythonCommand[] {
  const names =
    platform === 'win32'
      ? [['python'], ['py', '-3']]
      : [['python3'], ['python'], ['python3.15'], ['python3.14'], ['python3.13'], ['python3.12'], ['python3.11']];
  return names.map(([command, ...args]) => ({ command, args, source: 'path' as const }));
}

export function describe(python: PythonCommand): string {
  return [python.command, ...python.args].join(' ');
}

export function versionText(info: PythonInfo): string {
  return info.version.join('.');
}

export function isSupported(info: PythonInfo): boolean {
  const [major, minor] = info.version;
  return major > MIN_PYTHON[0] || (major === MIN_PYTHON[0] && minor >= MIN_PYTHON[1]);
}

export type ExecResult = { code: number | null; stdout: string; stderr: string; error?: string };
export type Exec = (
  command: string,
  args: string[],
  timeoutMs: number,
  env?: NodeJS.ProcessEnv,
) => Promise<ExecResult>;

export const nodeExec: Exec = (command, args, timeoutMs, env) =>
  new Promise((resolve) => {
    execFile(
      command,
      args,
      { timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024, env: env ?? process.env, windowsHide: true },
      (err, stdout, stderr) => {
        const e = err as (NodeJS.ErrnoException & { code?: number | string }) | null;
        resolve({
          code: e ? (typeof e.code === 'number' ? e.code : null) : 0,
          stdout: String(stdout),
          stderr: String(stderr),
          error: e ? (typeof e.code === 'string' ? e.code : e.message) : undefined,
        });
      },
    );
  });

/** An environment for running a Python that no variable of the user's shell can redirect
 * (PYTHONPATH, PYTHONHOME, PYTHONSTARTUP, ... and pip's PIP_* settings). */
export function cleanEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(env)) {
    if (!/^(PYTHON|PIP_|VIRTUAL_ENV$|CONDA_PREFIX$|__PYVENV_LAUNCHER__$)/.test(k)) {
      out[k] = v;
    }
  }
  return out;
}

const PROBE = [
  'import json, sys, sysconfig',
  'info = {"version": list(sys.version_info[:3]), "executable": sys.executable,',
  '        "freeThreaded": bool(sysconfig.get_config_var("Py_GIL_DISABLED"))}',
  'try:',
  '    import importlib.metadata, importlib.util',
  '    spec = importlib.util.find_spec("evalsubmit")',
  '    if spec is not None:',
  '        info["evalsubmit"] = {"version": importlib.metadata.version("evalsubmit"),',
  '                              "location": spec.origin or ""}',
  'except Exception:',
  '    pass',
  'print("EVALSUBMIT-PROBE " + json.dumps(info))',
].join('\n');

/** Runs the interpreter once (`-P`, in VS Code's environment, as `fromEnvironment` runs the
 * server) and reports what it is. */
export async function probePython(python: PythonCommand, exec: Exec = nodeExec): Promise<ProbeResult> {
  const r = await exec(python.command, [...python.args, '-P', '-c', PROBE], 20_000);
  if (r.error === 'ENOENT' || r.error === 'EACCES') {
    return { ok: false, reason: 'not-found', detail: `${describe(python)}: not found` };
  }
  const line = r.stdout.split('\n').find((l) => l.startsWith('EVALSUBMIT-PROBE '));
  if (r.code !== 0 || !line) {
    // `-P` is new in 3.11: an older Python stops with "Unknown option: -P".
    const old = /Unknown option.*-P|unknown option -P/i.test(r.stderr);
    const detail = old ? 'older than Python 3.11' : lastLine(r.stderr) || r.error || `exit code ${r.code}`;
    return { ok: false, reason: 'error', detail: `${describe(python)}: ${detail}` };
  }
  try {
    const raw = JSON.parse(line.slice('EVALSUBMIT-PROBE '.length)) as {
      version: [number, number, number];
      executable: string;
      freeThreaded: boolean;
      evalsubmit?: { version: string; location: string };
    };
    return {
      ok: true,
      info: {
        command: python,
        version: raw.version,
        executable: raw.executable || python.command,
        freeThreaded: raw.freeThreaded,
        evalsubmit: raw.evalsubmit,
      },
    };
  } catch (err) {
    return { ok: false, reason: 'error', detail: `${describe(python)}: unreadable probe output (${String(err)})` };
  }
}

function lastLine(text: string): string {
  const lines = text.trim().split('\n');
  return lines[lines.length - 1] ?? '';
}

export type FoundPython =
  | { ok: true; info: PythonInfo; tried: string[] }
  | { ok: false; tried: string[]; fromSetting: boolean };

/**
 * The Python for the server. A set `evalsubmit.interpreter` is the only one tried (the user chose
 * it: a bad choice is reported, not silently replaced); otherwise the Python extension's
 * environment, then the PATH names, and the first one >= 3.11 wins. `tried` says why each other
 * candidate was passed over.
 */
export async function findPython(
  setting: string[],
  pythonExtension: () => Promise<string[] | undefined>,
  exec: Exec = nodeExec,
  candidates: PythonCommand[] = pathCandidates(),
): Promise<FoundPython> {
  const tried: string[] = [];
  const attempt = async (python: PythonCommand): Promise<PythonInfo | undefined> => {
    const r = await probePython(python, exec);
    if (!r.ok) {
      tried.push(r.detail);
      return undefined;
    }
    if (!isSupported(r.info)) {
      tried.push(`${describe(python)}: Python ${versionText(r.info)} is older than 3.11`);
      return undefined;
    }
    return r.info;
  };
  if (setting.length > 0) {
    const info = await attempt({ command: setting[0], args: setting.slice(1), source: 'setting' });
    return info ? { ok: true, info, tried } : { ok: false, tried, fromSetting: true };
  }
  const fromExt = await pythonExtension();
  if (fromExt && fromExt.length > 0) {
    const info = await attempt({ command: fromExt[0], args: fromExt.slice(1), source: 'python-extension' });
    if (info) {
      return { ok: true, info, tried };
    }
  }
  for (const candidate of candidates) {
    const info = await attempt(candidate);
    if (info) {
      return { ok: true, info, tried };
    }
  }
  return { ok: false, tried, fromSetting: false };
}
