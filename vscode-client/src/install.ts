/** When `import evalsubmit` fails in the chosen Python: say so, offer to install it. */
import { Exec, PackageCheck, PythonCommand, checkServerPackage, describe, installArgs, nodeExec } from './python';
import { Ui } from './ui';

export type EnsureResult = 'ok' | 'installed' | 'missing' | 'no-python' | 'error';

export interface EnsureDeps {
  ui: Ui;
  log: (line: string) => void;
  /** A folder with a checkout of this project, for `pip install -e`. */
  checkout: () => string | undefined;
  openInterpreterSetting: () => PromiseLike<unknown>;
  exec?: Exec;
}

export const INSTALL = 'Install';
export const SELECT = 'Select Interpreter';

export async function ensureServerPackage(python: PythonCommand, deps: EnsureDeps): Promise<EnsureResult> {
  const exec = deps.exec ?? nodeExec;
  const check: PackageCheck = await checkServerPackage(python, exec);
  if (check.ok) {
    deps.log(`evalsubmit ${check.version || '(unknown version)'} found at ${check.location} (${describe(python)})`);
    return 'ok';
  }
  deps.log(`evalsubmit not usable with ${describe(python)}: ${check.detail}`);
  if (check.reason === 'no-python') {
    const choice = await deps.ui.message(
      'error',
      `evalsubmit: the Python interpreter "${describe(python)}" was not found. Set "evalsubmit.interpreter" or select an interpreter in the Python extension.`,
      SELECT,
    );
    if (choice === SELECT) {
      await deps.openInterpreterSetting();
    }
    return 'no-python';
  }
  if (check.reason === 'error') {
    await deps.ui.message(
      'error',
      `evalsubmit: importing the server package in ${describe(python)} failed: ${check.detail}`,
    );
    return 'error';
  }
  const checkout = deps.checkout();
  const args = installArgs(python, checkout);
  const commandLine = [python.command, ...args].join(' ');
  const choice = await deps.ui.message(
    'error',
    `evalsubmit: the language server package is not installed in ${describe(python)}. Install it with "${commandLine}"?`,
    INSTALL,
    SELECT,
  );
  if (choice === SELECT) {
    await deps.openInterpreterSetting();
    return 'missing';
  }
  if (choice !== INSTALL) {
    return 'missing';
  }
  deps.log(`Running: ${commandLine}`);
  const r = await deps.ui.withProgress(`Installing evalsubmit into ${describe(python)}…`, () =>
    exec(python.command, args, 10 * 60_000),
  );
  if (r.stdout) {
    deps.log(r.stdout.trimEnd());
  }
  if (r.stderr) {
    deps.log(r.stderr.trimEnd());
  }
  if (r.code !== 0) {
    await deps.ui.message('error', `evalsubmit: "${commandLine}" failed (${r.error ?? `exit ${r.code}`}). See the logs.`);
    return 'error';
  }
  const again = await checkServerPackage(python, exec);
  return again.ok ? 'installed' : 'error';
}
