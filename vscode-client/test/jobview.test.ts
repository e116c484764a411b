/**
 * The job view, rendered from responses recorded from a real local NeMo Platform 0.6.0
 * (test/fixtures/platform/: a Gym job that failed because the gym CLI is missing, and a job made
 * completed through the platform's own jobs API with an agent-eval "summary" result), in the
 * shape the server's evalsubmit.jobStatus passes them on.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { SERVER_COMMANDS } from '../src/constants';
import { JobViews, causeSentence, jobDetails, jobUri, parseJobUri, reflowTraceback, renderJob } from '../src/jobview';

const fixture = (name: string) => JSON.parse(fs.readFileSync(path.join(__dirname, 'fixtures', 'platform', name), 'utf8'));
const errorJob = fixture('error-job.json');
const errorStatus = fixture('error-status.json');
const errorLogs = fixture('error-logs.json');
const ANSI = /\x1b\[[0-9;?]*[A-Za-z]/g;
const logLines = errorLogs.data.map((e: { timestamp: string; message: string }) => `${e.timestamp} ${e.message.replace(ANSI, '')}`);
const traceback = errorLogs.data.at(-1).message as string;

/** What evalsubmit.jobStatus answers for the failed job. */
const failedAnswer = {
  ...errorStatus,
  workspace: 'ws1',
  url: `http://127.0.0.1:18080/apis/evaluator/v2/workspaces/ws1/agent-evaluate/jobs/${errorStatus.name}`,
  target: errorJob.spec.target,
  tasks: errorJob.spec.tasks,
  cause: "RuntimeError: The 'gym' CLI was not found on PATH. Install NeMo Gym in its own environment (it needs Ray, which nemo-platform excludes over an unfixed CVE, so it cannot share this one) and put that environment's `bin` directory on PATH.",
  logs: logLines,
};

describe('causeSentence', () => {
  it('is the first sentence of the error, without the exception class', () => {
    expect(causeSentence(failedAnswer.cause)).toBe("The 'gym' CLI was not found on PATH.");
    expect(causeSentence('ValueError: bad value for x')).toBe('bad value for x');
    expect(causeSentence('nemo.Exit: stopped. Really.')).toBe('stopped.');
    expect(causeSentence(undefined)).toBeUndefined();
  });
});

describe('reflowTraceback', () => {
  it('puts the platform\'s one-line traceback back on its lines', () => {
    const lines = reflowTraceback(traceback).split('\n');
    expect(lines[0]).toBe('[stderr] Traceback (most recent call last):');
    expect(lines[1]).toMatch(/^ {2}File ".*dispatcher.py", line 145, in run_task$/);
    expect(lines[2]).toMatch(/^ {4}result = job.run\(config, \*\*kwargs\)$/);
    expect(lines[3]).toMatch(/^ {4}\^+$/);
    expect(lines.at(-1)).toMatch(/^RuntimeError: The 'gym' CLI was not found on PATH\./);
    expect(lines.filter((l) => l.startsWith('  File "')).length).toBe(12);
  });
  it('leaves other messages alone', () => {
    expect(reflowTraceback('[stderr] plain   spaced')).toBe('[stderr] plain   spaced');
  });
});

