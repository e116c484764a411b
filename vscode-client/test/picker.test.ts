import { describe, expect, it, vi } from 'vitest';
import { AUTOMATIC, BROWSE, selectInterpreter } from '../src/picker';
import type { Exec, PythonCommand } from '../src/python';
import { fakeUi } from './fakes';

/** Probe answers per program: version and real executable. */
function exec(table: Record<string, [[number, number, number], string]>) {
  return vi.fn<Exec>(async (command) => {
    const t = table[command];
    if (!t) return { code: null, stdout: '', stderr: '', error: 'ENOENT' };
    const info = { version: t[0], executable: t[1], freeThreaded: false };
    return { code: 0, stdout: `EVALSUBMIT-PROBE ${JSON.stringify(info)}\n`, stderr: '' };
  });
}
const onPath: PythonCommand[] = ['python3', 'python', 'python3.12'].map((command) => ({ command, args: [], source: 'path' }));

describe('selectInterpreter', () => {
  const table = {
    python3: [[3, 11, 7], '/usr/bin/python3.11'],
    python: [[3, 11, 7], '/usr/bin/python3.11'], // the same interpreter: listed once
    'python3.12': [[3, 12, 1], '/opt/py312/bin/python3.12'],
    '/envs/old/bin/python': [[3, 9, 1], '/envs/old/bin/python'], // too old: not offered
    '/envs/new/bin/python': [[3, 13, 0], '/envs/new/bin/python'],
  } as Record<string, [[number, number, number], string]>;

  it('lists the Pythons >= 3.11 found once each, plus Browse, and writes the chosen path', async () => {
    const f = fakeUi({ chosen: ['Python 3.12.1'] });
    const write = vi.fn(async () => undefined);
    const chosen = await selectInterpreter({
      ui: f.ui,
      current: [],
      fromPythonExtension: async () => ['/envs/old/bin/python', '/envs/new/bin/python'],
      write,
      exec: exec(table),
      candidates: onPath,
    });
    expect(f.plainPicks[0].items.map((i) => i.label)).toEqual(['Python 3.13.0', 'Python 3.11.7', 'Python 3.12.1', BROWSE]);
    expect(chosen).toBe('/opt/py312/bin/python3.12');
    expect(write).toHaveBeenCalledWith('/opt/py312/bin/python3.12');
  });

  it('Browse... checks the file is a Python >= 3.11 before writing it', async () => {
    const write = vi.fn(async () => undefined);
    const f = fakeUi({ chosen: [BROWSE, BROWSE], files: ['/envs/old/bin/python', '/envs/new/bin/python'] });
    const deps = { ui: f.ui, current: [], fromPythonExtension: async () => [], write, exec: exec(table), candidates: onPath };
    expect(await selectInterpreter(deps)).toBeUndefined();
    expect(f.messages[0]).toMatchObject({ level: 'error', text: expect.stringMatching(/is Python 3.9.1; the server needs 3.11 or newer/) });
    expect(write).not.toHaveBeenCalled();
    expect(await selectInterpreter(deps)).toBe('/envs/new/bin/python');
    expect(write).toHaveBeenCalledWith('/envs/new/bin/python');
  });

  it('offers to go back to automatic discovery when the setting is set', async () => {
    const write = vi.fn(async () => undefined);
    const f = fakeUi({ chosen: [AUTOMATIC] });
    expect(await selectInterpreter({ ui: f.ui, current: ['/envs/new/bin/python'], fromPythonExtension: async () => [], write, exec: exec(table), candidates: onPath })).toBe('');
    expect(write).toHaveBeenCalledWith(undefined);
    expect(f.plainPicks[0].items.at(-1)?.label).toBe(AUTOMATIC);
  });

  it('writes nothing when dismissed', async () => {
    const write = vi.fn(async () => undefined);
    const f = fakeUi({ chosen: [undefined] });
    expect(await selectInterpreter({ ui: f.ui, current: [], fromPythonExtension: async () => [], write, exec: exec({}), candidates: onPath })).toBeUndefined();
    expect(f.plainPicks[0].items.map((i) => i.label)).toEqual([BROWSE]);
    expect(write).not.toHaveBeenCalled();
  });
});
