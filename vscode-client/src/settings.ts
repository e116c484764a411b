/**
 * Settings: what the server reads (mirrors the server's pydantic model, section `evalsubmit`) and
 * what only the client reads. Pure functions over a `ConfigReader`, no `vscode` import.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export interface ConfigReader {
  get<T>(key: string): T | undefined;
}

export type Severity = 'error' | 'warning' | 'information' | 'hint';
export type LogLevel = 'error' | 'warning' | 'info' | 'debug';
export type NotificationLevel = 'off' | 'onError' | 'onWarning' | 'always';

export interface PlatformSettings {
  baseUrl: string | null;
  workspace: string | null;
  token: string | null;
  timeoutS: number;
  pollIntervalS: number;
}

/** The server's settings model, field for field (section `evalsubmit`). */
export interface ServerSettings {
  enable: boolean;
  select: string[];
  ignore: string[];
  severity: Record<string, Severity>;
  debounceMs: number;
  logLevel: LogLevel;
  maxFileSizeKb: number;
  defaultTaskset: string | null;
  python: string | null;
  codeLens: { enable: boolean };
  platform: PlatformSettings;
}

export const SERVER_DEFAULTS: ServerSettings = {
  enable: true,
  select: [],
  ignore: [],
  severity: {},
  debounceMs: 200,
  logLevel: 'info',
  maxFileSizeKb: 2048,
  defaultTaskset: null,
  python: null,
  codeLens: { enable: true },
  platform: { baseUrl: null, workspace: null, token: null, timeoutS: 30, pollIntervalS: 2 },
};

/** Dotted keys (below `evalsubmit.`) the server reads. */
export const SERVER_KEYS = [
  'enable',
  'select',
  'ignore',
  'severity',
  'debounceMs',
  'logLevel',
  'maxFileSizeKb',
  'defaultTaskset',
  'python',
  'codeLens.enable',
  'platform.baseUrl',
  'platform.workspace',
  'platform.token',
  'platform.timeoutS',
  'platform.pollIntervalS',
] as const;

/** Server keys that are not settings: the token lives in VS Code's SecretStorage (command
 * "evalsubmit: Set Platform Token"), never in settings.json. */
export const SECRET_KEYS = ['platform.token'] as const;

/** Keys only the client reads. A change of `trace.server` is applied live by vscode-languageclient;
 * a change of `showNotifications` needs no restart. */
export const CLIENT_KEYS = ['interpreter', 'importStrategy', 'trace.server', 'showNotifications'] as const;
const RESTART_KEYS = ['interpreter', 'importStrategy', ...SERVER_KEYS.filter((k) => !SECRET_KEYS.includes(k as never))];

function pick<T>(config: ConfigReader, key: string, fallback: T): T {
  const value = config.get<T>(key);
  return value === undefined ? fallback : value;
}

