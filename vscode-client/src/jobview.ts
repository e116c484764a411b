/**
 * The job view: a read-only virtual document (`evalsubmit-job:` URI) with a job's status,
 * timestamps, cause, the platform's details, the submitted target, the summary of a completed
 * job and its logs, read through the server's `evalsubmit.jobStatus` and refreshed while the job
 * runs. Rendering is pure; `JobViews` keeps the open documents up to date. No `vscode` import.
 */
import { SERVER_COMMANDS } from './constants';
import { ServerCommandRunner, errorText } from './ui';

export const JOB_SCHEME = 'evalsubmit-job';
export const TERMINAL = new Set(['completed', 'error', 'cancelled', 'failed']);

/** What `evalsubmit.jobStatus` answers (older servers send only name/workspace/status/summary/url). */
export interface JobDetails {
  name: string;
  workspace?: string;
  status?: string;
  summary?: string;
  url?: string;
  createdAt?: string;
  updatedAt?: string;
  statusDetails?: Record<string, unknown> | null;
  errorDetails?: Record<string, unknown> | null;
  steps?: { name?: string; status?: string; status_details?: unknown; error_details?: unknown }[];
  target?: unknown;
  tasks?: unknown;
  error?: string | null;
  logs?: string[];
  logsError?: string | null;
  results?: string[];
  resultSummary?: unknown;
  resultsError?: string | null;
}

export interface JobKey {
  name: string;
  workspace?: string;
}

function rec(v: unknown): Record<string, unknown> | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/** Reads a `evalsubmit.jobStatus` answer (camelCase or the platform's snake_case). */
export function jobDetails(key: JobKey, raw: unknown): JobDetails {
  const r = rec(raw) ?? {};
  const pick = (...names: string[]) => names.map((n) => r[n]).find((v) => v !== undefined);
  const logs = pick('logs', 'log_lines', 'logLines');
  return {
    name: str(r.name) ?? key.name,
    workspace: str(r.workspace) ?? key.workspace,
    status: str(r.status),
    summary: str(r.summary),
    url: str(r.url),
    createdAt: str(pick('createdAt', 'created_at')),
    updatedAt: latest([pick('updatedAt', 'updated_at'), ...(Array.isArray(r.steps) ? r.steps.map((st) => rec(st)?.updated_at) : [])]),
    statusDetails: rec(pick('statusDetails', 'status_details')) ?? null,
    errorDetails: rec(pick('errorDetails', 'error_details')) ?? null,
    steps: Array.isArray(r.steps) ? (r.steps as JobDetails['steps']) : undefined,
    target: pick('target'),
    tasks: pick('tasks'),
    error: str(pick('cause', 'jobError')) ?? null,
    logs: Array.isArray(logs) ? logs.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))) : typeof logs === 'string' ? logs.split('\n') : undefined,
    logsError: str(pick('logsError', 'logs_error')) ?? null,
    results: Array.isArray(r.results) ? r.results.filter((x): x is string => typeof x === 'string') : undefined,
    resultSummary: pick('resultSummary', 'result_summary'),
    resultsError: str(pick('resultsError', 'results_error')) ?? null,
  };
}

/** The latest of ISO timestamps (the platform leaves a job's own updated_at at its creation and
 * moves its steps'). */
function latest(values: unknown[]): string | undefined {
  const times = values.filter((v): v is string => typeof v === 'string' && v !== '');
  return times.sort().at(-1);
}

/** The cause of a failure in one sentence: "RuntimeError: The 'gym' CLI was not found on PATH.
 * Install ..." -> "The 'gym' CLI was not found on PATH." */
