import { describe, expect, it, vi } from 'vitest';
import { MissingPaths, OPEN_SETTINGS, missingInterpreter } from '../src/pathwarnings';

describe('missingInterpreter', () => {
  it('names an interpreter path that does not exist, not a name looked up on PATH', () => {
    const exists = (p: string) => p === '/opt/py/bin/python3';
    expect(missingInterpreter(['/work/proj/.venv/bin/python'], exists)).toEqual(['evalsubmit.interpreter: /work/proj/.venv/bin/python']);
    expect(missingInterpreter(['/opt/py/bin/python3'], exists)).toEqual([]);
    expect(missingInterpreter(['venvs/eval/bin/python'], exists)).toEqual(['evalsubmit.interpreter: venvs/eval/bin/python']);
    expect(missingInterpreter(['python3'], exists)).toEqual([]);
    expect(missingInterpreter(['py', '-3'], exists)).toEqual([]);
    expect(missingInterpreter([], exists)).toEqual([]);
  });
});

describe('MissingPaths', () => {
  function setup(answer: string | undefined) {
    const log: string[] = [];
    const warn = vi.fn(async (_text: string, ..._items: string[]) => answer);
    const openSettings = vi.fn();
    return { log, warn, openSettings, paths: new MissingPaths({ log: (l) => log.push(l), warn, openSettings }) };
  }

  it('warns once per setting and path, with Open Settings, and logs it', async () => {
    const { log, warn, paths } = setup(undefined);
    paths.report(['evalsubmit.interpreter: /w/.venv/bin/python']);
    paths.report(['evalsubmit.interpreter: /w/.venv/bin/python']); // every restart asks again
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn).toHaveBeenCalledWith('evalsubmit: "evalsubmit.interpreter" is set to /w/.venv/bin/python, which does not exist.', OPEN_SETTINGS);
    expect(log).toEqual(['Setting evalsubmit.interpreter: /w/.venv/bin/python: no such file or folder.']);
    paths.report(['evalsubmit.interpreter: /w/venv/bin/python', 'evalsubmit.python: /w/sdk']); // changed, still wrong
    expect(warn).toHaveBeenCalledTimes(3);
    expect(warn.mock.calls[2][0]).toContain('"evalsubmit.python" is set to /w/sdk');
  });

  it('opens the Settings editor on that setting when asked', async () => {
    const { openSettings, paths } = setup(OPEN_SETTINGS);
    paths.report(['evalsubmit.python: /w/sdk']);
    await vi.waitFor(() => expect(openSettings).toHaveBeenCalledWith('evalsubmit.python'));
  });
});
