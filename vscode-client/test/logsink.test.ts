import { describe, expect, it, vi } from 'vitest';
import { LogSink } from '../src/logsink';

function sink() {
  const entries: [string, string][] = [];
  const rec = (level: string) => vi.fn((m: string) => entries.push([level, m]));
  const log = { error: rec('error'), warn: rec('warn'), info: rec('info'), debug: rec('debug'), show: vi.fn(), hide: vi.fn() };
  return { s: new LogSink(log, 'evalsubmit', 20), entries, log };
}

describe('LogSink', () => {
  it('logs the client lines at their own level, without the "[Error - time]" prefix', () => {
    const { s, entries } = sink();
    s.appendLine('[Error - 10:01:02 AM] Request textDocument/hover failed.');
    s.appendLine('[Warn  - 10:01:02 AM] careful');
    s.appendLine('[Info  - 10:01:03 AM] evalsubmit: started');
    s.appendLine('[Trace - 10:01:04 AM] Sending request \'initialize - (0)\'.');
    s.appendLine('{"params": 1}');
    expect(entries).toEqual([
      ['error', 'Request textDocument/hover failed.'],
      ['warn', 'careful'],
      ['info', 'evalsubmit: started'],
      ['info', "Sending request 'initialize - (0)'."],
      ['info', '{"params": 1}'],
    ]);
  });

  it('a restart or stop asked for is information, never "exited normally"; another exit is not', () => {
    const { s, entries } = sink();
    s.expectedStop = 'restart';
    s.appendLine('[Error - 10:01:02 AM] Server process exited with code 0.');
    s.expectedStop = 'stop';
    s.appendLine('[Error - 10:01:02 AM] Server process exited with code 0.');
    s.expectedStop = undefined;
    s.appendLine('[Error - 10:01:02 AM] Server process exited with code 0.');
    s.appendLine('[Error - 10:01:02 AM] Server process exited with code 1.');
    expect(entries).toEqual([
      ['info', 'The server stopped for a restart.'],
      ['info', 'The server stopped.'],
      ['warn', 'The server process exited (code 0) without being asked to stop.'],
      ['error', 'The server process exited with code 1.'],
    ]);
  });

  it('keeps a multi-line message from the server together', () => {
    const { s, entries } = sink();
    s.appendLine('[Error - 1:00:00 PM] ERROR evalsubmit.lsp: internal error in hover\nTraceback (most recent call last):\n  File "x.py", line 1\nValueError: boom');
    expect(entries).toHaveLength(1);
    expect(entries[0][1].split('\n')).toHaveLength(4);
  });

  it('collects stderr chunks into one entry per burst (a traceback in pieces is one error)', async () => {
    const { s, entries } = sink();
    s.append('Traceback (most recent call last):\n  File "/x/ev');
    s.append('alsubmit/lsp/__main__.py", line 3, in <module>\n');
    s.append('ModuleNotFoundError: No module named \'pygls\'\n');
    await new Promise((r) => setTimeout(r, 60));
    expect(entries).toEqual([
      ['error', '[server stderr] Traceback (most recent call last):\n  File "/x/evalsubmit/lsp/__main__.py", line 3, in <module>\nModuleNotFoundError: No module named \'pygls\''],
    ]);
    s.append('DeprecationWarning: x\n');
    s.appendLine('[Info - 1:00:00 PM] next'); // a client line flushes what stderr had
    expect(entries.slice(1)).toEqual([
      ['warn', '[server stderr] DeprecationWarning: x'],
      ['info', 'next'],
    ]);
  });
});
