/**
 * How the server is started: which Python (python.ts), then either the bundled server in its
 * private venv (bundle.ts, the default) or, with `evalsubmit.importStrategy: fromEnvironment`,
 * the `evalsubmit` installed in that Python (falling back to the bundle when it has none, as
 * Ruff's extension does). Never asks the user anything: a problem is returned, to be shown
 * without waiting for an answer. No `vscode` import.
 */
import { Bundle, BUNDLED_SERVER_ARGS, InstallDeps, ensureBundledServer } from './bundle';
import { Exec, PythonInfo, describe, findPython, nodeExec, versionText } from './python';

export type ImportStrategy = 'useBundled' | 'fromEnvironment';

export interface Launch {
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  /** The interpreter found, for logs, Debug Info and the status item. */
  python: PythonInfo;
  /** Where the server's code comes from. */
  server: 'bundled' | 'environment';
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
    const message = found.fromSetting
      ? `evalsubmit: the interpreter in "evalsubmit.interpreter" cannot run the server (${found.tried[0] ?? 'not usable'}).`
      : 'evalsubmit needs Python 3.11 or newer and found none (set "evalsubmit.interpreter" or select an interpreter).';
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
    summary: `bundled evalsubmit ${deps.bundle.manifest.evalsubmit} in ${installed.dir}, made from ${where}`,
  };
}
