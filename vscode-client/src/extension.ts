/** Wiring only: builds the pieces and connects them to VS Code through `vscodeapi`. */
import * as path from 'node:path';
import { CLIENT_COMMANDS, PYTHON_EXTENSION_ID, SECTION, SERVER_COMMANDS } from './constants';
import { debounce } from './debounce';
import { ensureServerPackage } from './install';
import {
  PythonExtensionApi,
  findCheckout,
  interpreterFromPythonExtension,
  resolveInterpreter,
} from './python';
import { RecentMessages } from './notify';
import { ServerManager } from './server';
import {
  interpreterSetting,
  needsRestart,
  notificationLevel,
  readServerSettings,
  redact,
  substituteVariables,
} from './settings';
import { PlatformInfo, ServerState, platformFromDebugInfo, serverVersion, statusView } from './status';
import { JobHistory, SubmitDeps, executeCommandMiddleware, showJob, submitEvaluation } from './submit';
import { withTimeout } from './tasksets';
import { Progress, Ui, errorText } from './ui';
import * as api from './vscodeapi';

let manager: ServerManager | undefined;

export async function activate(context: api.ExtensionContext): Promise<void> {
  const log = api.createLogOutputChannel('evalsubmit');
  const status = api.createLanguageStatusItem('evalsubmit.status');
  status.name = 'evalsubmit';
  status.command = { title: 'Show Logs', command: CLIENT_COMMANDS.showLogs };
  context.subscriptions.push(log, status);

  const recent = new RecentMessages();
  const ui: Ui = {
    message: (level, text, ...items) =>
      recent.admit(text) ? api.showMessage(level, text, ...items) : Promise.resolve(undefined),
    pickOrType: api.pickOrType,
    inputBox: api.showInputBox,
    withProgress: api.withProgress,
    activeEditor: api.activeEditorPosition,
    openUntitled: api.openUntitled,
    openExternal: api.openExternal,
    codeLenses: api.codeLenses,
  };
  const config = (scopeUri?: string) => api.getConfiguration(SECTION, scopeUri);
  const history = new JobHistory();

  let state: ServerState = 'starting';
  let stateDetail: string | undefined;
  let platform: PlatformInfo | undefined;
  let version: string | undefined;
  const render = () => {
    const view = statusView(state, platform, state === 'running' ? version : stateDetail);
    status.text = view.text;
    status.detail = view.detail;
    status.severity = api.StatusSeverity[view.severity];
    status.busy = view.busy;
  };
  render();

  const run = (command: string, args: unknown[], progress?: Progress) => {
    if (!manager) {
      return Promise.reject(new Error('the evalsubmit language server is not running'));
    }
    return manager.execute(command, args, progress);
  };

  const refreshDebugInfo = async () => {
    if (!manager?.serverHasCommand(SERVER_COMMANDS.debugInfo)) {
      return;
    }
    try {
      const info = await withTimeout(run(SERVER_COMMANDS.debugInfo, []), 10_000, 'debugInfo');
      platform = platformFromDebugInfo(info);
      version = serverVersion(info);
      render();
    } catch (err) {
      log.warn(`evalsubmit.debugInfo failed: ${errorText(err)}`);
    }
  };

  const submitDeps: SubmitDeps = {
    ui,
    run,
    history,
    defaultTaskset: () => readServerSettings(config()).defaultTaskset,
    log: (line) => log.info(line),
    showJob: (job) => showJob(submitDeps, job),
  };

  const pythonApi = async (): Promise<PythonExtensionApi | undefined> => {
    const ext = api.getExtension<PythonExtensionApi>(PYTHON_EXTENSION_ID);
    if (!ext) {
      return undefined;
    }
    try {
      return ext.isActive ? ext.exports : await withTimeout(Promise.resolve(ext.activate()), 15_000, 'Python extension');
    } catch (err) {
      log.warn(`The Python extension did not activate: ${errorText(err)}`);
      return undefined;
    }
  };

  manager = new ServerManager({
    log,
    resolvePython: async () => {
      const folder = api.workspaceFolders()[0];
      const setting = interpreterSetting(config(folder?.uri).get('interpreter')).map((p) =>
        substituteVariables(p, { workspaceFolder: folder?.fsPath }),
      );
      return resolveInterpreter(setting, async () =>
        interpreterFromPythonExtension(await pythonApi(), folder ? folder.uri : undefined),
      );
    },
    ensurePackage: async (python) => {
      const result = await ensureServerPackage(python, {
        ui,
        log: (line) => log.info(line),
        checkout: () =>
          findCheckout([
            ...api.workspaceFolders().map((f) => f.fsPath),
            path.dirname(context.extensionPath),
          ]),
        openInterpreterSetting: () => api.openSettings('evalsubmit.interpreter'),
      });
      if (result === 'ok' || result === 'installed') {
        return 'ok';
      }
      return result === 'no-python' ? 'no-python' : result === 'missing' ? 'missing-package' : 'failed';
    },
    serverSettings: (scopeUri) => readServerSettings(config(scopeUri)),
    notificationLevel: () => notificationLevel(config()),
    cwd: () => api.workspaceFolders()[0]?.fsPath,
    onState: (s, detail) => {
      state = s;
      stateDetail = detail;
      render();
    },
    onRunning: () => void refreshDebugInfo(),
    executeCommandMiddleware: executeCommandMiddleware(submitDeps),
    showMessage: (level, text) => {
      if (recent.admit(text)) {
        void api.showMessage(level, text, 'Show Logs').then((c) => c && log.show());
      }
    },
  });

  const restartSoon = debounce(() => {
    log.info('Settings changed: restarting the server.');
    void manager?.restart();
  }, 300);

  context.subscriptions.push(
    api.registerCommand(CLIENT_COMMANDS.restartServer, () => manager?.restart()),
    api.registerCommand(CLIENT_COMMANDS.showLogs, () => log.show()),
    api.registerCommand(CLIENT_COMMANDS.submitEvaluation, () => submitEvaluation(submitDeps)),
    api.registerCommand(CLIENT_COMMANDS.showJob, () => showJob(submitDeps)),
    api.registerCommand(CLIENT_COMMANDS.showDebugInfo, async () => {
      const client = {
        interpreter: manager?.interpreter,
        state,
        settings: redact(readServerSettings(config())),
      };
      let server: unknown;
      try {
        server = await run(SERVER_COMMANDS.debugInfo, []);
        platform = platformFromDebugInfo(server);
        version = serverVersion(server);
        render();
      } catch (err) {
        server = { error: errorText(err) };
      }
      await api.openUntitled(JSON.stringify({ client, server }, null, 2), 'json');
    }),
    api.onDidChangeConfiguration((e) => {
      if (needsRestart((key) => e.affectsConfiguration(key))) {
        restartSoon();
      }
    }),
    { dispose: () => restartSoon.cancel() },
  );

  // Restart when the Python extension's active environment changes (and evalsubmit.interpreter
  // is not set, so that environment is the one in use).
  void pythonApi().then((py) => {
    const sub = py?.environments?.onDidChangeActiveEnvironmentPath?.(() => {
      if (manager?.interpreter?.source === 'python-extension' || manager?.interpreter?.source === 'default') {
        log.info('Python environment changed: restarting the server.');
        void manager?.restart();
      }
    });
    if (sub) {
      context.subscriptions.push({ dispose: () => void sub.dispose() });
    }
  });

  context.subscriptions.push({ dispose: () => void manager?.stop() });
  await manager.start();
}

export async function deactivate(): Promise<void> {
  const m = manager;
  manager = undefined;
  await m?.stop();
}