function emptyToNull(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

/** The object sent to the server as `initializationOptions` and as the answer to
 * `workspace/configuration` for section `evalsubmit`: server keys only, never client ones. The
 * token comes from SecretStorage (`token`), never from the settings. */
export function readServerSettings(config: ConfigReader, token: string | null = null): ServerSettings {
  const d = SERVER_DEFAULTS;
  return {
    enable: pick(config, 'enable', d.enable),
    select: pick(config, 'select', d.select),
    ignore: pick(config, 'ignore', d.ignore),
    severity: pick(config, 'severity', d.severity),
    debounceMs: pick(config, 'debounceMs', d.debounceMs),
    logLevel: pick(config, 'logLevel', d.logLevel),
    maxFileSizeKb: pick(config, 'maxFileSizeKb', d.maxFileSizeKb),
    defaultTaskset: emptyToNull(config.get('defaultTaskset')),
    python: emptyToNull(config.get('python')),
    codeLens: { enable: pick(config, 'codeLens.enable', d.codeLens.enable) },
    platform: {
      baseUrl: emptyToNull(config.get('platform.baseUrl')),
      workspace: emptyToNull(config.get('platform.workspace')),
      token: emptyToNull(token),
      timeoutS: pick(config, 'platform.timeoutS', d.platform.timeoutS),
      pollIntervalS: pick(config, 'platform.pollIntervalS', d.platform.pollIntervalS),
    },
  };
}

/** Settings with the token masked, for logs and the debug view. */
export function redact(settings: ServerSettings): ServerSettings {
  return {
    ...settings,
    platform: { ...settings.platform, token: settings.platform.token ? '***' : null },
  };
}

export function notificationLevel(config: ConfigReader): NotificationLevel {
  const value = config.get<string>('showNotifications');
  return value === 'off' || value === 'onError' || value === 'onWarning' || value === 'always'
    ? value
    : 'onWarning';
}

/** Whether a server message of this kind pops up (it is always written to the log). */
export function shouldNotify(level: NotificationLevel, kind: 'error' | 'warning' | 'info'): boolean {
  switch (level) {
    case 'off':
      return false;
    case 'onError':
      return kind === 'error';
    case 'onWarning':
      return kind === 'error' || kind === 'warning';
    default:
      return true;
  }
}

/** `evalsubmit.importStrategy`: the bundled server (default), or the one installed in the
 * interpreter's environment. */
export function importStrategy(config: ConfigReader): 'useBundled' | 'fromEnvironment' {
  return config.get<string>('importStrategy') === 'fromEnvironment' ? 'fromEnvironment' : 'useBundled';
}

/** `evalsubmit.interpreter`: a path (a text box in the Settings editor). An array (program first,
 * then its arguments, e.g. `["py", "-3"]`), as earlier versions accepted, is still read from
 * settings.json. Empty means "not set". */
export function interpreterSetting(value: unknown): string[] {
  if (typeof value === 'string') {
    return value.trim() === '' ? [] : [value.trim()];
  }
  if (Array.isArray(value)) {
    return value.filter((v): v is string => typeof v === 'string' && v.trim() !== '');
  }
  return [];
}

export interface VariableContext {
  workspaceFolder?: string;
  home?: string;
  env?: Record<string, string | undefined>;
}

/** Substitutes `${workspaceFolder}`, `${userHome}`, `${env:NAME}` and a leading `~`. */
export function substituteVariables(value: string, ctx: VariableContext): string {
  const home = ctx.home ?? os.homedir();
  const env = ctx.env ?? process.env;
  let out = value.replace(/\$\{(workspaceFolder|userHome|env:([A-Za-z_][A-Za-z0-9_]*))\}/g,
    (whole, name: string, envName?: string) => {
      if (name === 'workspaceFolder') {
        return ctx.workspaceFolder ?? whole;
      }
      if (name === 'userHome') {
        return home;
      }
      return env[envName ?? ''] ?? '';
    });
  if (out === '~' || out.startsWith('~/')) {
    out = path.join(home, out.slice(1));
  }
  return out;
}

/** The path settings of the server's section with `${workspaceFolder}`, `${userHome}`,
 * `${env:NAME}` and `~` expanded (the server reads paths as they are), and those that name
 * nothing on disk, as `evalsubmit.KEY: PATH` for a warning. */
export function expandPathSettings(
  settings: ServerSettings,
  ctx: VariableContext,
  exists: (p: string) => boolean = fs.existsSync,
): { settings: ServerSettings; missing: string[] } {
  if (settings.python === null) {
    return { settings, missing: [] };
  }
  const python = substituteVariables(settings.python, ctx);
  const missing = exists(python) ? [] : [`evalsubmit.python: ${python}`];
  return { settings: { ...settings, python }, missing };
}

/** Whether a configuration change needs a server restart. */
export function needsRestart(affects: (key: string) => boolean): boolean {
  return RESTART_KEYS.some((k) => affects(`evalsubmit.${k}`));
}
