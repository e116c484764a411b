import { describe, expect, it } from 'vitest';
import { RecentMessages } from '../src/notify';
import { platformActions } from '../src/platformsetup';
import { describePlatform, platformFromDebugInfo, platformFromInfo, platformView, serverVersion, statusView } from '../src/status';

// The shape of the server's evalsubmit.debugInfo result (server/evalsubmit/lsp/commands.py).
const debugInfo = {
  versions: { python: '3.11.7', platform: 'Linux-6.1-x86_64', evalsubmit: '0.1.0', pygls: '2.0.0' },
  server: { diagnostics: 'pull', positionEncoding: 'utf-16', rules: ['ES101'] },
  settings: {
    global: { enable: true, platform: { baseUrl: 'http://127.0.0.1:8080', workspace: 'qa', token: '<redacted>' } },
    folders: {},
  },
  documents: [],
};

describe('platformFromDebugInfo', () => {
  it('finds the platform settings, not the OS "platform" string of versions', () => {
    expect(platformFromDebugInfo(debugInfo)).toEqual({ baseUrl: 'http://127.0.0.1:8080', workspace: 'qa', source: undefined });
  });
  it('accepts a top-level platform with base_url and source', () => {
    expect(platformFromDebugInfo({ platform: { base_url: 'http://h', workspace: 'w', source: 'env' } })).toEqual({
      baseUrl: 'http://h',
      workspace: 'w',
      source: 'env',
    });
  });
  it('is undefined when nothing is configured', () => {
    expect(platformFromDebugInfo({ settings: { global: { platform: { baseUrl: null, workspace: null } } } })).toBeUndefined();
    expect(platformFromDebugInfo('nope')).toBeUndefined();
  });
  it('reads the server version', () => {
    expect(serverVersion(debugInfo)).toBe('0.1.0');
    expect(serverVersion({ version: '2' })).toBe('2');
    expect(serverVersion(undefined)).toBeUndefined();
  });
});

describe('platformFromInfo', () => {
  it('reads the server\'s platformInfo for a document, with where its workspace comes from', () => {
    const p = platformFromInfo({ baseUrl: 'http://127.0.0.1:8080', workspace: 'team-a', workspaceSource: 'NeMoPlatform(workspace=...) in the code', baseUrlSource: 'evalsubmit setting' });
    expect(p).toEqual({ baseUrl: 'http://127.0.0.1:8080', workspace: 'team-a', source: 'evalsubmit setting', workspaceFrom: 'from NeMoPlatform(workspace=...) in the code' });
    expect(describePlatform(p)).toBe('Platform: http://127.0.0.1:8080 · workspace team-a (from NeMoPlatform(workspace=...) in the code)');
    expect(platformFromInfo({ error: 'x' })).toBeUndefined();
  });
});

describe('statusView', () => {
  it('shows the platform while running', () => {
    const v = statusView('running', { baseUrl: 'http://127.0.0.1:8080', workspace: 'qa' }, '0.1.0');
    expect(v).toEqual({ text: 'evalsubmit 0.1.0', detail: 'Platform: http://127.0.0.1:8080 · workspace qa', severity: 'info', busy: false });
  });
  it('is busy while starting and an error when no Python is found', () => {
    expect(statusView('starting', undefined).busy).toBe(true);
    expect(statusView('no-python', undefined).severity).toBe('error');
    expect(statusView('no-python', undefined).text).toBe('evalsubmit: no Python');
    expect(statusView('failed', undefined, 'exit 1').detail).toBe('exit 1');
  });
  it('says when the platform is not set in settings', () => {
    expect(describePlatform(undefined)).toMatch(/not set/);
  });
});

describe('RecentMessages', () => {
  it('drops the same message shown twice within the window', () => {
    let now = 0;
    const r = new RecentMessages(1000, () => now);
    expect(r.admit('evalsubmit: taskset missing')).toBe(true);
    expect(r.admit('Evaluation not submitted: evalsubmit: taskset missing')).toBe(false);
    // the server's refusal and the client's report of the same result
    expect(r.admit('evalsubmit: Not submitted: ES101 on line 3')).toBe(true);
    expect(r.admit('Evaluation not submitted: ES101 on line 3')).toBe(false);
    now = 2000;
    expect(r.admit('evalsubmit: taskset missing')).toBe(true);
    expect(r.admit('something else')).toBe(true);
  });
});

describe('platformView (the platform status item)', () => {
  it('says nothing is configured and nothing answers, instead of looking set up', () => {
    const p = platformFromInfo({
      baseUrl: 'http://localhost:8080',
      baseUrlSource: 'SDK default',
      workspace: 'default',
      workspaceSource: 'the SDK default',
      reachable: false,
      reachError: 'Cannot reach the NeMo Platform at http://localhost:8080: connection refused',
      tokenSet: false,
    });
    const v = platformView(p);
    expect(v.text).toBe('Platform http://localhost:8080 · not reachable');
    expect(v.detail).toContain("URL from the SDK's default: nothing is configured");
    expect(v.detail).toContain('no token');
    expect(v.severity).toBe('warning');
    expect(v.busy).toBe(false);
  });

  it('names the source of the URL and of the token, never the token', () => {
    const v = platformView(
      platformFromInfo({ baseUrl: 'https://nmp.example.com', baseUrlSource: 'env NEMO_PLATFORM_BASE_URL', workspace: 'qa', reachable: true, tokenSet: true, tokenSource: 'env NMP_ACCESS_TOKEN' }),
    );
    expect(v.text).toBe('Platform https://nmp.example.com · reachable');
    expect(v.detail).toBe('URL from environment variable NEMO_PLATFORM_BASE_URL · token set (environment variable NMP_ACCESS_TOKEN) · workspace qa');
    expect(v.severity).toBe('info');
  });

  it('says a token the client sent comes from the secret storage, not from a setting', () => {
    const v = platformView(
      platformFromInfo({ baseUrl: 'http://127.0.0.1:8080', baseUrlSource: 'evalsubmit setting', reachable: true, tokenSet: true, tokenSource: 'evalsubmit setting' }),
    );
    expect(v.detail).toBe("URL from setting evalsubmit.platform.baseUrl · token set (VS Code's secret storage)");
    expect(v.detail).not.toContain('token set (setting');
  });

  it('shows a check in progress until the server says whether it answers', () => {
    const v = platformView(platformFromInfo({ baseUrl: 'http://127.0.0.1:8080', baseUrlSource: 'evalsubmit setting', tokenSet: false }));
    expect(v.text).toBe('Platform http://127.0.0.1:8080 · checking…');
    expect(v.busy).toBe(true);
    expect(platformView(undefined).text).toBe('Platform: unknown');
  });

  it('offers Set URL, Set Token and Show Logs', () => {
    expect(platformActions({ baseUrl: 'http://h', tokenSet: false }).map((a) => [a.label, a.command])).toEqual([
      ['Set Platform URL', 'evalsubmit.setPlatformUrl'],
      ['Set Platform Token', 'evalsubmit.setPlatformToken'],
      ['Show Logs', 'evalsubmit.showLogs'],
    ]);
  });
});
