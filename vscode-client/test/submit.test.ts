import { describe, expect, it, vi } from 'vitest';
import { SERVER_COMMANDS } from '../src/constants';
import {
  JobHistory,
  SubmitDeps,
  executeCommandMiddleware,
  jobFromResult,
  outcomeMessage,
  showJob,
  submitEvaluation,
  tasksetFromLenses,
} from '../src/submit';
import { fakeUi } from './fakes';

const editor = { uri: 'file:///ws/eval.py', languageId: 'python', line: 14, character: 4 };

function deps(ui: ReturnType<typeof fakeUi>['ui'], run: SubmitDeps['run']): SubmitDeps & { lines: string[] } {
  const lines: string[] = [];
  const d: SubmitDeps & { lines: string[] } = {
    ui,
    run,
    history: new JobHistory(),
    defaultTaskset: () => null,
    log: (l) => lines.push(l),
    openJob: vi.fn(async () => undefined),
    lines,
  };
  return d;
}

describe('jobFromResult', () => {
  it('finds the job at the top, under job, or as a plain name', () => {
    expect(jobFromResult({ name: 'j1', workspace: 'qa', status: 'created' })).toEqual({
      name: 'j1',
      workspace: 'qa',
      status: 'created',
      url: undefined,
    });
    expect(jobFromResult({ submitted: true, job: { name: 'j2', status: 'error' }, workspace: 'qa', url: 'http://x' })).toEqual({
      name: 'j2',
      workspace: 'qa',
      status: 'error',
      url: 'http://x',
    });
    expect(jobFromResult('j3')).toEqual({ name: 'j3' });
    // the server's answer when the client reports the outcome
    expect(
      jobFromResult({ submitted: true, name: 'j4', workspace: 'qa', status: 'error', url: 'u', outcome: { error: "RuntimeError: The 'gym' CLI was not found on PATH. Install it.", details: 'Job exited with code 1' } }),
    ).toEqual({ name: 'j4', workspace: 'qa', status: 'error', url: 'u', error: "RuntimeError: The 'gym' CLI was not found on PATH. Install it.", details: 'Job exited with code 1' });
    expect(jobFromResult({ submitted: false })).toBeUndefined();
    expect(jobFromResult(null)).toBeUndefined();
  });
});

describe('executeCommandMiddleware', () => {
  it('passes other commands through untouched', async () => {
    const f = fakeUi();
    const next = vi.fn(async () => 'ok');
    const mw = executeCommandMiddleware(deps(f.ui, vi.fn()));
    expect(await mw(SERVER_COMMANDS.debugInfo, [1], next)).toBe('ok');
    expect(next).toHaveBeenCalledWith(SERVER_COMMANDS.debugInfo, [1]);
  });

  it('prompts for the taskset when a code lens sends tasks: null, then sends it with a progress', async () => {
    const f = fakeUi({ picks: ['qa/smoke'] });
    const run = vi.fn(async (command: string) =>
      command === SERVER_COMMANDS.listTasksets ? ['qa/smoke'] : { submitted: true, name: 'job-1', workspace: 'qa', status: 'created' },
    );
    const next = vi.fn();
    const mw = executeCommandMiddleware(deps(f.ui, run));
    const arg = { uri: editor.uri, line: 3, character: 0, tasks: null };
    await mw(SERVER_COMMANDS.submit, [arg], next);
    expect(run).toHaveBeenCalledWith(SERVER_COMMANDS.listTasksets, [{ uri: editor.uri, line: 3, character: 0 }]);
    expect(run).toHaveBeenLastCalledWith(SERVER_COMMANDS.submit, [{ ...arg, tasks: 'qa/smoke', clientReportsOutcome: true }], expect.anything());
    expect(f.ui.withProgress).toHaveBeenCalledWith(expect.stringContaining('qa/smoke'), expect.any(Function), true);
    await vi.waitFor(() => expect(f.messages.some((m) => /Submitted evaluation job job-1/.test(m.text))).toBe(true));
  });

  it('does not prompt when the taskset is known', async () => {
    const f = fakeUi();
    const run = vi.fn(async () => undefined);
    const arg = { uri: editor.uri, line: 3, character: 0, tasks: 'qa/known' };
    await executeCommandMiddleware(deps(f.ui, run))(SERVER_COMMANDS.submit, [arg], vi.fn());
    expect(run).toHaveBeenCalledTimes(1);
    expect(run).toHaveBeenCalledWith(SERVER_COMMANDS.submit, [{ ...arg, clientReportsOutcome: true }], expect.anything());
    expect(f.pickCalls).toHaveLength(0);
    expect(f.inputCalls).toHaveLength(0);
  });

  it('does not forward when the user cancels the prompt', async () => {
    const f = fakeUi({ inputs: [undefined] });
    const next = vi.fn();
    const d = deps(f.ui, async () => {
      throw new Error('unreachable');
    });
    expect(await executeCommandMiddleware(d)(SERVER_COMMANDS.submit, [{ uri: 'u', line: 0, character: 0, tasks: null }], next)).toBeUndefined();
    expect(next).not.toHaveBeenCalled();
  });

  it('turns a failed request into one clear error message', async () => {
    const f = fakeUi();
    const run = vi.fn(async () => {
      throw new Error('422: taskset qa/nope not found');
    });
    await executeCommandMiddleware(deps(f.ui, run))(SERVER_COMMANDS.submit, [{ tasks: 'qa/nope' }], vi.fn());
    expect(f.messages).toEqual([
      { level: 'error', text: 'Submit evaluation failed: 422: taskset qa/nope not found', items: [] },
    ]);
  });
});

