import { describe, expect, it, vi } from 'vitest';
import { SERVER_DEFAULTS } from '../src/settings';

type Handler = (...args: any[]) => unknown;

vi.mock('vscode-languageclient/node', () => {
  class LanguageClient {
    static instances: LanguageClient[] = [];
    state = 1;
    notifications = new Map<string, Handler>();
    progress = new Map<string, Handler>();
    sent: { method: string; params: any; token?: unknown }[] = [];
    initializeResult = { capabilities: { executeCommandProvider: { commands: ['evalsubmit.debugInfo'] } }, serverInfo: { name: 'evalsubmit', version: '9' } };
    startError: Error | undefined;
    constructor(public id: string, public name: string, public serverOptions: any, public clientOptions: any) {
      LanguageClient.instances.push(this);
    }
    onNotification(type: { method: string }, h: Handler) {
      this.notifications.set(type.method, h);
      return { dispose() {} };
    }
    onDidChangeState() {
      return { dispose() {} };
    }
    onProgress(_t: unknown, token: string, h: Handler) {
      this.progress.set(token, h);
      return { dispose: () => this.progress.delete(token) };
    }
    async start() {
      if (LanguageClient.failNext) {
        LanguageClient.failNext = false;
        throw new Error('spawn ENOENT');
      }
      this.state = 2;
    }
    static failNext = false;
    needsStop() {
      return this.state === 2;
    }
    async stop() {
      this.state = 1;
    }
    async dispose() {
      this.state = 1;
    }
    async sendRequest(type: { method: string }, params: any, token?: unknown) {
      this.sent.push({ method: type.method, params, token });
      if (params.workDoneToken) {
        this.progress.get(params.workDoneToken)?.({ kind: 'begin', title: 'Submitting', message: 'created' });
      }
      return { ok: true };
    }
    async sendNotification(type: { method: string }, params: any) {
      this.sent.push({ method: type.method, params });
    }
  }
  return {
    LanguageClient,
    State: { Stopped: 1, Running: 2, Starting: 3 },
    RevealOutputChannelOn: { Never: 4 },
    MessageType: { Error: 1, Warning: 2, Info: 3, Log: 4 },
    ShowMessageNotification: { type: { method: 'window/showMessage' } },
    ExecuteCommandRequest: { type: { method: 'workspace/executeCommand' } },
    WorkDoneProgress: { type: { method: '$/progress' } },
    WorkDoneProgressCancelNotification: { type: { method: 'window/workDoneProgress/cancel' } },
  };
});

const launch = {
  command: '/venv/bin/python',
  args: ['-E', '-s', '-P', '-u', '-m', 'evalsubmit.lsp'],
  env: { PATH: '/bin', PYTHONUNBUFFERED: '1' },
  python: { command: { command: 'python3', args: [], source: 'path' as const }, version: [3, 11, 7] as [number, number, number], executable: '/usr/bin/python3.11', freeThreaded: false },
  server: 'bundled' as const,
  privateVenvs: '/storage/server',
  summary: 'bundled evalsubmit',
};
/** The bundled server's launch as prepareLaunch makes it: the private venv's python runs the
 * server; `python` is the user's interpreter it was made from. */
const bundled = (executable: string, source: 'setting' | 'python-extension' | 'path' = 'python-extension') => ({
  ...launch,
  command: '/storage/server/b1-py312-0123456789/bin/python',
  python: { ...launch.python, command: { command: executable, args: [], source }, version: [3, 12, 1] as [number, number, number], executable },
});

