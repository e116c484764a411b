import { describe, expect, it, vi } from 'vitest';
import {
  Exec,
  ExecResult,
  PythonExtensionApi,
  cleanEnv,
  findPython,
  interpreterFromPythonExtension,
  interpreterWhenTrusted,
  knownToPythonExtension,
  pathCandidates,
  probePython,
  watchPythonExtension,
} from '../src/python';

/** A fake `exec` answering the probe per program: a version (optionally with evalsubmit), or an
 * ExecResult as is. */
function fakeExec(answers: Record<string, [number, number, number] | Partial<ExecResult>>, evalsubmit?: string[]) {
  return vi.fn<Exec>(async (command) => {
    const a = answers[command];
    if (a === undefined) {
      return { code: null, stdout: '', stderr: '', error: 'ENOENT' };
    }
    if (Array.isArray(a)) {
      const info = {
        version: a,
        executable: `/real/${command}`,
        freeThreaded: false,
        ...(evalsubmit?.includes(command) ? { evalsubmit: { version: '0.1.0', location: '/x' } } : {}),
      };
      return { code: 0, stdout: `noise\nEVALSUBMIT-PROBE ${JSON.stringify(info)}\n`, stderr: '' };
    }
    return { code: 0, stdout: '', stderr: '', ...a };
  });
}

describe('findPython', () => {
  it('uses evalsubmit.interpreter alone: no Python extension, no PATH', async () => {
    const ext = vi.fn(async () => ['/ext/python']);
    const exec = fakeExec({ '/venv/bin/python': [3, 12, 1], python3: [3, 13, 0] });
    const found = await findPython(['/venv/bin/python'], ext, exec);
    expect(found).toMatchObject({ ok: true, info: { version: [3, 12, 1], command: { source: 'setting' } } });
    expect(ext).not.toHaveBeenCalled();
    expect(exec).toHaveBeenCalledTimes(1);
  });

  it('reports a set interpreter that is too old instead of replacing it', async () => {
    const found = await findPython(['/old/python'], async () => undefined, fakeExec({ '/old/python': [3, 9, 18], python3: [3, 12, 0] }));
    expect(found).toEqual({ ok: false, fromSetting: true, tried: ['/old/python: Python 3.9.18 is older than 3.11'] });
  });

  it('then the Python extension, then python3 / python / python3.1x on PATH, first >= 3.11', async () => {
    const exec = fakeExec({ '/ext/python': [3, 10, 4], python3: [3, 9, 2], python: { code: 2, stderr: 'Unknown option: -P\n' }, 'python3.13': [3, 13, 0] });
    const found = await findPython([], async () => ['/ext/python'], exec);
    expect(found).toMatchObject({ ok: true, info: { command: { command: 'python3.13', source: 'path' } } });
    if (found.ok) {
      expect(found.tried).toEqual([
        '/ext/python: Python 3.10.4 is older than 3.11',
        'python3: Python 3.9.2 is older than 3.11',
        'python: older than Python 3.11',
        'python3.15: not found',
        'python3.14: not found',
      ]);
    }
  });

  it('says nothing was found, with every reason', async () => {
    const found = await findPython([], async () => undefined, fakeExec({}));
    expect(found.ok).toBe(false);
    expect(found.tried).toHaveLength(pathCandidates().length);
  });

  it('uses py -3 on Windows', () => {
    expect(pathCandidates('win32')).toEqual([
      { command: 'python', args: [], source: 'path' },
      { command: 'py', args: ['-3'], source: 'path' },
    ]);
  });
});

describe('probePython', () => {
  it('really probes the Python running this machine (python3 on PATH)', async () => {
    const r = await probePython({ command: 'python3', args: [], source: 'path' });
    expect(r.ok).toBe(true);
    if (r.ok) {
      expect(r.info.version[0]).toBe(3);
      expect(r.info.executable).toMatch(/python/);
    }
    expect(await probePython({ command: '/nonexistent/python', args: [], source: 'setting' })).toMatchObject({
      ok: false,
      reason: 'not-found',
    });
  });

  it('reads evalsubmit when it is installed there', async () => {
    const r = await probePython({ command: 'p', args: [], source: 'path' }, fakeExec({ p: [3, 11, 1] }, ['p']));
    expect(r).toMatchObject({ ok: true, info: { evalsubmit: { version: '0.1.0' } } });
  });

  it('keeps the output of a crash as the reason', async () => {
    const r = await probePython({ command: 'p', args: [], source: 'path' }, fakeExec({ p: { code: 1, stderr: 'Fatal Python error: init_fs_encoding\n' } }));
    expect(r).toEqual({ ok: false, reason: 'error', detail: 'p: Fatal Python error: init_fs_encoding' });
  });
});

