import { describe, expect, it } from 'vitest';
import {
  SERVER_DEFAULTS,
  expandPathSettings,
  importStrategy,
  interpreterSetting,
  needsRestart,
  notificationLevel,
  readServerSettings,
  redact,
  shouldNotify,
  substituteVariables,
} from '../src/settings';

const reader = (values: Record<string, unknown>) => ({ get: <T>(k: string) => values[k] as T | undefined });

describe('readServerSettings', () => {
  it('gives the server model defaults when nothing is set', () => {
    expect(readServerSettings(reader({}))).toEqual(SERVER_DEFAULTS);
  });

  it('reads dotted platform keys into a nested object and never client keys', () => {
    const s = readServerSettings(
      reader({
        enable: false,
        select: ['ES1'],
        severity: { ES110: 'error' },
        debounceMs: 0,
        'platform.baseUrl': 'http://127.0.0.1:8080',
        'platform.workspace': 'qa',
        'platform.token': 'from-settings-json-is-ignored',
        'platform.timeoutS': 5,
        interpreter: ['/usr/bin/python3'],
        showNotifications: 'always',
      }),
      's3cret',
    );
    expect(s.enable).toBe(false);
    expect(s.select).toEqual(['ES1']);
    expect(s.severity).toEqual({ ES110: 'error' });
    expect(s.debounceMs).toBe(0);
    expect(s.platform).toEqual({
      baseUrl: 'http://127.0.0.1:8080',
      workspace: 'qa',
      token: 's3cret',
      timeoutS: 5,
      pollIntervalS: 2,
    });
    expect(Object.keys(s)).not.toContain('interpreter');
    expect(Object.keys(s)).not.toContain('showNotifications');
  });

  it('turns empty strings into null (unset)', () => {
    const s = readServerSettings(reader({ defaultTaskset: '  ', 'platform.baseUrl': '' }));
    expect(s.defaultTaskset).toBeNull();
    expect(s.platform.baseUrl).toBeNull();
  });

  it('takes the token from the secret storage only, and redacts it', () => {
    expect(readServerSettings(reader({ 'platform.token': 'abc' })).platform.token).toBeNull();
    const s = readServerSettings(reader({}), 'abc');
    expect(redact(s).platform.token).toBe('***');
    expect(JSON.stringify(redact(s))).not.toContain('abc');
    expect(redact(readServerSettings(reader({}))).platform.token).toBeNull();
  });
});

describe('notifications', () => {
  it('defaults to onWarning and rejects unknown values', () => {
    expect(notificationLevel(reader({}))).toBe('onWarning');
    expect(notificationLevel(reader({ showNotifications: 'loud' }))).toBe('onWarning');
    expect(notificationLevel(reader({ showNotifications: 'off' }))).toBe('off');
  });

  it.each([
    ['off', [false, false, false]],
    ['onError', [true, false, false]],
    ['onWarning', [true, true, false]],
    ['always', [true, true, true]],
  ] as const)('%s shows error/warning/info = %j', (level, expected) => {
    expect([shouldNotify(level, 'error'), shouldNotify(level, 'warning'), shouldNotify(level, 'info')]).toEqual(expected);
  });
});

describe('importStrategy', () => {
  it('is useBundled unless fromEnvironment is asked for', () => {
    expect(importStrategy(reader({}))).toBe('useBundled');
    expect(importStrategy(reader({ importStrategy: 'fromEnvironment' }))).toBe('fromEnvironment');
    expect(importStrategy(reader({ importStrategy: 'nonsense' }))).toBe('useBundled');
  });
});

describe('interpreter setting', () => {
  it('accepts a string or an array, ignores empties', () => {
    expect(interpreterSetting('/opt/py/bin/python')).toEqual(['/opt/py/bin/python']);
    expect(interpreterSetting(' ')).toEqual([]);
    expect(interpreterSetting(['uv', 'run', 'python', ''])).toEqual(['uv', 'run', 'python']);
    expect(interpreterSetting(undefined)).toEqual([]);
    expect(interpreterSetting(42)).toEqual([]);
  });

  it('substitutes variables and ~', () => {
    const ctx = { workspaceFolder: '/ws', home: '/home/u', env: { VENV: '/v' } };
    expect(substituteVariables('${workspaceFolder}/.venv/bin/python', ctx)).toBe('/ws/.venv/bin/python');
    expect(substituteVariables('${userHome}/py', ctx)).toBe('/home/u/py');
    expect(substituteVariables('${env:VENV}/bin/python', ctx)).toBe('/v/bin/python');
    expect(substituteVariables('${env:NOPE}x', ctx)).toBe('x');
    expect(substituteVariables('~/venv/bin/python', ctx)).toBe('/home/u/venv/bin/python');
    expect(substituteVariables('${workspaceFolder}/p', { home: '/h' })).toBe('${workspaceFolder}/p');
  });
});

describe('needsRestart', () => {
  const changed = (...keys: string[]) => (k: string) => keys.some((c) => c === k || c.startsWith(`${k}.`) || k.startsWith(`${c}.`));
  it('restarts for the interpreter and every server setting', () => {
    expect(needsRestart(changed('evalsubmit.interpreter'))).toBe(true);
    expect(needsRestart(changed('evalsubmit.select'))).toBe(true);
    expect(needsRestart(changed('evalsubmit.platform.baseUrl'))).toBe(true);
    expect(needsRestart(changed('evalsubmit.importStrategy'))).toBe(true);
  });
  it('does not restart for client-only display settings or other extensions', () => {
    expect(needsRestart(changed('evalsubmit.trace.server'))).toBe(false);
    expect(needsRestart(changed('evalsubmit.showNotifications'))).toBe(false);
    expect(needsRestart(changed('python.defaultInterpreterPath'))).toBe(false);
  });
});

describe('expandPathSettings', () => {
  const base = readServerSettings({ get: () => undefined }, null);
  it('expands ${workspaceFolder}, ~ and ${env:VAR} in evalsubmit.python', () => {
    const seen: string[] = [];
    const exists = (p: string) => {
      seen.push(p);
      return true;
    };
    const ctx = { workspaceFolder: '/work/proj', home: '/home/ada', env: { VENVS: '/opt/venvs' } };
    expect(expandPathSettings({ ...base, python: '${workspaceFolder}/.venv/bin/python' }, ctx, exists).settings.python).toBe('/work/proj/.venv/bin/python');
    expect(expandPathSettings({ ...base, python: '~/.venvs/eval' }, ctx, exists).settings.python).toBe('/home/ada/.venvs/eval');
    expect(expandPathSettings({ ...base, python: '${env:VENVS}/eval/bin/python' }, ctx, exists).settings.python).toBe('/opt/venvs/eval/bin/python');
    expect(seen).toHaveLength(3);
  });
  it('names a path that does not exist, and leaves an unset one alone', () => {
    const ctx = { workspaceFolder: '/work/proj' };
    const r = expandPathSettings({ ...base, python: '${workspaceFolder}/venv' }, ctx, () => false);
    expect(r.missing).toEqual(['evalsubmit.python: /work/proj/venv']);
    expect(expandPathSettings(base, ctx, () => false)).toEqual({ settings: base, missing: [] });
  });
});