async function setup(opts: {
  prepare?: () => Promise<any>;
  level?: 'off' | 'always';
  /** `evalsubmit.python` per scope (undefined: the window's); null when empty. */
  python?: (scope?: string) => string | null;
} = {}) {
  const { ServerManager } = await import('../src/server');
  const lc = (await import('vscode-languageclient/node')) as any;
  const states: string[] = [];
  const shown: string[] = [];
  const problems: any[] = [];
  const log = { info: vi.fn(), warn: vi.fn(), error: vi.fn(), debug: vi.fn(), trace: vi.fn(), show: vi.fn(), hide: vi.fn() } as any;
  const manager = new ServerManager({
    log,
    prepare: opts.prepare ?? (async () => launch),
    onProblem: (p) => problems.push(p),
    serverSettings: (scope) => ({ ...SERVER_DEFAULTS, defaultTaskset: scope ?? null, python: opts.python?.(scope) ?? null }),
    notificationLevel: () => opts.level ?? 'onWarning',
    cwd: () => '/ws',
    onState: (s) => states.push(s),
    onRunning: () => undefined,
    executeCommandMiddleware: (c, a, next) => next(c, a),
    showMessage: (_l, t) => shown.push(t),
  });
  return { manager, lc, states, shown, log, problems, client: () => lc.LanguageClient.instances.at(-1) };
}