describe('cleanEnv', () => {
  it('drops the variables that redirect Python and pip', () => {
    const env = cleanEnv({ PATH: '/bin', PYTHONPATH: '/evil', PYTHONHOME: '/h', PIP_INDEX_URL: 'x', VIRTUAL_ENV: '/v', HOME: '/home/u' });
    expect(env).toEqual({ PATH: '/bin', HOME: '/home/u' });
  });
});

describe('the Python extension', () => {
  it('reads the active environment through the environments API', async () => {
    const api: PythonExtensionApi = {
      environments: {
        getActiveEnvironmentPath: () => ({ id: 'x', path: '/p' }),
        resolveEnvironment: async () => ({ executable: { uri: { fsPath: '/envs/a/bin/python' } } }),
        known: [{ id: 'a', path: '/envs/a' , executable: { uri: { fsPath: '/envs/a/bin/python' } } }, { id: 'b', path: '/usr/bin/python3' }],
      },
    };
    expect(await interpreterFromPythonExtension(api)).toEqual(['/envs/a/bin/python']);
    expect(knownToPythonExtension(api)).toEqual(['/envs/a/bin/python', '/usr/bin/python3']);
  });

  it('falls back to getExecutionDetails, and to nothing when the API throws', async () => {
    expect(
      await interpreterFromPythonExtension({ settings: { getExecutionDetails: () => ({ execCommand: ['/old/python'] }) } }),
    ).toEqual(['/old/python']);
    const broken: PythonExtensionApi = {
      environments: {
        getActiveEnvironmentPath: () => {
          throw new Error('boom');
        },
        resolveEnvironment: async () => undefined,
      },
    };
    expect(await interpreterFromPythonExtension(broken)).toBeUndefined();
    expect(await interpreterFromPythonExtension(undefined)).toBeUndefined();
    expect(knownToPythonExtension(undefined)).toEqual([]);
  });
});

describe('the Python extension and Workspace Trust', () => {
  /** A fake ms-python API: its selected interpreter, and its change event fired by hand. */
  function fakeApi(exe: string) {
    const listeners: (() => unknown)[] = [];
    const api: PythonExtensionApi = {
      environments: {
        getActiveEnvironmentPath: () => ({ id: exe, path: exe }),
        resolveEnvironment: async () => ({ executable: { uri: { fsPath: exe } } }),
        onDidChangeActiveEnvironmentPath: (listener) => {
          listeners.push(listener);
          return { dispose: () => listeners.splice(listeners.indexOf(listener), 1) };
        },
      },
    };
    return { api, fire: () => listeners.slice().forEach((l) => l()), listeners };
  }

  it('uses the selected interpreter only in a trusted workspace, and does not even load the API before', async () => {
    const { api } = fakeApi('/w/.venv/bin/python');
    const load = vi.fn(async () => api);
    expect(await interpreterWhenTrusted(() => false, load)).toBeUndefined();
    expect(load).not.toHaveBeenCalled();
    expect(await interpreterWhenTrusted(() => true, load)).toEqual(['/w/.venv/bin/python']);
  });

  it('wins over a .venv of the folder and over PATH, and loses to evalsubmit.interpreter', async () => {
    const { api } = fakeApi('/envs/selected/bin/python');
    const probes: string[] = [];
    const exec: Exec = async (command) => {
      probes.push(command);
      const info = { version: [3, 12, 1], executable: command, freeThreaded: false };
      return { code: 0, stdout: `EVALSUBMIT-PROBE ${JSON.stringify(info)}\n`, stderr: '' };
    };
    const fromExt = () => interpreterWhenTrusted(() => true, async () => api);
    const chosen = await findPython([], fromExt, exec);
    expect(chosen.ok && chosen.info.command).toEqual({ command: '/envs/selected/bin/python', args: [], source: 'python-extension' });
    const set = await findPython(['/opt/py/bin/python3'], fromExt, exec);
    expect(set.ok && set.info.command.source).toBe('setting');
    // untrusted: PATH's python3 (a .venv is never given before trust either)
    const untrusted = await findPython([], () => interpreterWhenTrusted(() => false, async () => api), exec);
    expect(untrusted.ok && untrusted.info.command).toEqual({ command: 'python3', args: [], source: 'path' });
  });

  it('restarts on a change of the selected interpreter only when trusted and followed', () => {
    const { api, fire, listeners } = fakeApi('/envs/a/bin/python');
    let trusted = false;
    let follows = true;
    const restart = vi.fn();
    const sub = watchPythonExtension(api, { trusted: () => trusted, follows: () => follows, restart });
    fire();
    expect(restart).not.toHaveBeenCalled();
    trusted = true;
    fire();
    expect(restart).toHaveBeenCalledTimes(1);
    follows = false; // evalsubmit.interpreter names the Python
    fire();
    expect(restart).toHaveBeenCalledTimes(1);
    sub?.dispose();
    expect(listeners).toHaveLength(0);
    expect(watchPythonExtension(undefined, { trusted: () => true, follows: () => true, restart })).toBeUndefined();
  });
});
