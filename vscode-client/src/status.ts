/** What the language status items say: the server's state, and the platform submissions go
 * to (its URL and where that came from, whether it answers, whether a token is set). */
import { sourceWords } from './platformsetup';

export type ServerState =
  | 'starting'
  | 'running'
  | 'stopped'
  | 'failed'
  | 'no-python';

export interface PlatformInfo {
  baseUrl?: string;
  workspace?: string;
  source?: string;
  /** Where the workspace comes from, in words ("from the code", "from the evalsubmit settings"). */
  workspaceFrom?: string;
  /** Undefined: not checked yet. */
  reachable?: boolean;
  reachError?: string;
  tokenSet?: boolean;
  tokenSource?: string;
}

export interface StatusView {
  text: string;
  detail: string;
  severity: 'info' | 'warning' | 'error';
  busy: boolean;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const URL_KEYS = ['baseUrl', 'base_url', 'url', 'baseURL'];

/** Finds the platform in a `evalsubmit.debugInfo` result: a `platform` object (at the top or
 * under `settings`) with a base URL and workspace, searched breadth-first. */
export function platformFromDebugInfo(info: unknown): PlatformInfo | undefined {
  const queue: unknown[] = [info];
  let seen = 0;
  while (queue.length > 0 && seen < 200) {
    const node = queue.shift();
    seen++;
    if (!isRecord(node)) {
      continue;
    }
    const platform = node.platform;
    if (isRecord(platform)) {
      const baseUrl = URL_KEYS.map((k) => platform[k]).find((v) => typeof v === 'string') as
        | string
        | undefined;
      const workspace = typeof platform.workspace === 'string' ? platform.workspace : undefined;
      if (baseUrl || workspace) {
        const source = typeof platform.source === 'string' ? platform.source : undefined;
        return { baseUrl, workspace, source };
      }
    }
    for (const v of Object.values(node)) {
      if (isRecord(v)) {
        queue.push(v);
      }
    }
  }
  return undefined;
}

/** The server's `evalsubmit.platformInfo` answer: `{baseUrl, workspace, workspaceSource}` for
 * a document (its code's workspace when the settings, environment and SDK config name none). */
export function platformFromInfo(info: unknown): PlatformInfo | undefined {
  if (!isRecord(info)) {
    return undefined;
  }
  const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
  const baseUrl = text(info.baseUrl);
  const workspace = text(info.workspace);
  if (!baseUrl && !workspace) {
    return undefined;
  }
  const source = text(info.workspaceSource);
  const found: PlatformInfo = { baseUrl, workspace, source: text(info.baseUrlSource), workspaceFrom: source ? `from ${source}` : undefined };
  if (typeof info.reachable === 'boolean') {
    found.reachable = info.reachable;
    found.reachError = text(info.reachError);
  }
  if (typeof info.tokenSet === 'boolean') {
    found.tokenSet = info.tokenSet;
    found.tokenSource = text(info.tokenSource);
  }
  return found;
}

export interface PlatformView {
  text: string;
  detail: string;
  severity: 'info' | 'warning' | 'error';
  busy: boolean;
}

/** The platform status item: the URL and whether it answers as its text; where the URL came
 * from, the token (set or not, never its value) and the workspace as its detail. */
export function platformView(p: PlatformInfo | undefined): PlatformView {
  if (!p?.baseUrl) {
    return { text: 'Platform: unknown', detail: 'the server has not said yet', severity: 'info', busy: p === undefined };
  }
  const reach = p.reachable === undefined ? 'checking…' : p.reachable ? 'reachable' : 'not reachable';
  const parts = [p.source ? `URL from ${sourceWords(p.source)}` : undefined];
  if (p.tokenSet !== undefined) {
    parts.push(p.tokenSet ? `token set${p.tokenSource ? ` (${tokenSourceWords(p.tokenSource)})` : ''}` : 'no token');
  }
  if (p.workspace) {
    parts.push(`workspace ${p.workspace}${p.workspaceFrom ? ` (${p.workspaceFrom})` : ''}`);
  }
  return {
    text: `Platform ${p.baseUrl} · ${reach}`,
    detail: parts.filter(Boolean).join(' · '),
    severity: p.reachable === false ? 'warning' : 'info',
    busy: p.reachable === undefined,
  };
}

/** The server calls a token the client sent its "evalsubmit setting": the client sends only
 * the one kept in VS Code's secret storage (a token in settings.json is ignored). */
function tokenSourceWords(source: string): string {
  return source === 'evalsubmit setting' ? "VS Code's secret storage" : sourceWords(source);
}

export function serverVersion(info: unknown): string | undefined {
  if (!isRecord(info)) {
    return undefined;
  }
  if (typeof info.version === 'string') {
    return info.version;
  }
  const versions = info.versions;
  if (isRecord(versions) && typeof versions.evalsubmit === 'string') {
    return versions.evalsubmit;
  }
  return undefined;
}

export function describePlatform(p: PlatformInfo | undefined): string {
  if (!p || (!p.baseUrl && !p.workspace)) {
    return "Platform: not set (the SDK's environment or config decides)";
  }
  const from = p.workspaceFrom ? ` (${p.workspaceFrom})` : '';
  const ws = p.workspace ? ` · workspace ${p.workspace}${from}` : '';
  return `Platform: ${p.baseUrl ?? '(no base URL)'}${ws}`;
}

export function statusView(
  state: ServerState,
  platform: PlatformInfo | undefined,
  extra?: string,
): StatusView {
  const where = describePlatform(platform);
  switch (state) {
    case 'starting':
      return { text: 'evalsubmit: starting', detail: extra ?? '', severity: 'info', busy: true };
    case 'running':
      return {
        text: `evalsubmit${extra ? ` ${extra}` : ''}`,
        detail: where,
        severity: 'info',
        busy: false,
      };
    case 'stopped':
      return { text: 'evalsubmit: stopped', detail: extra ?? '', severity: 'warning', busy: false };
    case 'no-python':
      return {
        text: 'evalsubmit: no Python',
        detail: extra ?? 'No Python 3.11 or newer was found',
        severity: 'error',
        busy: false,
      };
    default:
      return { text: 'evalsubmit: failed', detail: extra ?? 'See the logs', severity: 'error', busy: false };
  }
}
