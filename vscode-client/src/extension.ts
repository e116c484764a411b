/** Wiring only: builds the pieces and connects them to VS Code through `vscodeapi`. */
import * as fs from 'node:fs';
import { readBundle } from './bundle';
import { CLIENT_COMMANDS, PYTHON_EXTENSION_ID, SECTION, SERVER_COMMANDS } from './constants';
import { debounce } from './debounce';
import { JOB_SCHEME, JobViews, jobUri } from './jobview';
import { followsPythonExtension, prepareLaunch, workspaceVenvPython } from './launch';
import { RecentMessages } from './notify';
import { selectInterpreter } from './picker';
import { MissingPaths } from './pathwarnings';
import { restrictedKeysSet, restrictedModeLine } from './restricted';
import { PythonExtensionApi, interpreterFromPythonExtension, interpreterWhenTrusted, knownToPythonExtension, watchPythonExtension } from './python';
import { ServerManager } from './server';
import {
  importStrategy,
  interpreterSetting,
  needsRestart,
  notificationLevel,
  readServerSettings,
  redact,
  expandPathSettings,
  substituteVariables,
} from './settings';
import { PlatformInfo, ServerState, platformFromDebugInfo, platformFromInfo, platformView, serverVersion, statusView } from './status';
import { JobHistory, JobRef, SubmitDeps, executeCommandMiddleware, showJob, submitEvaluation } from './submit';
import { withTimeout } from './tasksets';
import { BASE_URL_SETTING, PlatformSetup, platformActions, setPlatformUrl } from './platformsetup';
import { PlatformToken, TOKEN_KEY, setPlatformToken } from './token';
import { Ui, errorText } from './ui';
import * as api from './vscodeapi';

const SELECT_INTERPRETER = 'Select Interpreter';
const SHOW_LOGS = 'Show Logs';
const DEBUG_SCHEME = 'evalsubmit-info';
/** package.json `capabilities.untrustedWorkspaces.restrictedConfigurations`. */
export const RESTRICTED_SETTINGS = ['evalsubmit.interpreter', 'evalsubmit.python', 'evalsubmit.importStrategy', 'evalsubmit.platform.baseUrl'];

let manager: ServerManager | undefined;

