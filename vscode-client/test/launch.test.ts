import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { Bundle } from '../src/bundle';
import { Launch, environmentPython, followsPythonExtension, isProblem, prepareLaunch, withEnvironmentPython, workspaceVenvPython } from '../src/launch';
import { SERVER_DEFAULTS } from '../src/settings';
import type { Exec } from '../src/python';

const bundle: Bundle = {
  manifest: { evalsubmit: '0.1.0', requirement: 'evalsubmit==0.1.0', target: 'linux-x64', pythons: ['3.11'], pip: 'pip-26.3-py3-none-any.whl', id: 'b1' },
  wheels: '/ext/bundled/wheels',
};

/** python3 is 3.11 (with or without evalsubmit); every other program exits 0 (venv, pip). */
function exec(withEvalsubmit: boolean) {
  return vi.fn<Exec>(async (command, args) => {
    if (args.includes('-c') && args.some((a) => a.includes('EVALSUBMIT-PROBE'))) {
      if (command !== 'python3') return { code: null, stdout: '', stderr: '', error: 'ENOENT' };
      const info = { version: [3, 11, 7], executable: '/usr/bin/python3.11', freeThreaded: false, ...(withEvalsubmit ? { evalsubmit: { version: '0.0.9', location: '/site/evalsubmit/__init__.py' } } : {}) };
      return { code: 0, stdout: `EVALSUBMIT-PROBE ${JSON.stringify(info)}\n`, stderr: '' };
    }
    if (args.includes('venv')) fs.mkdirSync(args[args.length - 1], { recursive: true }); // what `-m venv` makes
    return { code: 0, stdout: '', stderr: '' };
  });
}

