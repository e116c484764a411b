import { describe, expect, it, vi } from 'vitest';
import { INSTALL, SELECT, ensureServerPackage } from '../src/install';
import type { ExecResult } from '../src/python';
import { fakeUi } from './fakes';

const py = { command: '/venv/bin/python', args: [], source: 'setting' as const };
const missing: ExecResult = { code: 1, stdout: '', stderr: "ModuleNotFoundError: No module named 'evalsubmit'" };
const present: ExecResult = { code: 0, stdout: '{"version": "0.1.0", "location": "/x"}', stderr: '' };

function setup(choice: string | undefined, results: ExecResult[], checkout?: string) {
  const f = fakeUi({ choices: [choice] });
  const exec = vi.fn(async () => results.shift() ?? present);
  const openInterpreterSetting = vi.fn(async () => undefined);
  const lines: string[] = [];
  const deps = { ui: f.ui, log: (l: string) => lines.push(l), checkout: () => checkout, openInterpreterSetting, exec };
  return { f, exec, openInterpreterSetting, deps, lines };
}

describe('ensureServerPackage', () => {
  it('is ok without asking anything when evalsubmit imports', async () => {
    const s = setup(undefined, [present]);
    expect(await ensureServerPackage(py, s.deps)).toBe('ok');
    expect(s.f.messages).toHaveLength(0);
  });

  it('says the package is missing and installs from PyPI when asked', async () => {
    const s = setup(INSTALL, [missing, { code: 0, stdout: 'Successfully installed evalsubmit', stderr: '' }, present]);
    expect(await ensureServerPackage(py, s.deps)).toBe('installed');
    expect(s.f.messages[0].text).toMatch(/not installed in \/venv\/bin\/python.*pip install evalsubmit/);
    expect(s.f.messages[0].items).toEqual([INSTALL, SELECT]);
    expect(s.exec).toHaveBeenNthCalledWith(2, '/venv/bin/python', ['-m', 'pip', 'install', 'evalsubmit'], expect.any(Number));
  });

  it('installs a repo checkout in editable mode', async () => {
    const s = setup(INSTALL, [missing, { code: 0, stdout: '', stderr: '' }, present], '/src/evalsubmit');
    await ensureServerPackage(py, s.deps);
    expect(s.exec).toHaveBeenNthCalledWith(2, '/venv/bin/python', ['-m', 'pip', 'install', '-e', '/src/evalsubmit'], expect.any(Number));
  });

  it('reports a failed pip run', async () => {
    const s = setup(INSTALL, [missing, { code: 1, stdout: '', stderr: 'No matching distribution' }]);
    expect(await ensureServerPackage(py, s.deps)).toBe('error');
    expect(s.f.messages[1]).toMatchObject({ level: 'error' });
    expect(s.lines.join('\n')).toContain('No matching distribution');
  });

  it('does nothing more when dismissed, opens the setting on Select Interpreter', async () => {
    expect(await ensureServerPackage(py, setup(undefined, [missing]).deps)).toBe('missing');
    const s = setup(SELECT, [missing]);
    expect(await ensureServerPackage(py, s.deps)).toBe('missing');
    expect(s.openInterpreterSetting).toHaveBeenCalled();
  });

  it('tells a missing interpreter apart', async () => {
    const s = setup(undefined, [{ code: null, stdout: '', stderr: '', error: 'ENOENT' }]);
    expect(await ensureServerPackage(py, s.deps)).toBe('no-python');
    expect(s.f.messages[0].text).toMatch(/was not found/);
  });
});
