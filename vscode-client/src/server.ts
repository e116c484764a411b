/** The language client's lifecycle: start, stop, restart (serialized), server messages filtered
 * by `evalsubmit.showNotifications`, and direct calls of the server's commands. */
import {
  ConfigurationParams,
  ExecuteCommandRequest,
  LanguageClient,
  LanguageClientOptions,
  MessageType,
  RevealOutputChannelOn,
  ServerOptions,
  ShowMessageNotification,
  State,
  WorkDoneProgress,
  WorkDoneProgressCancelNotification,
} from 'vscode-languageclient/node';
import { randomUUID } from 'node:crypto';
import { CLIENT_ID, CLIENT_NAME, DOCUMENT_SELECTOR, SECTION } from './constants';
import { Launch, Problem, environmentPython, isProblem, withEnvironmentPython } from './launch';
import { NotificationLevel, ServerSettings, shouldNotify } from './settings';
import { ServerState } from './status';
import type { Progress } from './ui';
import { LogSink } from './logsink';
import type { LogOutputChannel, OutputChannel } from './vscodeapi';

export interface ServerHooks {
  log: LogOutputChannel;
  /** Finds the Python and the server (installing the bundled one on first use). Never waits
   * for the user: a problem comes back as a value. */
  prepare(): Promise<Launch | Problem>;
  /** Tells the user about a problem without waiting for an answer. */
  onProblem(problem: Problem): void;
  /** The `.venv`/`venv` interpreter of the folder of `scopeUri` (else the first folder), only
   * in a trusted workspace. */
  workspaceVenv?(scopeUri?: string): string | undefined;
  serverSettings(scopeUri?: string): ServerSettings;
  notificationLevel(): NotificationLevel;
  cwd(): string | undefined;
  onState(state: ServerState, detail?: string): void;
  onRunning(): void;
  executeCommandMiddleware: (
    command: string,
    args: unknown[],
    next: (command: string, args: unknown[]) => unknown,
  ) => unknown;
  showMessage(level: 'error' | 'warning' | 'info', text: string): void;
}

export class ServerManager {
  private client: LanguageClient | undefined;
  private chain: Promise<unknown> = Promise.resolve();
  private launch: Launch | undefined;
  private queuedRestart: Promise<void> | undefined;
  private stopping = false;
  /** The running server's log sink: told why the server is stopped ("exited with code 0" alone
   * says little). */
  private sink: LogSink | undefined;

  constructor(private readonly hooks: ServerHooks) {}

  /** How the running (or last started) server was launched. */
  get current(): Launch | undefined {
    return this.launch;
  }

  /** The version the running server announced in `serverInfo`. */
  get serverVersion(): string | undefined {
    return this.client?.initializeResult?.serverInfo?.version;
  }

  /** The settings the running (or last started) server gets for this scope: the user's, with
   * the interpreter found for the server as `python` when `evalsubmit.python` is empty. */
  settings(scopeUri?: string): ServerSettings {
    return withEnvironmentPython(this.hooks.serverSettings(scopeUri), this.launch, this.hooks.workspaceVenv?.(scopeUri));
  }

  get running(): boolean {
    return this.client?.state === State.Running;
  }

  /** Runs lifecycle operations one after another, so a settings change during a start waits. */
  private serial<T>(op: () => Promise<T>): Promise<T> {
    const next = this.chain.then(op, op);
    this.chain = next.catch(() => undefined);
    return next;
  }

  start(): Promise<void> {
    return this.serial(() => this.doStart());
  }

  stop(): Promise<void> {
    return this.serial(() => {
      if (this.sink) {
        this.sink.expectedStop = 'stop';
      }
      return this.doStop();
    });
  }

  /** Restarts once the current operation ends. Restarts asked for while one is still waiting
   * to run join it: a burst of settings changes restarts the server once. */
  restart(): Promise<void> {
    if (!this.queuedRestart) {
      this.queuedRestart = this.serial(async () => {
        this.queuedRestart = undefined;
        if (this.sink) {
          this.sink.expectedStop = 'restart';
        }
        await this.doStop();
        await this.doStart();
      });
    }
    return this.queuedRestart;
  }

  /** `workspace/executeCommand` straight to the server (no middleware, no prompts). */
  async execute(command: string, args: unknown[], progress?: Progress): Promise<unknown> {
    const client = this.client;
    if (!client || client.state !== State.Running) {
      throw new Error('the evalsubmit language server is not running (see "evalsubmit: Show Logs")');
    }
    if (!progress) {
      return client.sendRequest(ExecuteCommandRequest.type, { command, arguments: args });
    }
    const token = `evalsubmit-${randomUUID()}`;
    const sub = client.onProgress(WorkDoneProgress.type, token, (value) => {
      const text = [value.kind === 'begin' ? value.title : undefined, value.message]
        .filter(Boolean)
        .join(': ');
      if (text) {
        progress.report(value.kind === 'end' ? `${text} (done)` : text);
      }
    });
    progress.onCancel(() => {
      this.hooks.log.info(`Cancel requested for ${command} (work-done token ${token}).`);
      void client.sendNotification(WorkDoneProgressCancelNotification.type, { token });
    });
    try {
      return await client.sendRequest(ExecuteCommandRequest.type, {
        command,
        arguments: args,
        workDoneToken: token,
      });
    } finally {
      sub.dispose();
    }
  }

