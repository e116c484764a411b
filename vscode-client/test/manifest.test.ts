/** package.json agrees with the code: commands, settings keys, activation, versions. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CLIENT_COMMANDS, SERVER_COMMANDS } from '../src/constants';
import { CLIENT_KEYS, SECRET_KEYS, SERVER_DEFAULTS, SERVER_KEYS } from '../src/settings';

const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8'));
const props: Record<string, { default?: unknown }> = pkg.contributes.configuration.properties;

describe('package.json', () => {
  it('contributes exactly the client commands, never a server command', () => {
    const contributed = pkg.contributes.commands.map((c: { command: string }) => c.command).sort();
    expect(contributed).toEqual(Object.values(CLIENT_COMMANDS).sort());
    for (const id of Object.values(SERVER_COMMANDS)) {
      expect(contributed).not.toContain(id);
    }
  });

  it('activates for Python files and for Jupyter notebooks', () => {
    expect(pkg.activationEvents).toContain('onLanguage:python');
    expect(pkg.activationEvents).toContain('onNotebook:jupyter-notebook');
  });

  it('titles the commands as the issue names them', () => {
    const titles = pkg.contributes.commands.map((c: { title: string }) => c.title).sort();
    expect(titles).toEqual([
      'Debug Info',
      'Platform Actions',
      'Restart Server',
      'Select Interpreter',
      'Set Platform Token',
      'Set Platform URL',
      'Show Job',
      'Show Job Logs',
      'Show Logs',
      'Submit Evaluation',
    ]);
  });

  it('contributes every server and client setting, and nothing else: never the token', () => {
    const secret = new Set<string>(SECRET_KEYS);
    const expected = [...SERVER_KEYS.filter((k) => !secret.has(k)), ...CLIENT_KEYS].map((k) => `evalsubmit.${k}`).sort();
    expect(Object.keys(props).sort()).toEqual(expected);
    expect(Object.keys(props).some((k) => /token/i.test(k))).toBe(false);
  });

  it('shows the important settings first, as text boxes', () => {
    const ordered = Object.entries(props as Record<string, { order?: number; type?: unknown }>).sort((a, b) => (a[1].order ?? 99) - (b[1].order ?? 99));
    expect(ordered.slice(0, 4).map(([k]) => k)).toEqual([
      'evalsubmit.interpreter',
      'evalsubmit.platform.baseUrl',
      'evalsubmit.platform.workspace',
      'evalsubmit.defaultTaskset',
    ]);
    for (const [, p] of ordered.slice(0, 4)) {
      expect(p.type).toBe('string'); // a text box in the Settings editor (not "Edit in settings.json")
    }
    expect(new Set(ordered.map(([, p]) => p.order)).size).toBe(ordered.length);
  });

  it('has the same defaults as the client code', () => {
    const flat: Record<string, unknown> = { ...SERVER_DEFAULTS };
    for (const group of ['platform', 'codeLens'] as const) {
      delete flat[group];
      for (const [k, v] of Object.entries(SERVER_DEFAULTS[group])) {
        flat[`${group}.${k}`] = v;
      }
    }
    for (const key of SERVER_KEYS.filter((k) => !(SECRET_KEYS as readonly string[]).includes(k))) {
      // a text box's "" means "not set" (null for the server)
      const want = flat[key] === null ? '' : flat[key];
      expect(props[`evalsubmit.${key}`].default, key).toEqual(want);
    }
  });

  it('names the restricted settings the Restricted Mode log line lists', async () => {
    const { RESTRICTED_SETTINGS } = await import('../src/extension');
    expect(RESTRICTED_SETTINGS).toEqual(pkg.capabilities.untrustedWorkspaces.restrictedConfigurations);
  });

  it('declares the client-only settings the contract names', () => {
    expect((props['evalsubmit.trace.server'] as { enum: string[] }).enum).toEqual(['off', 'messages', 'verbose']);
    expect((props['evalsubmit.showNotifications'] as { enum: string[] }).enum).toEqual(['off', 'onError', 'onWarning', 'always']);
    expect((props['evalsubmit.interpreter'] as { type: string }).type).toBe('string');
    expect((props['evalsubmit.importStrategy'] as { enum: string[] }).enum).toEqual(['useBundled', 'fromEnvironment']);
  });

  it('pins the versions VS Code 1.91..1.100 / code-server 4.100.3 need', () => {
    expect(pkg.engines.vscode).toBe('^1.91.0');
    expect(pkg.devDependencies['@types/vscode']).toBe('~1.91.0');
    expect(pkg.dependencies['vscode-languageclient']).toMatch(/^~9\./);
    expect(pkg.devDependencies['@vscode/vsce']).toMatch(/^~3\.9/);
    expect(pkg.main).toBe('./out/extension.js');
  });
});

describe('source layout', () => {
  it('imports vscode only in vscodeapi.ts', () => {
    const src = path.join(__dirname, '..', 'src');
    for (const file of fs.readdirSync(src)) {
      const text = fs.readFileSync(path.join(src, file), 'utf8');
      const importsVscode = /from 'vscode'|require\('vscode'\)/.test(text);
      expect(importsVscode, file).toBe(file === 'vscodeapi.ts');
    }
  });
});

// Activation against the mocked vscode module, with a fake language client.
vi.mock('vscode-languageclient/node', () => {
  class LanguageClient {
    static instances: LanguageClient[] = [];
    state = 1;
    initializeResult = { capabilities: { executeCommandProvider: { commands: [] } } };
    constructor(
      public id: string,
      public name: string,
      public serverOptions: unknown,
      public clientOptions: unknown,
    ) {
      LanguageClient.instances.push(this);
    }
    onNotification() {
      return { dispose() {} };
    }
    onDidChangeState() {
      return { dispose() {} };
    }
    async start() {
      this.state = 2;
    }
    needsStop() {
      return this.state === 2;
    }
    async stop() {
      this.state = 1;
    }
    async dispose() {
      this.state = 1;
    }
    async sendRequest() {
      return {};
    }
  }
  return {
    LanguageClient,
    State: { Stopped: 1, Running: 2, Starting: 3 },
    RevealOutputChannelOn: { Debug: 0, Info: 1, Warn: 2, Error: 3, Never: 4 },
    MessageType: { Error: 1, Warning: 2, Info: 3, Log: 4, Debug: 5 },
    ShowMessageNotification: { type: { method: 'window/showMessage' } },
    ExecuteCommandRequest: { type: { method: 'workspace/executeCommand' } },
  };
});

describe('activate', () => {
  afterEach(async () => {
    const ext = await import('../src/extension');
    await ext.deactivate();
  });

  it('registers the client commands only, and starts the server with -m evalsubmit.lsp', async () => {
    const vscode = await import('vscode');
    const mock = vscode as unknown as typeof import('./mocks/vscode');
    mock.configValues.interpreter = [process.execPath, path.join(__dirname, 'fixtures', 'fake-python.js')];
    mock.configValues.importStrategy = 'fromEnvironment'; // the fake Python "has" evalsubmit
    const lc = (await import('vscode-languageclient/node')) as unknown as {
      LanguageClient: { instances: { serverOptions: { command: string; args: string[] }; clientOptions: Record<string, unknown> }[] };
    };
    const ext = await import('../src/extension');
    const secrets = { get: async () => 'tok', store: async () => undefined, delete: async () => undefined, onDidChange: () => ({ dispose() {} }) };
    const context = {
      subscriptions: [] as { dispose(): unknown }[],
      extensionPath: '/nonexistent/ext',
      globalStorageUri: { fsPath: '/nonexistent/storage' },
      secrets,
    };
    await ext.activate(context as never);
    expect([...mock.registeredCommands].sort()).toEqual(Object.values(CLIENT_COMMANDS).sort());
    const client = lc.LanguageClient.instances.at(-1)!;
    expect(client.serverOptions.command).toBe(process.execPath);
    expect(client.serverOptions.args.slice(-3)).toEqual(['-P', '-m', 'evalsubmit.lsp']);
    // the token from the secret storage goes to the server, never from settings; evalsubmit.python
    // is empty, so `python` is the interpreter found for the server (its probed sys.executable)
    expect(client.clientOptions.initializationOptions).toEqual({
      ...SERVER_DEFAULTS,
      python: '/fake/bin/python3.11',
      platform: { ...SERVER_DEFAULTS.platform, token: 'tok' },
    });
    expect(client.clientOptions.documentSelector).toEqual([
      { scheme: 'file', language: 'python' },
      { scheme: 'untitled', language: 'python' },
      { notebook: 'jupyter-notebook', language: 'python' },
    ]);
    for (const d of context.subscriptions) {
      d.dispose();
    }
    expect(mock.registeredCommands).toEqual([]);
  });

  it('sends a set evalsubmit.python as is, in initializationOptions and workspace/configuration', async () => {
    const vscode = await import('vscode');
    const mock = vscode as unknown as typeof import('./mocks/vscode');
    Object.assign(mock.configValues, {
      interpreter: [process.execPath, path.join(__dirname, 'fixtures', 'fake-python.js')],
      importStrategy: 'fromEnvironment',
      python: '/opt/envs/sdk/bin/python',
    });
    const lc = (await import('vscode-languageclient/node')) as unknown as {
      LanguageClient: { instances: { clientOptions: any }[] };
    };
    const ext = await import('../src/extension');
    const secrets = { get: async () => undefined, store: async () => undefined, delete: async () => undefined, onDidChange: () => ({ dispose() {} }) };
    const context = { subscriptions: [] as { dispose(): unknown }[], extensionPath: '/nonexistent/ext', globalStorageUri: { fsPath: '/nonexistent/storage' }, secrets };
    try {
      await ext.activate(context as never);
      const client = lc.LanguageClient.instances.at(-1)!;
      expect(client.clientOptions.initializationOptions.python).toBe('/opt/envs/sdk/bin/python');
      const answer = await client.clientOptions.middleware.workspace.configuration(
        { items: [{ section: 'evalsubmit', scopeUri: 'file:///ws' }] }, undefined, async () => [{}]);
      expect(answer[0].python).toBe('/opt/envs/sdk/bin/python');
      mock.configValues.python = ''; // emptied: the interpreter found for the server
      const again = await client.clientOptions.middleware.workspace.configuration(
        { items: [{ section: 'evalsubmit', scopeUri: 'file:///ws' }] }, undefined, async () => [{}]);
      expect(again[0].python).toBe('/fake/bin/python3.11');
    } finally {
      for (const d of context.subscriptions) d.dispose();
      for (const k of ['interpreter', 'importStrategy', 'python']) delete mock.configValues[k];
    }
  });
});