describe('submitEvaluation', () => {
  it('sends the cursor position (0-based) and the chosen taskset to evalsubmit.submit', async () => {
    const f = fakeUi({ editor, picks: ['qa/smoke'] });
    const run = vi.fn(async (command: string) =>
      command === SERVER_COMMANDS.listTasksets ? ['qa/smoke'] : { name: 'nemo-job-1', workspace: 'qa', status: 'created' },
    );
    const d = deps(f.ui, run);
    await submitEvaluation(d);
    expect(run).toHaveBeenCalledWith(SERVER_COMMANDS.listTasksets, [{ uri: editor.uri, line: 14, character: 4 }]);
    expect(run).toHaveBeenLastCalledWith(
      SERVER_COMMANDS.submit,
      [{ uri: editor.uri, line: 14, character: 4, tasks: 'qa/smoke', clientReportsOutcome: true }],
      expect.objectContaining({ report: expect.any(Function), onCancel: expect.any(Function) }),
    );
    expect(f.messages[0]).toMatchObject({
      level: 'info',
      text: 'Submitted evaluation job nemo-job-1 in workspace qa (status: created).',
      items: ['Show Job'],
    });
    expect(d.history.list()[0].name).toBe('nemo-job-1');
  });

  it('offers Show Job and Open on the notification', async () => {
    const f = fakeUi({ editor, picks: ['qa/smoke'], choices: ['Show Job'] });
    const d = deps(f.ui, async (c) => (c === SERVER_COMMANDS.listTasksets ? ['qa/smoke'] : { name: 'j', url: 'http://p/j' }));
    await submitEvaluation(d);
    expect(f.messages[0].items).toEqual(['Show Job', 'Open']);
    expect(d.openJob).toHaveBeenCalledWith(expect.objectContaining({ name: 'j' }), false);
  });

  it('a failed job ends with one error naming the cause, with Show Job and Show Logs', async () => {
    const f = fakeUi({ editor, picks: ['qa/smoke'], choices: ['Show Logs'] });
    const result = {
      submitted: true,
      name: 'evalsubmit-1',
      workspace: 'qa',
      status: 'error',
      url: 'http://p/j',
      outcome: { error: "RuntimeError: The 'gym' CLI was not found on PATH. Install NeMo Gym in its own environment.", details: 'Job exited with code 1' },
    };
    const d = deps(f.ui, async (c) => (c === SERVER_COMMANDS.listTasksets ? ['qa/smoke'] : result));
    await submitEvaluation(d);
    expect(f.messages).toEqual([
      { level: 'error', text: "Evaluation job evalsubmit-1 failed: The 'gym' CLI was not found on PATH.", items: ['Show Job', 'Show Logs'] },
    ]);
    expect(d.openJob).toHaveBeenCalledWith(expect.objectContaining({ name: 'evalsubmit-1', workspace: 'qa' }), true);
  });

  it('reports a refusal from the server', async () => {
    const f = fakeUi({ editor, inputs: ['qa/smoke'] });
    const d = deps(f.ui, async (c) =>
      c === SERVER_COMMANDS.listTasksets ? { error: 'no platform' } : { submitted: false, reason: 'ES101 on line 15' },
    );
    await submitEvaluation(d);
    expect(f.messages).toEqual([{ level: 'warning', text: 'Evaluation not submitted: ES101 on line 15', items: [] }]);
  });

  it('takes the taskset from the code lens covering the cursor without asking', async () => {
    const f = fakeUi({ editor });
    f.ui.codeLenses = async () => [
      { startLine: 6, endLine: 12, command: SERVER_COMMANDS.submit, arguments: [{ tasks: null }] },
      { startLine: 13, endLine: 16, command: SERVER_COMMANDS.submit, arguments: [{ uri: editor.uri, line: 13, character: 6, tasks: 'qa/from-code' }] },
      { startLine: 14, endLine: 14, command: 'other.extension', arguments: [] },
    ];
    const run = vi.fn(async () => ({ submitted: true, name: 'j' }));
    await submitEvaluation(deps(f.ui, run));
    expect(f.pickCalls).toHaveLength(0);
    expect(f.inputCalls).toHaveLength(0);
    expect(run).toHaveBeenCalledTimes(1);
    expect(run).toHaveBeenCalledWith(SERVER_COMMANDS.submit, [{ uri: editor.uri, line: 14, character: 4, tasks: 'qa/from-code', clientReportsOutcome: true }], expect.anything());
  });

  it('asks when the lens at the cursor has no taskset (a runner)', async () => {
    const f = fakeUi({ editor: { ...editor, line: 8 }, inputs: ['qa/typed'] });
    f.ui.codeLenses = async () => [{ startLine: 6, endLine: 12, command: SERVER_COMMANDS.submit, arguments: [{ tasks: null }] }];
    const run = vi.fn(async (c: string) => (c === SERVER_COMMANDS.listTasksets ? [] : { submitted: true, name: 'j' }));
    await submitEvaluation(deps(f.ui, run));
    expect(f.inputCalls).toHaveLength(1);
    expect(run).toHaveBeenLastCalledWith(SERVER_COMMANDS.submit, [expect.objectContaining({ tasks: 'qa/typed' })], expect.anything());
  });

  it('picks the innermost lens', () => {
    const lenses = [
      { startLine: 0, endLine: 20, command: SERVER_COMMANDS.submit, arguments: [{ tasks: 'outer/x' }] },
      { startLine: 5, endLine: 6, command: SERVER_COMMANDS.submit, arguments: [{ tasks: 'inner/x' }] },
    ];
    expect(tasksetFromLenses(lenses, 5)).toBe('inner/x');
    expect(tasksetFromLenses(lenses, 10)).toBe('outer/x');
    expect(tasksetFromLenses(lenses, 30)).toBeUndefined();
  });

  it('needs a Python editor', async () => {
    const f = fakeUi({ editor: { ...editor, languageId: 'markdown' } });
    const run = vi.fn();
    await submitEvaluation(deps(f.ui, run));
    expect(run).not.toHaveBeenCalled();
    expect(f.messages[0].level).toBe('warning');
  });
});

