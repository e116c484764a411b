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
import { CLIENT_ID, CLIENT_NAME, SECTION } from './constants';
import { PythonCommand, describe, serverArgs } from './python';
import { NotificationLevel, ServerSettings, shouldNotify } from './settings';
import { ServerState } from './status';
import type { Progress } from './ui';
import type { LogOutputChannel } from './vscodeapi';

export interface ServerHooks {
  log: LogOutputChannel;
  resolvePython(): Promise<PythonCommand>;
  /** false when the server package is not importable (the user has been told). */
  ensurePackage(python: PythonCommand): Promise<ServerState | 'ok'>;
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
  private python: PythonCommand | undefined;

  constructor(private readonly hooks: ServerHooks) {}

  get interpreter(): PythonCommand | undefined {
    return this.python;
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
    return this.serial(() => this.doStop());
  }

  restart(): Promise<void> {
    return this.serial(async () => {
      await this.doStop();
      await this.doStart();
    });
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
    const python = await this.hooks.resolvePython();
    this.python = python;
    log.info(`Python for the server (${python.source}): ${describe(python)}`);
    const ready = await this.hooks.ensurePackage(python);
    if (ready !== 'ok') {
      this.hooks.onState(ready, `${describe(python)}`);
      return;
    }
    const serverOptions: ServerOptions = {
      command: python.command,
      args: serverArgs(python),
      options: { cwd: this.hooks.cwd(), env: { ...process.env, PYTHONUNBUFFERED: '1' } },
    };
    const clientOptions: LanguageClientOptions = {
      documentSelector: [
        { scheme: 'file', language: 'python' },
        { scheme: 'untitled', language: 'python' },
      ],
      outputChannel: log,
      traceOutputChannel: log,
      revealOutputChannelOn: RevealOutputChannelOn.Never,
      initializationOptions: this.hooks.serverSettings(),
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
              item.section === SECTION ? this.hooks.serverSettings(item.scopeUri) : answer[i],
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
    log.info(`Starting: ${python.command} ${serverArgs(python).join(' ')}`);
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
