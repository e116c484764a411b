import { describe, expect, it, vi } from 'vitest';
import { SERVER_COMMANDS } from '../src/constants';
import { commandError, promptForTaskset, tasksetItems, validateTasksetRef } from '../src/tasksets';
import { fakeUi } from './fakes';

describe('tasksetItems', () => {
  it('accepts strings, refs, workspace+name objects and wrapped lists', () => {
    expect(tasksetItems(['qa/smoke'])).toEqual([{ label: 'qa/smoke' }]);
    expect(tasksetItems([{ ref: 'qa/a' }, { reference: 'qa/b' }])).toEqual([{ label: 'qa/a' }, { label: 'qa/b' }]);
    expect(tasksetItems({ tasksets: [{ workspace: 'qa', name: 'c', description: 'three tasks' }] })).toEqual([
      { label: 'qa/c', description: 'three tasks' },
    ]);
    expect(tasksetItems({ data: [{ name: 'd' }] })).toEqual([{ label: 'd' }]);
    // the server's evalsubmit.listTasksets answer
    expect(
      tasksetItems({ workspace: 'qa', tasksets: [{ ref: 'qa/smoke', name: 'smoke', description: null }] }),
    ).toEqual([{ label: 'qa/smoke' }]);
    expect(tasksetItems(null)).toEqual([]);
    expect(tasksetItems([42, {}])).toEqual([]);
  });

  it('validates references like the platform', () => {
    expect(validateTasksetRef('qa/smoke')).toBeUndefined();
    expect(validateTasksetRef('smoke#v2')).toBeUndefined();
    expect(validateTasksetRef('qa team/smoke')).toMatch(/not a taskset reference/);
    expect(validateTasksetRef('org/qa/smoke')).toMatch(/not a taskset reference/);
    expect(validateTasksetRef('')).toMatch(/Enter a taskset/);
  });

  it('reads {error} results as failures', () => {
    expect(commandError({ error: 'connection refused' })).toBe('connection refused');
    expect(commandError({ error: { message: 'x' } })).toBe('x');
    expect(commandError([])).toBeUndefined();
  });
});

describe('promptForTaskset', () => {
  it('offers the platform tasksets in a quick pick when it is reachable', async () => {
    const { ui, pickCalls } = fakeUi({ picks: ['qa/smoke'] });
    const run = vi.fn(async () => ['qa/smoke', 'qa/nightly']);
    expect(await promptForTaskset(ui, run, { defaultTaskset: 'qa/nightly' })).toBe('qa/smoke');
    expect(run).toHaveBeenCalledWith(SERVER_COMMANDS.listTasksets, []);
    expect(pickCalls[0].items.map((i) => i.label)).toEqual(['qa/smoke', 'qa/nightly']);
    expect(pickCalls[0].options.value).toBe('qa/nightly');
  });

  it('lists the tasksets of the workspace the code at the cursor names, pre-filled with a TasksetRef near it', async () => {
    const { ui, pickCalls } = fakeUi({ picks: ['team-a/smoke'] });
    const run = vi.fn(async () => ({ workspace: 'team-a', tasksets: [{ ref: 'team-a/smoke' }, { ref: 'team-a/nightly' }], suggested: 'team-a/smoke' }));
    const at = { uri: 'file:///ws/e.py', line: 7, character: 9 };
    expect(await promptForTaskset(ui, run, { defaultTaskset: 'other/x', at })).toBe('team-a/smoke');
    expect(run).toHaveBeenCalledWith(SERVER_COMMANDS.listTasksets, [at]);
    expect(pickCalls[0].options).toMatchObject({ title: 'Submit evaluation: taskset (workspace team-a)', value: 'team-a/smoke' });
  });

  it('falls back to free text when the platform is unreachable, and says why', async () => {
    const { ui, inputCalls, pickCalls } = fakeUi({ inputs: [' qa/typed '] });
    const run = vi.fn(async () => {
      throw new Error('connection refused');
    });
    expect(await promptForTaskset(ui, run)).toBe('qa/typed');
    expect(pickCalls).toHaveLength(0);
    expect(inputCalls[0].prompt).toMatch(/connection refused/);
    expect(inputCalls[0].validate?.('bad ref')).toMatch(/not a taskset reference/);
  });

  it('names the workspace in the prompt even when the platform could not list it', async () => {
    const { ui, inputCalls } = fakeUi({ inputs: ['qa/x'] });
    await promptForTaskset(ui, async () => ({ workspace: 'qa', error: 'connection refused', suggested: 'qa/near' }));
    expect(inputCalls[0]).toMatchObject({ value: 'qa/near' });
  });

  it('treats an {error} answer and an empty list as "type it"', async () => {
    for (const answer of [{ error: 'platform not configured' }, []]) {
      const { ui, inputCalls } = fakeUi({ inputs: ['qa/x'] });
      expect(await promptForTaskset(ui, async () => answer)).toBe('qa/x');
      expect(inputCalls[0].prompt).toMatch(answer instanceof Array ? /Type a taskset reference/ : /platform not configured/);
      expect(inputCalls).toHaveLength(1);
    }
  });

  it('gives up listing after the timeout', async () => {
    const { ui, inputCalls } = fakeUi({ inputs: ['qa/x'] });
    const never = () => new Promise<unknown>(() => undefined);
    expect(await promptForTaskset(ui, never, { listTimeoutMs: 50 })).toBe('qa/x');
    expect(inputCalls[0].prompt).toMatch(/timed out/);
  });

  it('returns undefined on cancel, and refuses a malformed typed reference', async () => {
    expect(await promptForTaskset(fakeUi({ picks: [undefined] }).ui, async () => ['qa/a'])).toBeUndefined();
    const f = fakeUi({ picks: ['qa team/x'] });
    expect(await promptForTaskset(f.ui, async () => ['qa/a'])).toBeUndefined();
    expect(f.messages[0]).toMatchObject({ level: 'error' });
  });
});