describe('ServerManager', () => {
  it('starts the prepared command in the folder, with the server settings', async () => {
    const { manager, client, states } = await setup();
    await manager.start();
    expect(client().serverOptions).toEqual({ command: '/venv/bin/python', args: launch.args, options: { cwd: '/ws', env: launch.env } });
    expect(manager.current).toBe(launch);
    expect(manager.serverVersion).toBe('9');
    // evalsubmit.python is empty: the interpreter found for the server is sent as `python`
    expect(client().clientOptions.initializationOptions).toEqual({ ...SERVER_DEFAULTS, defaultTaskset: null, python: '/usr/bin/python3.11' });
    expect(states).toEqual(['starting', 'running']);
    // Python files, and the Python cells of Jupyter notebooks
    expect(client().clientOptions.documentSelector).toEqual([
      { scheme: 'file', language: 'python' },
      { scheme: 'untitled', language: 'python' },
      { notebook: 'jupyter-notebook', language: 'python' },
    ]);
    expect(manager.serverHasCommand('evalsubmit.debugInfo')).toBe(true);
    expect(manager.serverHasCommand('evalsubmit.submit')).toBe(false);
    await manager.stop();
  });

  it('answers workspace/configuration for evalsubmit with server keys per scope, leaves others', async () => {
    const { manager, client } = await setup();
    await manager.start();
    const configuration = client().clientOptions.middleware.workspace.configuration;
    const params = { items: [{ section: 'evalsubmit', scopeUri: 'file:///ws/a' }, { section: 'python' }] };
    const answer = await configuration(params, undefined, async () => [{ interpreter: ['x'] }, { other: 1 }]);
    expect(answer).toEqual([{ ...SERVER_DEFAULTS, defaultTaskset: 'file:///ws/a', python: '/usr/bin/python3.11' }, { other: 1 }]);
    await manager.stop();
  });

  describe('the `python` setting sent (the environment of installed packages, ES111)', () => {
    const answers = async (client: any, scopes: (string | undefined)[]) => {
      const configuration = client.clientOptions.middleware.workspace.configuration;
      const items = scopes.map((scopeUri) => ({ section: 'evalsubmit', ...(scopeUri ? { scopeUri } : {}) }));
      return (await configuration({ items }, undefined, async () => items.map(() => ({})))) as { python: string | null }[];
    };

    it('evalsubmit.python empty: the user\'s interpreter found for the server, in initializationOptions and every folder\'s answer', async () => {
      const { manager, client, log } = await setup({ prepare: async () => bundled('/home/u/proj/.venv/bin/python') });
      await manager.start();
      expect(client().clientOptions.initializationOptions.python).toBe('/home/u/proj/.venv/bin/python');
      const got = await answers(client(), [undefined, 'file:///ws/a', 'file:///ws/b']);
      expect(got.map((a) => a.python)).toEqual(Array(3).fill('/home/u/proj/.venv/bin/python'));
      expect(manager.settings('file:///ws/a').python).toBe('/home/u/proj/.venv/bin/python'); // Debug Info
      expect(log.info).toHaveBeenCalledWith(expect.stringMatching(/^Installed packages are read from \/home\/u\/proj\/\.venv\/bin\/python \(the interpreter found/));
      await manager.stop();
    });

    it('a set evalsubmit.python wins, per folder; an empty one in another folder still gets the interpreter', async () => {
      const python = (scope?: string) => (scope === 'file:///ws/b' ? null : scope === 'file:///ws/a' ? '.venv-a' : '/opt/envs/sdk');
      const { manager, client, log } = await setup({ prepare: async () => bundled('/home/u/proj/.venv/bin/python'), python });
      await manager.start();
      expect(client().clientOptions.initializationOptions.python).toBe('/opt/envs/sdk');
      const got = await answers(client(), [undefined, 'file:///ws/a', 'file:///ws/b']);
      expect(got.map((a) => a.python)).toEqual(['/opt/envs/sdk', '.venv-a', '/home/u/proj/.venv/bin/python']);
      expect(log.info).toHaveBeenCalledWith('Installed packages are read from "evalsubmit.python": /opt/envs/sdk');
      await manager.stop();
    });

    it('never sends the private venv\'s python (which runs the bundled server)', async () => {
      const l = bundled('/usr/bin/python3.12', 'path');
      const { manager, client } = await setup({ prepare: async () => l });
      await manager.start();
      const sent = [client().clientOptions.initializationOptions, ...(await answers(client(), [undefined, 'file:///ws/a']))];
      expect(client().serverOptions.command).toBe(l.command);
      for (const s of sent) {
        expect(s.python).toBe('/usr/bin/python3.12');
        expect(JSON.stringify(s)).not.toContain('/storage/server');
      }
      await manager.stop();
    });

    it('sends nothing rather than a private venv, a bare name or a relative path', async () => {
      const cases = [
        bundled('/storage/server/b0-py312-aaaaaaaaaa/bin/python', 'setting'), // evalsubmit.interpreter names an old private venv
        { ...bundled('/x'), python: { ...launch.python, executable: '/storage/server/b1-py312-0123456789/bin/python' } },
        bundled('python3', 'path'), // the server would look for it in the workspace folder
        bundled('venv/bin/python', 'setting'),
      ];
      for (const l of cases) {
        const { manager, client, log } = await setup({ prepare: async () => l });
        await manager.start();
        expect(client().clientOptions.initializationOptions.python).toBeNull();
        expect((await answers(client(), ['file:///ws/a']))[0].python).toBeNull();
        expect(log.warn).toHaveBeenCalledWith(expect.stringMatching(/cannot stand for the user's environment/));
        await manager.stop();
      }
    });

    it('importStrategy fromEnvironment: the server runs in the user\'s interpreter, which is still sent', async () => {
      const l = { ...launch, command: 'python3', args: ['-P', '-m', 'evalsubmit.lsp'], server: 'environment' as const };
      const { manager, client } = await setup({ prepare: async () => l });
      await manager.start();
      expect(client().clientOptions.initializationOptions.python).toBe('/usr/bin/python3.11');
      await manager.stop();
    });

    it('a restart (the Python extension\'s environment changed) sends the new interpreter', async () => {
      let selected = '/home/u/a/.venv/bin/python';
      const { manager, client } = await setup({ prepare: async () => bundled(selected) });
      await manager.start();
      expect(client().clientOptions.initializationOptions.python).toBe('/home/u/a/.venv/bin/python');
      selected = '/home/u/b/.venv/bin/python';
      await manager.restart();
      expect(client().clientOptions.initializationOptions.python).toBe('/home/u/b/.venv/bin/python');
      expect((await answers(client(), ['file:///ws/a']))[0].python).toBe('/home/u/b/.venv/bin/python');
      await manager.stop();
    });

    it('no server (no Python found): nothing is derived', async () => {
      const { manager } = await setup({ prepare: async () => ({ state: 'no-python', message: 'no Python', details: [] }) });
      await manager.start();
      expect(manager.settings().python).toBeNull();
    });
  });

  it('reports a problem without waiting for the user, and starts no client', async () => {
    const problem = { state: 'no-python', message: 'evalsubmit needs Python 3.11', details: ['python3: not found'] };
    const { manager, lc, states, problems, log } = await setup({ prepare: async () => problem });
    const before = lc.LanguageClient.instances.length;
    await manager.start(); // resolves although nobody answers the notification
    expect(lc.LanguageClient.instances.length).toBe(before);
    expect(states).toEqual(['starting', 'no-python']);
    expect(problems).toEqual([problem]);
    expect(log.error).toHaveBeenCalledWith('evalsubmit needs Python 3.11');
    expect(log.info).toHaveBeenCalledWith('  python3: not found');
    await expect(manager.execute('evalsubmit.debugInfo', [])).rejects.toThrow(/not running/);
  });

  it('a restart after a problem (the user fixed the setting) starts at once', async () => {
    let fixed = false;
    const { manager, states } = await setup({
      prepare: async () => (fixed ? launch : { state: 'no-python', message: 'no Python', details: [] }),
    });
    await manager.start();
    fixed = true;
    await manager.restart();
    expect(states).toEqual(['starting', 'no-python', 'starting', 'running']);
    expect(manager.running).toBe(true);
    await manager.stop();
  });

  it('joins restarts asked for while one waits: a burst restarts once', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    let prepares = 0;
    const { manager } = await setup({
      prepare: async () => {
        prepares++;
        if (prepares === 1) await gate; // the first start is slow (a first install)
        return launch;
      },
    });
    const start = manager.start();
    const r1 = manager.restart();
    const r2 = manager.restart();
    expect(r1).toBe(r2);
    release();
    await Promise.all([start, r1, r2]);
    expect(prepares).toBe(2);
    await manager.stop();
  });

  it('reports a failed start', async () => {
    const { manager, lc, states, shown } = await setup();
    lc.LanguageClient.failNext = true;
    await manager.start();
    expect(states.at(-1)).toBe('failed');
    expect(shown[0]).toMatch(/failed to start: Error: spawn ENOENT/);
  });

  it('filters server window/showMessage by evalsubmit.showNotifications, logging all', async () => {
    for (const [level, expected] of [['off', 0], ['always', 2]] as const) {
      const { manager, client, shown, log } = await setup({ level });
      await manager.start();
      const h = client().notifications.get('window/showMessage');
      h({ type: 3, message: 'info msg' });
      h({ type: 1, message: 'error msg' });
      expect(shown).toHaveLength(expected);
      expect(log.info).toHaveBeenCalledWith('[server message] info msg');
      expect(log.error).toHaveBeenCalledWith('[server message] error msg');
      await manager.stop();
    }
  });

  it('sends a work-done token with progress, relays reports, and cancels through it', async () => {
    const { manager, client } = await setup();
    await manager.start();
    const reports: string[] = [];
    let cancel: (() => void) | undefined;
    await manager.execute('evalsubmit.submit', [{ tasks: 'qa/x' }], {
      report: (m) => reports.push(m),
      onCancel: (l) => (cancel = l),
    });
    const req = client().sent.find((s: any) => s.method === 'workspace/executeCommand');
    expect(req.params.workDoneToken).toMatch(/^evalsubmit-/);
    expect(reports).toEqual(['Submitting: created']);
    cancel?.();
    expect(client().sent.at(-1)).toEqual({ method: 'window/workDoneProgress/cancel', params: { token: req.params.workDoneToken } });
    await manager.stop();
  });

  it('restart stops the old client before starting a new one, one at a time', async () => {
    const { manager, lc } = await setup();
    await manager.start();
    const first = lc.LanguageClient.instances.at(-1);
    await Promise.all([manager.restart(), manager.restart()]);
    const all = lc.LanguageClient.instances;
    expect(first.state).toBe(1);
    expect(all.filter((c: any) => c.state === 2)).toHaveLength(1);
    await manager.stop();
    expect(all.filter((c: any) => c.state === 2)).toHaveLength(0);
  });
});