export function causeSentence(error: string | null | undefined): string | undefined {
  if (!error) {
    return undefined;
  }
  const text = error.replace(/^(?:[A-Za-z_][\w.]*\.)?(?:[A-Z]\w*)?(?:Error|Exception|Exit):\s*/, '').trim();
  const m = /^(.+?[.!?])(?=\s+[A-Z(]|$)/s.exec(text);
  const sentence = (m ? m[1] : text).replace(/\s+/g, ' ').trim();
  return sentence.length > 300 ? `${sentence.slice(0, 299)}…` : sentence;
}

/** The platform joins a traceback's lines with spaces in its log entries; put them back on
 * their own lines ("Traceback ...:   File "x", line 1, in f     code   RuntimeError: y"). */
export function reflowTraceback(message: string): string {
  const at = message.indexOf('Traceback (most recent call last):');
  if (at < 0 || message.includes('\n')) {
    return message;
  }
  const head = message.slice(0, at);
  let body = message.slice(at);
  body = body.replace(/:\s+(?=File ")/, ':\n  ');
  body = body.replace(/\s{2,}(?=File ")/g, '\n  ');
  body = body.replace(/(, in [^\s]+)\s{2,}(?=\S)/g, '$1\n    ');
  body = body.replace(/\s{2,}(\^[\^~]*)/g, '\n    $1');
  // the exception line: "raise X(  RuntimeError: msg" -> last "Name: " after the frames
  body = body.replace(/\s+((?:[A-Za-z_][\w.]*\.)?[A-Z]\w*(?:Error|Exception|Exit): )(?!.*\s(?:[A-Za-z_][\w.]*\.)?[A-Z]\w*(?:Error|Exception|Exit): )/s, '\n$1');
  return head + body;
}

function when(iso: string | undefined): string | undefined {
  if (!iso) {
    return undefined;
  }
  const d = new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(iso) ? iso : `${iso}Z`);
  return Number.isNaN(d.getTime()) ? iso : `${d.toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC')}`;
}

function indent(text: string, by = '  '): string {
  return text
    .split('\n')
    .map((l) => (l ? by + l : l))
    .join('\n');
}

function json(v: unknown): string {
  return JSON.stringify(v, null, 2);
}

function tasksText(tasks: unknown): string | undefined {
  if (typeof tasks === 'string') {
    return tasks;
  }
  if (Array.isArray(tasks)) {
    const ids = tasks.map((t) => str(rec(t)?.id) ?? (typeof t === 'string' ? t : undefined)).filter(Boolean);
    return `${tasks.length} task${tasks.length === 1 ? '' : 's'}${ids.length ? ` (${ids.slice(0, 8).join(', ')}${ids.length > 8 ? ', …' : ''})` : ''}`;
  }
  return undefined;
}

export interface RenderOptions {
  refreshS?: number;
  /** Only the logs (the "Show Logs" view). */
  logsOnly?: boolean;
  fetchError?: string;
}

export function renderJob(job: JobDetails, options: RenderOptions = {}): string {
  const status = job.status ?? 'unknown';
  const running = !TERMINAL.has(status);
  const out: string[] = [];
  const refresh = running && options.refreshS ? ` · refreshed every ${options.refreshS} s while the job runs` : '';
  out.push(`evalsubmit job ${job.name}${options.logsOnly ? ' — logs' : ''} (read-only${refresh})`);
  if (options.fetchError) {
    out.push('', `Could not read the job: ${options.fetchError}`);
  }
  if (!options.logsOnly) {
    const cause = causeSentence(job.error);
    const platformMessage = str(job.errorDetails?.message) ?? str(job.statusDetails?.message);
    const rows: [string, string | undefined][] = [
      ['Status', `${status}${cause ? ` — ${cause}` : platformMessage ? ` — ${platformMessage}` : ''}`],
      ['Workspace', job.workspace],
      ['Created', when(job.createdAt)],
      ['Updated', when(job.updatedAt)],
      ['Taskset', tasksText(job.tasks)],
      ['URL', job.url],
    ];
    out.push('');
    for (const [k, v] of rows) {
      if (v) {
        out.push(`${k.padEnd(10)} ${v}`);
      }
    }
    if (job.error) {
      out.push('', 'Cause (from the job logs)', indent(job.error));
    }
    const platform: string[] = [];
    if (job.statusDetails && Object.keys(job.statusDetails).length) {
      platform.push(`status_details: ${json(job.statusDetails)}`);
    }
    if (job.errorDetails && Object.keys(job.errorDetails).length) {
      platform.push(`error_details: ${json(job.errorDetails)}`);
    }
    for (const step of job.steps ?? []) {
      const msg = str(rec(step.error_details)?.message) ?? str(rec(step.status_details)?.message);
      platform.push(`step ${step.name ?? '?'}: ${step.status ?? '?'}${msg ? ` — ${msg}` : ''}`);
    }
    if (platform.length) {
      out.push('', 'Platform', indent(platform.join('\n')));
    }
    if (status === 'completed') {
      out.push('', 'Summary (the job\'s "summary" result)');
      if (job.resultSummary !== undefined && job.resultSummary !== null) {
        out.push(indent(json(job.resultSummary)));
      } else {
        out.push(indent(job.resultsError ? `not available: ${job.resultsError}` : 'the job published no summary'));
      }
      if (job.results?.length) {
        out.push(indent(`results: ${job.results.join(', ')}`));
      }
    }
    if (job.target !== undefined && job.target !== null) {
      out.push('', 'Target (as submitted)', indent(json(job.target)));
    }
  }
  const logs = job.logs ?? [];
  out.push('', logs.length ? `Logs (${logs.length} line${logs.length === 1 ? '' : 's'})` : 'Logs');
  if (job.logsError) {
    out.push(indent(`not available: ${job.logsError}`));
  } else if (!logs.length) {
    out.push(indent(job.logs ? 'no log lines yet' : 'this server does not send job logs'));
  } else {
    out.push(...logs.map((l) => indent(reflowTraceback(l))));
  }
  return out.join('\n') + '\n';
}

export function jobUri(job: JobKey, logsOnly = false): string {
  const ws = encodeURIComponent(job.workspace ?? '_');
  const name = encodeURIComponent(job.name);
  return `${JOB_SCHEME}:/${ws}/${name}${logsOnly ? '.logs' : ''}.log`;
}

export function parseJobUri(uri: string): (JobKey & { logsOnly: boolean }) | undefined {
  const m = new RegExp(`^${JOB_SCHEME}:/([^/]+)/([^/]+?)(\\.logs)?\\.log$`).exec(uri);
  if (!m) {
    return undefined;
  }
  const ws = decodeURIComponent(m[1]);
  return { workspace: ws === '_' ? undefined : ws, name: decodeURIComponent(m[2]), logsOnly: !!m[3] };
}

export interface JobViewDeps {
  run: ServerCommandRunner;
  /** Tells VS Code the document's content changed. */
  changed: (uri: string) => void;
  isOpen: (uri: string) => boolean;
  refreshS: () => number;
  /** The Python document whose folder's platform settings the server should use. */
  scopeUri: () => string | undefined;
  log: (line: string) => void;
}

/** Content of the open job documents; refreshes them while their job runs. */
export class JobViews {
  private readonly texts = new Map<string, string>();
  private readonly status = new Map<string, string>();
  /** Per document: the workspace the server found the job in, and the Python document whose
   * folder settings were used when it was opened (the job view itself becomes the active
   * editor, so later reads must not depend on it). */
  private readonly where = new Map<string, { workspace?: string; scope?: string }>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly deps: JobViewDeps) {}

  /** TextDocumentContentProvider.provideTextDocumentContent. */
  async provide(uri: string): Promise<string> {
    const cached = this.texts.get(uri);
    if (cached !== undefined) {
      return cached;
    }
    return this.load(uri);
  }

  /** Reads the job now, stores its text and schedules refreshes while it runs. */
  async load(uri: string): Promise<string> {
    const key = parseJobUri(uri);
    if (!key) {
      return `Not a job: ${uri}\n`;
    }
    const known = this.where.get(uri) ?? { workspace: key.workspace, scope: this.deps.scopeUri() };
    this.where.set(uri, known);
    const arg: Record<string, unknown> = { name: key.name, logs: key.logsOnly ? 1000 : 200 };
    if (known.workspace) {
      arg.workspace = known.workspace;
    }
    if (known.scope) {
      arg.uri = known.scope;
    }
    let text: string;
    try {
      const raw = await this.deps.run(SERVER_COMMANDS.jobStatus, [arg]);
      const failure = str(rec(raw)?.error) && !rec(raw)?.status ? str(rec(raw)?.error) : undefined;
      if (failure) {
        throw new Error(failure);
      }
      const details = jobDetails(key, raw);
      this.status.set(uri, details.status ?? 'unknown');
      known.workspace = details.workspace ?? known.workspace;
      text = renderJob(details, { refreshS: this.deps.refreshS(), logsOnly: key.logsOnly });
    } catch (err) {
      this.deps.log(`Reading job ${key.name} failed: ${errorText(err)}`);
      text = renderJob({ name: key.name, workspace: key.workspace, status: this.status.get(uri) }, { fetchError: errorText(err), logsOnly: key.logsOnly });
    }
    this.texts.set(uri, text);
    this.schedule();
    return text;
  }

  /** The last status read for a job document. */
  lastStatus(uri: string): string | undefined {
    return this.status.get(uri);
  }

  /** Forgets a closed document. */
  closed(uri: string): void {
    this.texts.delete(uri);
    this.status.delete(uri);
    this.where.delete(uri);
  }

  private schedule(): void {
    if (this.timer) {
      return;
    }
    const running = [...this.texts.keys()].filter((u) => !TERMINAL.has(this.status.get(u) ?? ''));
    if (!running.length) {
      return;
    }
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.refresh();
    }, this.deps.refreshS() * 1000);
  }

  /** Re-reads every open document whose job has not ended. */
  async refresh(): Promise<void> {
    for (const uri of [...this.texts.keys()]) {
      if (!this.deps.isOpen(uri)) {
        this.closed(uri);
        continue;
      }
      if (TERMINAL.has(this.status.get(uri) ?? '')) {
        continue;
      }
      const before = this.texts.get(uri);
      const after = await this.load(uri);
      if (after !== before) {
        this.deps.changed(uri);
      }
    }
    this.schedule();
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.texts.clear();
  }
}
