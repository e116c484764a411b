/** The check before a submission: when no platform answers at the URL in effect, say so first,
 * and offer to set the URL (saved to the user or workspace settings) or open the settings; once
 * set, the same submission carries on. No `vscode` import here. */
import { CLIENT_COMMANDS, SERVER_COMMANDS } from './constants';
import { ServerCommandRunner, Ui, errorText } from './ui';

export const SET_URL = 'Set Platform URL';
export const OPEN_SETTINGS = 'Open Settings';
export const BASE_URL_SETTING = 'evalsubmit.platform.baseUrl';

export type SettingScope = 'user' | 'workspace';

export interface PlatformSetup {
  /** Writes `evalsubmit.platform.baseUrl` in `scope`, and resolves once the server uses it. */
  applyBaseUrl(url: string, scope: SettingScope): Promise<void>;
  openSettings(query: string): PromiseLike<unknown>;
  /** Whether a folder is open (otherwise only the user settings can be written). */
  hasWorkspace(): boolean;
  /** The URL in the settings now, to start the input box from. */
  currentBaseUrl(): string | null;
}

export interface CheckDeps {
  ui: Ui;
  run: ServerCommandRunner;
  log: (line: string) => void;
  platform?: PlatformSetup;
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** An error message for a base URL the platform client would refuse, else undefined. */
export function validateBaseUrl(value: string): string | undefined {
  const v = value.trim();
  if (v === '') {
    return "Enter the platform's base URL, e.g. http://127.0.0.1:8080";
  }
  let url: URL;
  try {
    url = new URL(v);
  } catch {
    return `Not a URL: ${v} (expected e.g. https://nmp.example.com)`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return 'The URL must start with http:// or https://';
  }
  if (url.username || url.password) {
    return 'Leave credentials out of the URL: use "evalsubmit: Set Platform Token" for the token';
  }
  if (url.search || url.hash) {
    return 'The base URL takes no query (?…) or fragment (#…)';
  }
  return undefined;
}

/** Where a base URL came from, in words, as the server names it (`platform/config.py`). */
export function sourceWords(source: string | undefined): string {
  if (!source) {
    return '';
  }
  if (source === 'SDK default') {
    return "the SDK's default: nothing is configured";
  }
  if (source === 'evalsubmit setting') {
    return `setting ${BASE_URL_SETTING}`;
  }
  return source.startsWith('env ') ? `environment variable ${source.slice(4)}` : source;
}

/** Asks the server whether a platform answers for the document `uri`; when none does, tells
 * the user and offers to set the URL. Resolves true to go on with the submission, false when
 * the user gave up (logged). A server without the check lets the submission tell. */
export async function ensurePlatform(deps: CheckDeps, uri: string): Promise<boolean> {
  const setup = deps.platform;
  if (!setup) {
    return true;
  }
  for (;;) {
    let info: Record<string, unknown> | undefined;
    try {
      info = record(await deps.run(SERVER_COMMANDS.platformInfo, [{ uri, check: true }]));
    } catch (err) {
      deps.log(`Checking the platform failed: ${errorText(err)}`);
      return true;
    }
    if (!info || info.reachable !== false) {
      return true;
    }
    const url = text(info.baseUrl) ?? '(no URL)';
    const from = sourceWords(text(info.baseUrlSource));
    deps.log(`No NeMo Platform answers at ${url}: ${text(info.reachError) ?? 'no reason given'}`);
    const choice = await deps.ui.message(
      'warning',
      `No NeMo Platform answers at ${url}${from ? ` (${from})` : ''}. Set the platform's URL to submit this evaluation.`,
      SET_URL,
      OPEN_SETTINGS,
    );
    if (choice === OPEN_SETTINGS) {
      await setup.openSettings(BASE_URL_SETTING);
    }
    if (choice !== SET_URL) {
      deps.log(`Submit cancelled: no platform answers at ${url}.`);
      return false;
    }
    if (!(await setPlatformUrl(deps.ui, setup, deps.log))) {
      deps.log('Submit cancelled: no platform URL set.');
      return false;
    }
  }
}

/** Command Set Platform URL (and the check's offer): an input box, validated, then the
 * settings scope; resolves true once the server uses the URL, false when the user gave up. */
export async function setPlatformUrl(ui: Ui, setup: PlatformSetup, log: (line: string) => void): Promise<boolean> {
  const entered = await ui.inputBox({
    title: 'NeMo Platform URL',
    prompt: `Base URL of the NeMo Platform that evaluations are submitted to (saved in ${BASE_URL_SETTING})`,
    placeHolder: 'http://127.0.0.1:8080',
    value: setup.currentBaseUrl() ?? '',
    validateInput: validateBaseUrl,
  });
  if (entered === undefined || validateBaseUrl(entered) !== undefined) {
    return false;
  }
  const scope = await chooseScope(ui, setup);
  if (scope === undefined) {
    return false;
  }
  const value = entered.trim();
  log(`Platform URL set to ${value} in the ${scope} settings.`);
  await ui.withProgress(`evalsubmit: using the platform at ${value}…`, () => setup.applyBaseUrl(value, scope));
  return true;
}

async function chooseScope(ui: Ui, setup: PlatformSetup): Promise<SettingScope | undefined> {
  if (!setup.hasWorkspace()) {
    return 'user';
  }
  const items: { label: string; description: string; scope: SettingScope }[] = [
    { label: 'User', description: 'every workspace of this VS Code profile', scope: 'user' },
    { label: 'Workspace', description: 'this workspace only (.vscode/settings.json)', scope: 'workspace' },
  ];
  const chosen = await ui.pick(items, { title: 'Save the platform URL in', placeholder: 'Settings scope' });
  return chosen?.scope;
}

/** The platform status item's menu: what can be done about where submissions go. */
export function platformActions(p: { baseUrl?: string; tokenSet?: boolean } | undefined): { label: string; description: string; command: string }[] {
  return [
    { label: SET_URL, description: p?.baseUrl ? `now ${p.baseUrl}` : '', command: CLIENT_COMMANDS.setPlatformUrl },
    {
      label: 'Set Platform Token',
      description: p?.tokenSet === undefined ? '' : p.tokenSet ? 'a token is set' : 'no token is set',
      command: CLIENT_COMMANDS.setPlatformToken,
    },
    { label: 'Show Logs', description: '', command: CLIENT_COMMANDS.showLogs },
  ];
}