export async function activate(context: api.ExtensionContext): Promise<void> {
  const log = api.createLogOutputChannel('evalsubmit');
  const status = api.createLanguageStatusItem('evalsubmit.status');
  status.name = 'evalsubmit';
  const platformItem = api.createLanguageStatusItem('evalsubmit.platform');
  platformItem.name = 'evalsubmit platform';
  context.subscriptions.push(log, status, platformItem);

  const recent = new RecentMessages();
  const ui: Ui = {
    message: (level, text, ...items) =>
      recent.admit(text) ? api.showMessage(level, text, ...items) : Promise.resolve(undefined),
    pickOrType: api.pickOrType,
    pick: api.pick,
    inputBox: api.showInputBox,
    openFile: api.openFile,
    withProgress: api.withProgress,
    activeEditor: api.activeEditorPosition,
    openExternal: api.openExternal,
    codeLenses: api.codeLenses,
  };
  const config = (scopeUri?: string) => api.getConfiguration(SECTION, scopeUri);
  const token = new PlatformToken(context.secrets);
  await token.load().catch((err) => log.warn(`Reading the platform token failed: ${errorText(err)}`));
  if (config().get('platform.token')) {
    log.warn('"evalsubmit.platform.token" in settings.json is ignored: run "evalsubmit: Set Platform Token" and remove it from settings.json.');
  }
  const missingPaths = new MissingPaths({
    log: (line) => log.warn(line),
    warn: (text, ...items) => (recent.admit(text) ? api.showMessage('warning', text, ...items) : Promise.resolve(undefined)),
    openSettings: api.openSettings,
  });
  const serverSettings = (scopeUri?: string) => {
    const folders = api.workspaceFolders();
    const folder = folders.find((f) => scopeUri !== undefined && (scopeUri === f.uri || scopeUri.startsWith(`${f.uri}/`))) ?? folders[0];
    const { settings, missing } = expandPathSettings(readServerSettings(config(scopeUri), token.current), {
      workspaceFolder: folder?.fsPath,
    });
    missingPaths.report(missing);
    return settings;
  };
  const history = new JobHistory();

  // --- the language status item: server state, and the platform of the active document
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
    status.command =
      state === 'no-python' || state === 'failed'
        ? { title: SELECT_INTERPRETER, command: CLIENT_COMMANDS.selectInterpreter }
        : { title: SHOW_LOGS, command: CLIENT_COMMANDS.showLogs };
    const where = platformView(state === 'running' ? platform : undefined);
    platformItem.text = where.text;
    platformItem.detail = where.detail;
    platformItem.severity = api.StatusSeverity[where.severity];
    platformItem.busy = state === 'running' && where.busy;
    platformItem.command = { title: 'Platform…', command: CLIENT_COMMANDS.platformActions };
  };
  render();

  const run = (command: string, args: unknown[], progress?: Parameters<ServerManager['execute']>[2]) => {
    if (!manager) {
      return Promise.reject(new Error('the evalsubmit language server is not running'));
    }
    return manager.execute(command, args, progress);
  };

  /** Where a submission from the active document goes: the server's `evalsubmit.platformInfo`
   * for that document (the workspace its code names, as the hover says), else debugInfo. */
  const refreshPlatform = async () => {
    if (!manager?.running) {
      return;
    }
    const editor = api.activeEditorPosition();
    try {
      if (manager.serverHasCommand(SERVER_COMMANDS.platformInfo)) {
        const uri = editor?.languageId === 'python' ? { uri: editor.uri } : {};
        // Where first (at once), then whether it answers (the server asks it, or reuses an
        // answer of the last few seconds).
        platform = platformFromInfo(await withTimeout(run(SERVER_COMMANDS.platformInfo, [uri]), 10_000, 'platformInfo'));
        render();
        platform = platformFromInfo(await withTimeout(run(SERVER_COMMANDS.platformInfo, [{ ...uri, check: true }]), 15_000, 'platformInfo'));
      } else if (manager.serverHasCommand(SERVER_COMMANDS.debugInfo)) {
        const info = await withTimeout(run(SERVER_COMMANDS.debugInfo, []), 10_000, 'debugInfo');
        platform = platformFromDebugInfo(info);
        version = serverVersion(info);
      }
      render();
    } catch (err) {
      log.warn(`Reading the platform of the active document failed: ${errorText(err)}`);
    }
  };

  // --- jobs: read-only views refreshed while the job runs
  const jobDocs = api.registerReadOnlyDocuments(JOB_SCHEME, (uri) => jobViews.provide(uri));
  const jobViews = new JobViews({
    run,
    changed: (uri) => jobDocs.changed(uri),
    isOpen: api.isDocumentOpen,
    refreshS: () => Math.max(1, serverSettings().platform.pollIntervalS),
    scopeUri: () => {
      const editor = api.activeEditorPosition();
      return editor?.languageId === 'python' ? editor.uri : undefined;
    },
    log: (line) => log.info(line),
  });
  const openJob = async (job: JobRef, logsOnly = false) => {
    const uri = jobUri(job, logsOnly);
    await jobViews.load(uri);
    jobDocs.changed(uri);
    await api.openDocument(uri, 'log');
  };
  context.subscriptions.push(jobDocs, { dispose: () => jobViews.dispose() });
  context.subscriptions.push(api.onDidCloseDocument((uri) => jobViews.closed(uri)));

  const debugTexts = new Map<string, string>();
  const debugDocs = api.registerReadOnlyDocuments(DEBUG_SCHEME, async (uri) => debugTexts.get(uri) ?? '{}\n');
  context.subscriptions.push(debugDocs);

  const restartWaiters: (() => void)[] = [];
  const platformSetup: PlatformSetup = {
    applyBaseUrl: async (url, scope) => {
      const before = serverSettings().platform.baseUrl;
      // Every settings change restarts the server (debounced): wait for that restart, so the
      // submission that carries on goes to the new URL.
      const restarted = new Promise<void>((resolve) => restartWaiters.push(resolve));
      await api.updateSetting(BASE_URL_SETTING, url, scope);
      if (serverSettings().platform.baseUrl !== before) {
        await withTimeout(restarted, 60_000, 'server restart');
      }
    },
    openSettings: api.openSettings,
    hasWorkspace: () => api.workspaceFolders().length > 0,
    currentBaseUrl: () => serverSettings().platform.baseUrl,
  };
  const submitDeps: SubmitDeps = {
    ui,
    run,
    history,
    defaultTaskset: () => serverSettings().defaultTaskset,
    log: (line) => log.info(line),
    openJob,
    platform: platformSetup,
  };

  // --- the server
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
  const interpreter = () => {
    const folder = api.workspaceFolders()[0];
    const expanded = interpreterSetting(config(folder?.uri).get('interpreter')).map((p) =>
      substituteVariables(p, { workspaceFolder: folder?.fsPath }),
    );
    // a missing interpreter stops the server: the launch problem says so (with Select
    // Interpreter), so it is not told a second time here
    return expanded;
  };
  const bundle = readBundle(context.extensionPath);

  const trusted = api.isWorkspaceTrusted();
  if (!trusted) {
    const inFiles = restrictedKeysSet(api.workspaceSettingsFiles(), RESTRICTED_SETTINGS);
    const ignored = RESTRICTED_SETTINGS.filter((key) => inFiles.includes(key) || api.hasWorkspaceValue(key));
    log.info(restrictedModeLine(ignored, RESTRICTED_SETTINGS));
  }

  manager = new ServerManager({
    log,
    workspaceVenv: (scopeUri) => {
      if (!api.isWorkspaceTrusted()) {
        return undefined; // the server runs the interpreter: never one a workspace chose unseen
      }
      const folders = api.workspaceFolders();
      const folder = folders.find((f) => scopeUri !== undefined && (scopeUri === f.uri || scopeUri.startsWith(`${f.uri}/`))) ?? folders[0];
      return folder ? workspaceVenvPython(folder.fsPath, fs.existsSync) : undefined;
    },
    prepare: () =>
      prepareLaunch({
        interpreter: interpreter(),
        strategy: importStrategy(config()),
        pythonExtension: () => {
          const folder = api.workspaceFolders()[0];
          return interpreterWhenTrusted(api.isWorkspaceTrusted, pythonApi, folder ? folder.uri : undefined);
        },
        bundle,
        install: {
          storage: context.globalStorageUri.fsPath,
          log: (line) => log.info(line),
          progress: (title, task) => api.withProgress(title, () => task()),
        },
      }),
    onProblem: (problem) => {
      // Shown, never awaited: a restart (a settings change) goes ahead whatever the user does.
      if (recent.admit(problem.message)) {
        void api.showMessage('error', problem.message, SELECT_INTERPRETER, SHOW_LOGS).then((choice) => {
          if (choice === SELECT_INTERPRETER) {
            void api.executeCommand(CLIENT_COMMANDS.selectInterpreter);
          } else if (choice === SHOW_LOGS) {
            log.show();
          }
        });
      }
    },
    serverSettings,
    notificationLevel: () => notificationLevel(config()),
    cwd: () => api.workspaceFolders()[0]?.fsPath,
    onState: (s, detail) => {
      state = s;
      stateDetail = detail;
      render();
    },
    onRunning: () => {
      version = manager?.serverVersion;
      render();
      void refreshPlatform();
    },
    executeCommandMiddleware: executeCommandMiddleware(submitDeps),
    showMessage: (level, text) => {
      if (recent.admit(text)) {
        void api.showMessage(level, text, SHOW_LOGS).then((c) => c && log.show());
      }
    },
  });

  const restartSoon = debounce(() => {
    log.info('Settings changed: restarting the server.');
    const waiters = restartWaiters.splice(0);
    const done = () => waiters.forEach((resolve) => resolve());
    void (manager ? manager.restart().then(done, done) : done());
  }, 300);
  const refreshPlatformSoon = debounce(() => void refreshPlatform(), 300);

  context.subscriptions.push(
    api.registerCommand(CLIENT_COMMANDS.restartServer, () => manager?.restart()),
    api.registerCommand(CLIENT_COMMANDS.showLogs, () => log.show()),
    api.registerCommand(CLIENT_COMMANDS.submitEvaluation, () => submitEvaluation(submitDeps)),
    api.registerCommand(CLIENT_COMMANDS.showJob, () => showJob(submitDeps)),
    api.registerCommand(CLIENT_COMMANDS.showJobLogs, () => showJob(submitDeps, undefined, true)),
    api.registerCommand(CLIENT_COMMANDS.selectInterpreter, async () => {
      const chosen = await selectInterpreter({
        ui,
        current: interpreter(),
        fromPythonExtension: async () => {
          const py = await pythonApi();
          const active = await interpreterFromPythonExtension(py);
          return [...(active ? [active[0]] : []), ...knownToPythonExtension(py)].slice(0, 20);
        },
        write: (value) => Promise.resolve(api.updateUserSetting('evalsubmit.interpreter', value)),
      });
      if (chosen !== undefined) {
        log.info(`evalsubmit.interpreter set to ${chosen === '' ? '(automatic)' : chosen}.`);
      }
    }),
    api.registerCommand(CLIENT_COMMANDS.setPlatformUrl, async () => {
      if (await setPlatformUrl(ui, platformSetup, (line) => log.info(line))) {
        await refreshPlatform();
      }
    }),
    api.registerCommand(CLIENT_COMMANDS.platformActions, async () => {
      const chosen = await ui.pick(platformActions(platform), { title: 'NeMo Platform', placeholder: 'Where evaluations are submitted' });
      if (chosen) {
        await api.executeCommand(chosen.command);
      }
    }),
    api.registerCommand(CLIENT_COMMANDS.setPlatformToken, async () => {
      if (await setPlatformToken(ui, token, serverSettings().platform.baseUrl)) {
        log.info('Platform token changed: restarting the server.');
        void manager?.restart();
      }
    }),
    api.registerCommand(CLIENT_COMMANDS.showDebugInfo, async () => {
      const launch = manager?.current;
      const client = {
        server: launch ? { command: [launch.command, ...launch.args], source: launch.server, summary: launch.summary } : undefined,
        python: launch?.python,
        state,
        // what the server gets: `python` is the interpreter found when evalsubmit.python is empty
        settings: redact(manager?.settings() ?? serverSettings()),
        importStrategy: importStrategy(config()),
      };
      let server: unknown;
      try {
        server = await run(SERVER_COMMANDS.debugInfo, []);
      } catch (err) {
        server = { error: errorText(err) };
      }
      const uri = `${DEBUG_SCHEME}:/evalsubmit-debug-info.json`;
      debugTexts.set(uri, JSON.stringify({ client, server }, null, 2) + '\n');
      debugDocs.changed(uri);
      await api.openDocument(uri, 'json');
    }),
    api.onDidChangeConfiguration((e) => {
      if (needsRestart((key) => e.affectsConfiguration(key))) {
        restartSoon();
      }
    }),
    api.onDidChangeSecret(context.secrets, TOKEN_KEY, () => {
      void token.load().then((changed) => changed && restartSoon());
    }),
    api.onDidChangeActiveEditor(() => refreshPlatformSoon()),
    api.onDidGrantWorkspaceTrust(() => {
      log.info('The workspace is trusted now: restarting the server with its settings and environment.');
      void manager?.restart();
    }),
    { dispose: () => restartSoon.cancel() },
    { dispose: () => refreshPlatformSoon.cancel() },
  );

  // Restart when the Python extension's active environment changes and it is the one in use:
  // the new server runs from it and gets it as `python` (unless evalsubmit.python is set).
  void pythonApi().then((py) => {
    const sub = watchPythonExtension(py, {
      trusted: api.isWorkspaceTrusted,
      follows: () => followsPythonExtension(manager?.current),
      restart: () => {
        log.info('Python environment changed: restarting the server.');
        void manager?.restart();
      },
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