describe('renderJob', () => {
  it('a failed job: status with its cause, timestamps, platform details, target and every log line', () => {
    const text = renderJob(jobDetails({ name: errorStatus.name }, failedAnswer), { refreshS: 2 });
    expect(text).toContain(`evalsubmit job ${errorStatus.name} (read-only)`);
    expect(text).toMatch(/^Status {5}error — The 'gym' CLI was not found on PATH\.$/m);
    expect(text).toMatch(/^Created {4}2026-11-30 15:49:09 UTC$/m);
    expect(text).toMatch(/^Updated {4}2026-11-30 15:49:29 UTC$/m); // its step's, the job's own stays put
    expect(text).toMatch(/^Taskset {4}2 tasks \(task-a, task-b\)$/m);
    expect(text).toContain('URL        http://127.0.0.1:18080/apis/evaluator/v2/workspaces/ws1/agent-evaluate/jobs/');
    expect(text).toContain('error_details: {\n    "message": "Job exited with code 1"\n  }');
    expect(text).toContain('step agent-evaluate: error — Job exited with code 1');
    expect(text).toContain('Target (as submitted)\n  {\n    "kind": "gym",');
    expect(text).toContain('"agent_config": "configs/agent.yaml"');
    expect(text).toContain(`Logs (${logLines.length} lines)`);
    expect(text).toContain('NMP_PRINCIPAL not set');
    expect(text).toMatch(/^ {2}RuntimeError: The 'gym' CLI was not found on PATH\./m);
    expect(text).not.toMatch(ANSI);
  });

  it('a completed job: its summary result and the link', () => {
    const status = fixture('completed-status.json');
    const results = fixture('completed-results.json');
    const answer = { ...status, workspace: 'ws1', url: 'http://p/jobs/x', results: results.data.map((r: { name: string }) => r.name), result_summary: fixture('completed-summary.json'), logs: [] };
    const text = renderJob(jobDetails({ name: status.name }, answer), { refreshS: 2 });
    expect(text).toMatch(/^Status {5}completed$/m);
    expect(text).toContain('Summary (the job\'s "summary" result)');
    expect(text).toContain('"name": "gym_reward.reward"');
    expect(text).toContain('"mean": 0.5');
    expect(text).toContain('results: summary');
    expect(text).toContain('URL        http://p/jobs/x');
    expect(text).toContain('no log lines yet');
  });

  it('a running job says it refreshes; an older server\'s short answer still renders', () => {
    const text = renderJob(jobDetails({ name: 'j', workspace: 'qa' }, { name: 'j', workspace: 'qa', status: 'active', summary: 'active: Job is running', url: 'http://p/j' }), { refreshS: 2 });
    expect(text).toContain('(read-only · refreshed every 2 s while the job runs)');
    expect(text).toContain('this server does not send job logs');
  });

  it('the logs view holds only the logs', () => {
    const text = renderJob(jobDetails({ name: 'j' }, failedAnswer), { logsOnly: true });
    expect(text).not.toContain('Target (as submitted)');
    expect(text).toContain('— logs (read-only)');
    expect(text).toContain('NMP_PRINCIPAL not set');
  });
});

describe('job URIs', () => {
  it('round-trip the workspace and name', () => {
    const uri = jobUri({ name: 'nemo-evaluator.agent-1', workspace: 'team a' });
    expect(uri).toBe('evalsubmit-job:/team%20a/nemo-evaluator.agent-1.log');
    expect(parseJobUri(uri)).toEqual({ name: 'nemo-evaluator.agent-1', workspace: 'team a', logsOnly: false });
    expect(parseJobUri(jobUri({ name: 'j' }, true))).toEqual({ name: 'j', workspace: undefined, logsOnly: true });
    expect(parseJobUri('file:///x.log')).toBeUndefined();
  });
});

describe('JobViews', () => {
  it('refreshes an open running job until it ends, then stops asking', async () => {
    vi.useFakeTimers();
    try {
      const answers = [{ status: 'pending' }, { status: 'active' }, { ...failedAnswer }];
      const run = vi.fn(async () => ({ name: 'j', workspace: 'ws1', ...answers.shift() }));
      const changed = vi.fn();
      const scope = vi.fn<() => string | undefined>().mockReturnValueOnce('file:///ws/a.py').mockReturnValue(undefined);
      const views = new JobViews({ run, changed, isOpen: () => true, refreshS: () => 2, scopeUri: scope, log: () => undefined });
      const uri = jobUri({ name: 'j' }); // typed by name: the server finds its workspace
      expect(await views.provide(uri)).toMatch(/^Status {5}pending$/m);
      expect(run).toHaveBeenCalledWith(SERVER_COMMANDS.jobStatus, [{ name: 'j', logs: 200, uri: 'file:///ws/a.py' }]);
      await vi.advanceTimersByTimeAsync(2000);
      expect(changed).toHaveBeenCalledTimes(1);
      // refreshed with the workspace the server answered and the scope of the first read
      expect(run).toHaveBeenLastCalledWith(SERVER_COMMANDS.jobStatus, [{ name: 'j', logs: 200, workspace: 'ws1', uri: 'file:///ws/a.py' }]);
      expect(await views.provide(uri)).toMatch(/^Status {5}active$/m);
      await vi.advanceTimersByTimeAsync(2000);
      expect(await views.provide(uri)).toMatch(/^Status {5}error — The 'gym' CLI/m);
      await vi.advanceTimersByTimeAsync(10_000);
      expect(run).toHaveBeenCalledTimes(3);
      views.dispose();
    } finally {
      vi.useRealTimers();
    }
  });

  it('stops for a closed document, and shows a read failure in the view', async () => {
    const run = vi.fn(async () => ({ error: "Could not read job 'j': not found in workspace 'ws1' (404)." }));
    const views = new JobViews({ run, changed: vi.fn(), isOpen: () => false, refreshS: () => 1, scopeUri: () => undefined, log: () => undefined });
    const text = await views.provide(jobUri({ name: 'j', workspace: 'ws1' }));
    expect(text).toContain("Could not read the job: Could not read job 'j': not found in workspace 'ws1' (404).");
    await views.refresh();
    expect(run).toHaveBeenCalledTimes(1);
    views.dispose();
  });
});
