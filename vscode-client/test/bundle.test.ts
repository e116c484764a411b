/**
 * The bundled server, for real: the wheels of `bundled/` (scripts/bundle_server.py, which
 * scripts/vscode-unit.sh runs first) installed offline into a private venv made from this
 * machine's python3, then started far enough to import.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import {
  BUNDLED_SERVER_ARGS,
  Bundle,
  ensureBundledServer,
  readBundle,
  unsupportedReason,
  venvDir,
} from '../src/bundle';
import { PythonInfo, probePython } from '../src/python';

const EXTENSION = path.resolve(__dirname, '..');
const tmpDirs: string[] = [];
const tmp = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'evalsubmit-bundle-test-'));
  tmpDirs.push(d);
  return d;
};
// removing three venvs (thousands of files) can take a while on a busy machine
afterAll(() => tmpDirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })), 120_000);

function bundle(): Bundle {
  const b = readBundle(EXTENSION);
  if (typeof b === 'string') {
    throw new Error(`${b}: run \`python3 scripts/bundle_server.py\` (scripts/vscode-unit.sh does)`);
  }
  return b;
}

async function python3(): Promise<PythonInfo> {
  const r = await probePython({ command: 'python3', args: [], source: 'path' });
  if (!r.ok) {
    throw new Error(r.detail);
  }
  return r.info;
}

const quietDeps = (storage: string) => {
  const lines: string[] = [];
  const progress = vi.fn((_title: string) => undefined);
  const deps = {
    storage,
    log: (l: string) => void lines.push(l),
    progress: <T,>(title: string, task: () => Promise<T>) => {
      progress(title);
      return task();
    },
  };
  return { deps, lines, progress };
};

describe('readBundle', () => {
  it('reads the manifest the build wrote, with wheels for CPython 3.11+', () => {
    const b = bundle();
    expect(b.manifest.requirement).toMatch(/^evalsubmit==\d/);
    expect(b.manifest.pythons[0]).toBe('3.11');
    const wheels = fs.readdirSync(b.wheels);
    expect(wheels).toContain(b.manifest.pip);
    for (const v of b.manifest.pythons) {
      const tag = `-cp${v.replace('.', '')}-`;
      expect(wheels.some((w) => w.startsWith('pydantic_core-') && w.includes(tag)), `pydantic_core for ${v}`).toBe(true);
    }
  });

  it('says why when there is no bundle', () => {
    expect(readBundle('/nonexistent')).toMatch(/has no bundled server/);
  });
});

describe('unsupportedReason', () => {
  const b: Bundle = { manifest: { evalsubmit: '0.1.0', requirement: 'evalsubmit==0.1.0', target: 'linux-x64', pythons: ['3.11', '3.12'], pip: 'pip.whl', id: 'abc' }, wheels: '/w' };
  const py = (version: [number, number, number], freeThreaded = false): PythonInfo => ({
    command: { command: 'p', args: [], source: 'path' },
    version,
    executable: '/usr/bin/p',
    freeThreaded,
  });
  it('accepts bundled versions, refuses others and free-threaded builds', () => {
    expect(unsupportedReason(b, py([3, 12, 1]))).toBeUndefined();
    expect(unsupportedReason(b, py([3, 13, 0]))).toMatch(/wheels for CPython 3.11-3.12 \(linux-x64\); \/usr\/bin\/p is Python 3.13.0/);
    expect(unsupportedReason(b, py([3, 12, 0], true))).toMatch(/free-threaded/);
  });
  it('gives each interpreter and bundle its own venv', () => {
    const a = venvDir('/s', b, py([3, 12, 1]));
    expect(a).toMatch(/^\/s\/server\/abc-py312-[0-9a-f]{10}$/);
    expect(venvDir('/s', b, { ...py([3, 12, 1]), executable: '/other/p' })).not.toBe(a);
  });
});

describe('ensureBundledServer (real install, offline)', () => {
  it('installs once into a private venv that imports the server and nothing of the user', async () => {
    const storage = tmp();
    const b = bundle();
    const py = await python3();
    const first = quietDeps(storage);
    const a = await ensureBundledServer(b, py, first.deps);
    expect(a, first.lines.join('\n')).toMatchObject({ ok: true, fresh: true });
    if (!a.ok) return;
    expect(first.progress).toHaveBeenCalledTimes(1);
    expect(first.progress.mock.calls[0][0]).toMatch(/installing the language server for Python 3\.\d+.*offline/);
    // a workspace module named like the server's never shadows it: -P keeps the cwd off sys.path
    const ws = tmp();
    fs.mkdirSync(path.join(ws, 'evalsubmit'));
    fs.writeFileSync(path.join(ws, 'evalsubmit', '__init__.py'), 'raise SystemExit("shadowed")\n');
    const out = execFileSync(a.python, [...BUNDLED_SERVER_ARGS.slice(0, 3), '-c', 'import evalsubmit.lsp, sys; print(evalsubmit.lsp.__file__); print(sys.prefix)'], {
      cwd: ws,
      env: { ...process.env, PYTHONPATH: ws },
      encoding: 'utf8',
    });
    expect(out).toContain(path.join(a.dir, 'lib'));
    expect(out.trim().split('\n')[1]).toBe(a.dir);
    // started again: the venv is reused, without progress
    const again = quietDeps(storage);
    expect(await ensureBundledServer(b, py, again.deps)).toMatchObject({ ok: true, fresh: false, dir: a.dir });
    expect(again.progress).not.toHaveBeenCalled();
  }, 300_000);

  it('two windows starting at once end with one complete venv', async () => {
    const storage = tmp();
    const b = bundle();
    const py = await python3();
    const [x, y] = await Promise.all([ensureBundledServer(b, py, quietDeps(storage).deps), ensureBundledServer(b, py, quietDeps(storage).deps)]);
    expect(x.ok && y.ok).toBe(true);
    const entries = fs.readdirSync(path.join(storage, 'server'));
    expect(entries).toHaveLength(1);
  }, 300_000);

  it('reports a failed install with pip\'s last words, and leaves no half venv', async () => {
    const storage = tmp();
    const b = bundle();
    const broken: Bundle = { ...b, manifest: { ...b.manifest, requirement: 'evalsubmit==999' } };
    const { deps, lines } = quietDeps(storage);
    const r = await ensureBundledServer(broken, await python3(), deps);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.detail).toMatch(/Installing the bundled wheels failed.*evalsubmit==999/);
    expect(lines.join('\n')).toMatch(/No matching distribution|Could not find a version/);
    expect(fs.readdirSync(path.join(storage, 'server'))).toEqual([]);
  }, 300_000);
});
