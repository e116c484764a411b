/**
 * How the server is started: which Python (python.ts), then either the bundled server in its
 * private venv (bundle.ts, the default) or, with `evalsubmit.importStrategy: fromEnvironment`,
 * the `evalsubmit` installed in that Python (falling back to the bundle when it has none, as
 * Ruff's extension does). Never asks the user anything: a problem is returned, to be shown
 * without waiting for an answer. Also which Python environment the server reads installed
 * packages from when `evalsubmit.python` is empty (`withEnvironmentPython`). No `vscode` import.
 */
import * as path from 'node:path';
import { Bundle, BUNDLED_SERVER_ARGS, InstallDeps, ensureBundledServer, venvsDir } from './bundle';
import { Exec, PythonInfo, describe, findPython, nodeExec, versionText } from './python';
import type { ServerSettings } from './settings';
import { missingInterpreter } from './pathwarnings';

export type ImportStrategy = 'useBundled' | 'fromEnvironment';

export interface Launch {
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  /** The interpreter found, for logs, Debug Info and the status item. */
  python: PythonInfo;
  /** Where the server's code comes from. */
  server: 'bundled' | 'environment';
  /** The folder of the extension's private venvs (the bundled server's, of every build and
   * interpreter): no Python in it is the user's. */
  privateVenvs: string;
  /** One line for the log and the status item. */
  summary: string;
}

export interface Problem {
  state: 'no-python' | 'failed';
  /** One sentence for the notification and the status item. */
  message: string;
  /** The lines of the log that explain it. */
  details: string[];
}

export interface LaunchDeps {
  interpreter: string[];
  strategy: ImportStrategy;
  pythonExtension: () => Promise<string[] | undefined>;
  bundle: Bundle | string;
  install: InstallDeps;
  exec?: Exec;
  env?: NodeJS.ProcessEnv;
}

export function isProblem(x: Launch | Problem): x is Problem {
  return 'message' in x;
}

export async function prepareLaunch(deps: LaunchDeps): Promise<Launch | Problem> {
  const exec = deps.exec ?? nodeExec;
  const found = await findPython(deps.interpreter, deps.pythonExtension, exec);
  if (!found.ok) {
    const absent = missingInterpreter(deps.interpreter)[0]?.slice('evalsubmit.interpreter: '.length);
    const message = !found.fromSetting
      ? 'evalsubmit needs Python 3.11 or newer and found none (set "evalsubmit.interpreter" or select an interpreter).'
      : absent !== undefined
        ? `evalsubmit: "evalsubmit.interpreter" is set to ${absent}, which does not exist.`
        : `evalsubmit: the interpreter in "evalsubmit.interpreter" cannot run the server (${found.tried[0] ?? 'not usable'}).`;
    return { state: 'no-python', message, details: found.tried };
  }
  const python = found.info;
  const where = `Python ${versionText(python)} (${python.command.source}: ${describe(python.command)} -> ${python.executable})`;
  const env = { ...(deps.env ?? process.env), PYTHONUNBUFFERED: '1' };
  const skipped = found.tried.map((t) => `passed over ${t}`);
  if (deps.strategy === 'fromEnvironment') {
    if (python.evalsubmit) {
      return {
        command: python.command.command,
        args: [...python.command.args, '-P', '-m', 'evalsubmit.lsp'],
        env,
        python,
        server: 'environment',
        privateVenvs: venvsDir(deps.install.storage),
        summary: `evalsubmit ${python.evalsubmit.version} from the environment of ${where}`,
      };
    }
    deps.install.log(`importStrategy fromEnvironment: evalsubmit is not installed in ${python.executable}; using the bundled server.`);
  }
  if (typeof deps.bundle === 'string') {
    return { state: 'failed', message: `evalsubmit: ${deps.bundle}.`, details: skipped };
  }
  const installed = await ensureBundledServer(deps.bundle, python, deps.install);
  if (!installed.ok) {
    return {
      state: 'failed',
      message: `evalsubmit: the bundled language server could not be set up: ${installed.detail}.`,
      details: [...skipped, installed.detail],
    };
  }
  return {
    command: installed.python,
    args: BUNDLED_SERVER_ARGS,
    env,
    python,
    server: 'bundled',
    privateVenvs: venvsDir(deps.install.storage),
    summary: `bundled evalsubmit ${deps.bundle.manifest.evalsubmit} in ${installed.dir}, made from ${where}`,
  };
}

/**
 * The user's Python the server reads installed packages from (imports, ES111) when
 * `evalsubmit.python` is empty: the interpreter found for the server (`evalsubmit.interpreter`,
 * else the Python extension's environment, else PATH), as its probed `sys.executable` — the
 * Python the user chose, never the private venv made from it that runs the bundled server.
 * Undefined when there is none usable: not an absolute path (the server would resolve a bare
 * name against the workspace folder), or inside the extension's private venvs.
 */
export function environmentPython(launch: Launch): string | undefined {
  const exe = launch.python.executable;
  if (!exe || !path.isAbsolute(exe)) {
    return undefined;
  }
  if (launch.server === 'bundled' && path.resolve(exe) === path.resolve(launch.command)) {
    return undefined;
  }
  const rel = path.relative(path.resolve(launch.privateVenvs), path.resolve(exe));
  const outside = rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel);
  if (!outside) {
    return undefined;
  }
  return exe;
}

/** The interpreter of a project environment in `folder` (`.venv`, then `venv`), if one
 * exists. Only asked for in a trusted workspace: the server runs it to read its paths. */
export function workspaceVenvPython(
  folder: string,
  exists: (p: string) => boolean,
  platform: NodeJS.Platform = process.platform,
): string | undefined {
  const exe = platform === 'win32' ? path.join('Scripts', 'python.exe') : path.join('bin', 'python');
  return ['.venv', 'venv'].map((name) => path.join(folder, name, exe)).find(exists);
}

/** The settings sent to the server (`initializationOptions`, answers to
 * `workspace/configuration` per folder): a non-empty `evalsubmit.python` wins; then, when the
 * server's Python was only found on PATH (neither set nor chosen in the Python extension), the
 * folder's own `.venv`/`venv` (`venv`, given only in a trusted workspace), as Pylance would;
 * else the user's Python found for the server (`environmentPython`). */
export function withEnvironmentPython(settings: ServerSettings, launch: Launch | undefined, venv?: string): ServerSettings {
  if (settings.python !== null || !launch) {
    return settings;
  }
  if (venv && launch.python.command.source === 'path') {
    return { ...settings, python: venv };
  }
  const python = environmentPython(launch);
  return python ? { ...settings, python } : settings;
}

/** Whether a change of the Python extension's active environment changes the server's
 * interpreter (and so the `python` sent): yes unless `evalsubmit.interpreter` names it. */
export function followsPythonExtension(launch: Launch | undefined): boolean {
  return launch?.python.command.source !== 'setting';
}