const made: string[] = [];
const storage = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'evalsubmit-launch-test-'));
  made.push(d);
  return d;
};
afterAll(() => made.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

function deps(strategy: 'useBundled' | 'fromEnvironment', e: Exec, b: Bundle | string = bundle, storage = '/nonexistent-storage') {
  const lines: string[] = [];
  return {
    lines,
    deps: {
      interpreter: [],
      strategy,
      pythonExtension: async () => undefined,
      bundle: b,
      exec: e,
      install: { storage, log: (l: string) => lines.push(l), progress: <T,>(_t: string, task: () => Promise<T>) => task(), exec: e },
      env: { PATH: '/bin' },
    },
  };
}

describe('prepareLaunch', () => {
  it('runs the server of the environment with -P when asked and installed there', async () => {
    const r = await prepareLaunch(deps('fromEnvironment', exec(true)).deps);
    expect(isProblem(r)).toBe(false);
    if (!isProblem(r)) {
      expect(r).toMatchObject({ command: 'python3', args: ['-P', '-m', 'evalsubmit.lsp'], server: 'environment' });
      expect(r.env).toEqual({ PATH: '/bin', PYTHONUNBUFFERED: '1' });
      expect(r.summary).toMatch(/evalsubmit 0.0.9 from the environment of Python 3.11.7/);
    }
  });

  it('falls back to the bundled server when the environment has none, saying so', async () => {
    const e = exec(false);
    const { deps: d, lines } = deps('fromEnvironment', e, bundle, storage());
    const r = await prepareLaunch(d);
    expect(lines[0]).toMatch(/evalsubmit is not installed in \/usr\/bin\/python3.11; using the bundled server/);
    expect(isProblem(r)).toBe(false);
    if (!isProblem(r)) {
      expect(r.server).toBe('bundled');
      expect(r.args).toEqual(['-E', '-s', '-P', '-u', '-m', 'evalsubmit.lsp']);
      expect(r.command).toMatch(/server\/b1-py311-[0-9a-f]+\/bin\/python$/);
    }
    // the venv is made from the real interpreter, pip runs from its bundled wheel, offline
    const calls = e.mock.calls.map(([c, a]) => [c, ...a].join(' '));
    expect(calls.some((c) => /^\/usr\/bin\/python3.11 -E -s -m venv --without-pip /.test(c))).toBe(true);
    expect(calls.some((c) => c.includes('pip-26.3-py3-none-any.whl/pip install --isolated --no-index --find-links /ext/bundled/wheels') && c.endsWith('evalsubmit==0.1.0'))).toBe(true);
  });

  it('uses the bundle by default even when the environment has evalsubmit', async () => {
    const r = await prepareLaunch(deps('useBundled', exec(true), bundle, storage()).deps);
    expect(!isProblem(r) && r.server).toBe('bundled');
  });

  it('is a no-python problem, with every reason, when no Python 3.11+ exists', async () => {
    const none = vi.fn<Exec>(async () => ({ code: null, stdout: '', stderr: '', error: 'ENOENT' }));
    const r = await prepareLaunch(deps('useBundled', none).deps);
    expect(r).toMatchObject({ state: 'no-python', message: expect.stringMatching(/needs Python 3.11 or newer and found none/) });
    expect(isProblem(r) && r.details).toContain('python3: not found');
  });

  it('says an evalsubmit.interpreter path that does not exist is missing (one message, not two)', async () => {
    const { deps: d } = deps('useBundled', exec(false));
    const r = await prepareLaunch({ ...d, interpreter: ['/no/such/venv/bin/python', '-X', 'utf8'] });
    expect(r).toMatchObject({
      state: 'no-python',
      message: 'evalsubmit: "evalsubmit.interpreter" is set to /no/such/venv/bin/python, which does not exist.',
    });
    const other = await prepareLaunch({ ...d, interpreter: ['python2'] });
    expect(isProblem(other) && other.message).toMatch(/cannot run the server/);
  });

  it('is a failed problem when the extension carries no bundle', async () => {
    const r = await prepareLaunch(deps('useBundled', exec(false), 'the extension has no bundled server (x)').deps);
    expect(r).toMatchObject({ state: 'failed', message: 'evalsubmit: the extension has no bundled server (x).' });
  });

  it('with the bundled server, the `python` sent is the user\'s interpreter, never the private venv\'s', async () => {
    // the Python extension's selection is a project venv; its probe reports that venv's python
    const userPython = '/home/u/proj/.venv/bin/python';
    const e = vi.fn<Exec>(async (command, args) => {
      if (args.some((a) => a.includes('EVALSUBMIT-PROBE'))) {
        if (command !== userPython) return { code: null, stdout: '', stderr: '', error: 'ENOENT' };
        const info = { version: [3, 12, 1], executable: userPython, freeThreaded: false };
        return { code: 0, stdout: `EVALSUBMIT-PROBE ${JSON.stringify(info)}\n`, stderr: '' };
      }
      if (args.includes('venv')) fs.mkdirSync(args[args.length - 1], { recursive: true });
      return { code: 0, stdout: '', stderr: '' };
    });
    const dir = storage();
    const { deps: d } = deps('useBundled', e, { ...bundle, manifest: { ...bundle.manifest, pythons: ['3.12'] } }, dir);
    const r = await prepareLaunch({ ...d, pythonExtension: async () => [userPython] });
    expect(isProblem(r)).toBe(false);
    if (isProblem(r)) return;
    expect(r.command.startsWith(path.join(dir, 'server') + path.sep)).toBe(true); // the private venv runs it
    expect(r.privateVenvs).toBe(path.join(dir, 'server'));
    expect(environmentPython(r)).toBe(userPython);
    expect(withEnvironmentPython({ ...SERVER_DEFAULTS }, r).python).toBe(userPython);
    expect(withEnvironmentPython({ ...SERVER_DEFAULTS, python: '/opt/sdk' }, r).python).toBe('/opt/sdk');
    expect(followsPythonExtension(r)).toBe(true);
    // the Python extension's choice wins over a .venv of the folder
    expect(withEnvironmentPython({ ...SERVER_DEFAULTS }, r, '/home/u/other/.venv/bin/python').python).toBe(userPython);
  });

  it('reads imports from the folder\'s .venv (else venv) when the Python was only found on PATH', () => {
    const onDisk = new Set(['/w/proj/venv/bin/python', '/w/both/.venv/bin/python', '/w/both/venv/bin/python']);
    const exists = (p: string) => onDisk.has(p);
    expect(workspaceVenvPython('/w/proj', exists, 'linux')).toBe('/w/proj/venv/bin/python');
    expect(workspaceVenvPython('/w/both', exists, 'linux')).toBe('/w/both/.venv/bin/python');
    expect(workspaceVenvPython('/w/none', exists, 'linux')).toBeUndefined();
    expect(workspaceVenvPython('/w/proj', (p) => p === path.join('/w/proj', '.venv', 'Scripts', 'python.exe'), 'win32')).toBe(path.join('/w/proj', '.venv', 'Scripts', 'python.exe'));
    const fromPath = { python: { executable: '/usr/bin/python3', command: { command: 'python3', args: [], source: 'path' } } } as unknown as Launch;
    expect(withEnvironmentPython({ ...SERVER_DEFAULTS }, fromPath, '/w/proj/venv/bin/python').python).toBe('/w/proj/venv/bin/python');
    expect(withEnvironmentPython({ ...SERVER_DEFAULTS, python: '/opt/sdk' }, fromPath, '/w/proj/venv/bin/python').python).toBe('/opt/sdk');
    const fromSetting = { python: { executable: '/opt/py/bin/python3', command: { command: '/opt/py/bin/python3', args: [], source: 'setting' } }, privateVenvs: '/s', server: 'environment', command: '/opt/py/bin/python3' } as unknown as Launch;
    expect(withEnvironmentPython({ ...SERVER_DEFAULTS }, fromSetting, '/w/proj/venv/bin/python').python).toBe('/opt/py/bin/python3');
  });

  it('follows the Python extension\'s environment unless evalsubmit.interpreter names the Python', async () => {
    const r = await prepareLaunch({ ...deps('fromEnvironment', exec(true)).deps, interpreter: ['python3'] });
    expect(!isProblem(r) && r.python.command.source).toBe('setting');
    expect(followsPythonExtension(isProblem(r) ? undefined : r)).toBe(false);
    expect(!isProblem(r) && environmentPython(r)).toBe('/usr/bin/python3.11');
    expect(followsPythonExtension(undefined)).toBe(true); // no server yet: a new environment may fix that
  });
});