  /** Whether the running server declared this command in its `executeCommandProvider`. */
  serverHasCommand(command: string): boolean {
    const commands = this.client?.initializeResult?.capabilities.executeCommandProvider?.commands;
    return Array.isArray(commands) && commands.includes(command);
  }

  private async doStart(): Promise<void> {
    const { log } = this.hooks;
    this.hooks.onState('starting');
    const prepared = await this.hooks.prepare();
    if (isProblem(prepared)) {
      log.error(prepared.message);
      for (const line of prepared.details) {
        log.info(`  ${line}`);
      }
      this.launch = undefined;
      this.hooks.onState(prepared.state, prepared.message);
      this.hooks.onProblem(prepared);
      return;
    }
    this.launch = prepared;
    log.info(`Server: ${prepared.summary}`);
    const settingsFor = (scopeUri?: string) =>
      withEnvironmentPython(this.hooks.serverSettings(scopeUri), prepared, this.hooks.workspaceVenv?.(scopeUri));
    const chosen = this.hooks.serverSettings().python;
    const derived = environmentPython(prepared);
    const venv = prepared.python.command.source === 'path' ? this.hooks.workspaceVenv?.() : undefined;
    if (chosen !== null) {
      log.info(`Installed packages are read from "evalsubmit.python": ${chosen}`);
    } else if (venv) {
      log.info(`Installed packages are read from the workspace's environment ${venv} (no interpreter is selected in the Python extension; set "evalsubmit.python" to read another).`);
    } else if (derived) {
      log.info(`Installed packages are read from ${derived} (the interpreter found for the server; set "evalsubmit.python" to read another).`);
    } else {
      log.warn(`"evalsubmit.python" is empty and ${prepared.python.executable} cannot stand for the user's environment: the server reads installed packages from its own Python.`);
    }
    const serverOptions: ServerOptions = {
      command: prepared.command,
      args: prepared.args,
      options: { cwd: this.hooks.cwd(), env: prepared.env },
    };
    const sink = new LogSink(log);
    this.sink = sink;
    const clientOptions: LanguageClientOptions = {
      documentSelector: [...DOCUMENT_SELECTOR],
      outputChannel: sink as unknown as OutputChannel,
      traceOutputChannel: sink as unknown as OutputChannel,
      revealOutputChannelOn: RevealOutputChannelOn.Never,
      initializationOptions: settingsFor(),
      middleware: {
        executeCommand: (command, args, next) =>
          this.hooks.executeCommandMiddleware(command, args, (c, a) => next(c, a)),
        workspace: {
          configuration: async (params: ConfigurationParams, token, next) => {
            const answer = await next(params, token);
            if (!Array.isArray(answer)) {
              return answer;
            }
            return params.items.map((item, i) =>
              item.section === SECTION ? settingsFor(item.scopeUri) : answer[i],
            );
          },
        },
      },
    };
    const client = new LanguageClient(CLIENT_ID, CLIENT_NAME, serverOptions, clientOptions);
    client.onNotification(ShowMessageNotification.type, (p) => {
      const kind = p.type === MessageType.Error ? 'error' : p.type === MessageType.Warning ? 'warning' : 'info';
      log[kind === 'warning' ? 'warn' : kind](`[server message] ${p.message}`);
      if (shouldNotify(this.hooks.notificationLevel(), kind)) {
        this.hooks.showMessage(kind, p.message);
      }
    });
    client.onDidChangeState((e) => {
      if (e.newState === State.Running) {
        this.hooks.onState('running');
      } else if (e.newState === State.Stopped && this.client === client) {
        this.hooks.onState('stopped');
      }
    });
    this.client = client;
    log.info(`Starting: ${prepared.command} ${prepared.args.join(' ')}`);
    try {
      await client.start();
    } catch (err) {
      log.error(`The evalsubmit language server failed to start: ${String(err)}`);
      this.hooks.onState('failed', String(err));
      if (shouldNotify(this.hooks.notificationLevel(), 'error')) {
        this.hooks.showMessage('error', `evalsubmit: the language server failed to start: ${String(err)}`);
      }
      return;
    }
    const info = client.initializeResult?.serverInfo;
    log.info(`Server running: ${info?.name ?? 'evalsubmit'} ${info?.version ?? ''}`.trimEnd());
    this.hooks.onState('running');
    this.hooks.onRunning();
  }

  private async doStop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    if (!client) {
      return;
    }
    try {
      if (client.needsStop()) {
        await client.stop(5000);
      }
    } catch (err) {
      this.hooks.log.warn(`Stopping the server: ${String(err)}`);
    }
    try {
      await client.dispose(2000);
    } catch {
      // already stopped
    }
    this.hooks.onState('stopped');
  }
}