describe('outcomeMessage', () => {
  it('names the cause, else the platform message, for a failure', () => {
    expect(outcomeMessage({ name: 'j', status: 'error', details: 'Job exited with code 1' })).toEqual({
      level: 'error',
      text: 'Evaluation job j failed: Job exited with code 1.',
      actions: ['Show Job', 'Show Logs'],
    });
    expect(outcomeMessage({ name: 'j', status: 'error' }).text).toBe('Evaluation job j failed: the platform gave no reason (see Show Job).');
  });
  it('says completed, cancelled, or the status the user stopped following at', () => {
    expect(outcomeMessage({ name: 'j', workspace: 'qa', status: 'completed', url: 'u' })).toEqual({ level: 'info', text: 'Evaluation job j in workspace qa completed.', actions: ['Show Job', 'Open'] });
    expect(outcomeMessage({ name: 'j', status: 'cancelled' }).level).toBe('warning');
    expect(outcomeMessage({ name: 'j', status: 'active' }).text).toBe('Submitted evaluation job j (status: active).');
  });
});

describe('showJob', () => {
  it('asks for a name and opens the job view (or its logs)', async () => {
    const f = fakeUi({ inputs: [' nemo-job-9 ', 'j2'] });
    const d = deps(f.ui, vi.fn());
    await showJob(d);
    expect(d.openJob).toHaveBeenCalledWith({ name: 'nemo-job-9' }, false);
    await showJob(d, undefined, true);
    expect(d.openJob).toHaveBeenLastCalledWith({ name: 'j2' }, true);
  });

  it('offers the jobs submitted in this window, keeping their workspace', async () => {
    const f = fakeUi({ picks: ['j2'] });
    const d = deps(f.ui, vi.fn());
    d.history.add({ name: 'j1', workspace: 'a' });
    d.history.add({ name: 'j2', workspace: 'b', status: 'error' });
    await showJob(d);
    expect(f.pickCalls[0].items).toEqual([{ label: 'j2', description: 'b · error' }, { label: 'j1', description: 'a' }]);
    expect(d.openJob).toHaveBeenCalledWith({ name: 'j2', workspace: 'b', status: 'error' }, false);
  });

  it('does nothing when dismissed', async () => {
    const f = fakeUi({ inputs: [undefined] });
    const d = deps(f.ui, vi.fn());
    await showJob(d);
    expect(d.openJob).not.toHaveBeenCalled();
  });
});
