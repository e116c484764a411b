import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import {
  ExecResult,
  PythonExtensionApi,
  checkServerPackage,
  findCheckout,
  installArgs,
  interpreterFromPythonExtension,
  resolveInterpreter,
  serverArgs,
} from '../src/python';

const VENV_PYTHON = process.env.EVALSUBMIT_PYTHON ?? path.resolve(__dirname, '../../.venv/bin/python');

describe('resolveInterpreter', () => {
  it('prefers evalsubmit.interpreter and does not ask the Python extension', async () => {
    const ext = vi.fn(async () => ['/from/ext/python']);
    const py = await resolveInterpreter(['/venv/bin/python'], ext);
    expect(py).toEqual({ command: '/venv/bin/python', args: [], source: 'setting' });
    expect(ext).not.toHaveBeenCalled();
  });

  it('uses an array setting as program + arguments before -m', async () => {
    const py = await resolveInterpreter(['uv', 'run', 'python'], async () => undefined);
    expect(py.command).toBe('uv');
    expect(serverArgs(py)).toEqual(['run', 'python', '-P', '-m', 'evalsubmit.lsp']);
  });

  it('then the Python extension, then python3', async () => {
    expect(await resolveInterpreter([], async () => ['/ext/python'])).toMatchObject({
      command: '/ext/python',
      source: 'python-extension',
    });
    expect(await resolveInterpreter([], async () => undefined)).toEqual({
      command: 'python3',
      args: [],
      source: 'default',
    });
  });
});

describe('interpreterFromPythonExtension', () => {
  it('reads the active environment through the environments API', async () => {
    const api: PythonExtensionApi = {
      environments: {
        getActiveEnvironmentPath: () => ({ id: 'x', path: '/p' }),
        resolveEnvironment: async () => ({ executable: { uri: { fsPath: '/envs/a/bin/python' } } }),
      },
    };
    expect(await interpreterFromPythonExtension(api)).toEqual(['/envs/a/bin/python']);
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
  });
});

describe('checkServerPackage', () => {
  const py = { command: '/py', args: [], source: 'setting' as const };
  const exec = (r: Partial<ExecResult>) => vi.fn(async () => ({ code: 0, stdout: '', stderr: '', ...r }));

  it('reports version and location when evalsubmit imports', async () => {
    const r = await checkServerPackage(py, exec({ stdout: '{"version": "0.1.0", "location": "/x/evalsubmit/__init__.py"}\n' }));
    expect(r).toEqual({ ok: true, version: '0.1.0', location: '/x/evalsubmit/__init__.py' });
  });

  it('tells a missing package from a missing Python and from other errors', async () => {
    expect(
      await checkServerPackage(py, exec({ code: 1, stderr: "ModuleNotFoundError: No module named 'evalsubmit'\n" })),
    ).toMatchObject({ ok: false, reason: 'missing' });
    expect(await checkServerPackage(py, exec({ code: null, error: 'ENOENT' }))).toMatchObject({
      ok: false,
      reason: 'no-python',
    });
    expect(await checkServerPackage(py, exec({ code: 1, stderr: 'SyntaxError: bad\n' }))).toMatchObject({
      ok: false,
      reason: 'error',
      detail: 'SyntaxError: bad',
    });
  });

  it.skipIf(!fs.existsSync(VENV_PYTHON))('really runs the project venv Python', async () => {
    const r = await checkServerPackage({ command: VENV_PYTHON, args: [], source: 'setting' });
    expect(r.ok).toBe(true);
    const none = await checkServerPackage({ command: '/nonexistent/python', args: [], source: 'setting' });
    expect(none).toMatchObject({ ok: false, reason: 'no-python' });
  });
});

describe('install', () => {
  const py = { command: '/py', args: [], source: 'setting' as const };
  it('finds a checkout by its pyproject name', () => {
    const files: Record<string, string> = {
      '/a/pyproject.toml': '[project]\nname = "other"\n',
      '/b/pyproject.toml': '[project]\nname = "evalsubmit"\nversion = "0.1.0"\n',
    };
    expect(findCheckout(['/a', '/b'], (p) => files[p])).toBe('/b');
    expect(findCheckout(['/a'], (p) => files[p])).toBeUndefined();
  });

  it('pip install -e for a checkout, the PyPI package otherwise', () => {
    expect(installArgs(py, '/b')).toEqual(['-m', 'pip', 'install', '-e', '/b']);
    expect(installArgs(py, undefined)).toEqual(['-m', 'pip', 'install', 'evalsubmit']);
  });
});
