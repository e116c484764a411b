import { describe, expect, it, vi } from 'vitest';
import { SERVER_COMMANDS } from '../src/constants';
import {
  BASE_URL_SETTING,
  OPEN_SETTINGS,
  PlatformSetup,
  SET_URL,
  ensurePlatform,
  sourceWords,
  validateBaseUrl,
} from '../src/platformsetup';
import { JobHistory, executeCommandMiddleware } from '../src/submit';
import { fakeUi } from './fakes';

const DOC = 'file:///ws/evals/run_gym.py';
const UP = 'http://127.0.0.1:8080';

/** A server whose platform answers only at `UP`; the settings start with no URL (SDK default
 * http://localhost:8080, where nothing listens). */
function world(options: { folders?: boolean } = {}) {
  const state = { url: null as string | null, calls: [] as string[] };
  const run = vi.fn(async (command: string, args: unknown[]) => {
    state.calls.push(command);
    if (command === SERVER_COMMANDS.platformInfo) {
      expect(args).toEqual([{ uri: DOC, check: true }]);
      const baseUrl = state.url ?? 'http://localhost:8080';
      return baseUrl === UP
        ? { baseUrl, baseUrlSource: 'evalsubmit setting', reachable: true, tokenSet: false }
        : {
            baseUrl,
            baseUrlSource: state.url ? 'evalsubmit setting' : 'SDK default',
            reachable: false,
            reachError: `Cannot reach the NeMo Platform at ${baseUrl}: connection refused`,
            tokenSet: false,
          };
    }
    if (command === SERVER_COMMANDS.submit) {
      return { job: { name: 'eval-1', workspace: 'qa', status: 'created' } };
    }
    throw new Error(`unexpected ${command}`);
  });
  const setup: PlatformSetup = {
    applyBaseUrl: vi.fn(async (url: string) => {
      state.url = url;
    }),
    openSettings: vi.fn(async () => undefined),
    hasWorkspace: () => options.folders ?? true,
    currentBaseUrl: () => state.url,
  };
  return { state, run, setup };
}

describe('ensurePlatform', () => {
  it('goes on without a word when the platform answers', async () => {
    const w = world();
    w.state.url = UP;
    const f = fakeUi();
    expect(await ensurePlatform({ ui: f.ui, run: w.run, log: () => undefined, platform: w.setup }, DOC)).toBe(true);
    expect(f.messages).toEqual([]);
  });

  it('says no platform answers, takes a URL and a scope, and goes on once it answers', async () => {
    const w = world();
    const f = fakeUi({ choices: [SET_URL], inputs: [`  ${UP}  `], chosen: ['Workspace'] });
    const lines: string[] = [];
    expect(await ensurePlatform({ ui: f.ui, run: w.run, log: (l) => lines.push(l), platform: w.setup }, DOC)).toBe(true);
    expect(f.messages).toHaveLength(1);
    expect(f.messages[0].level).toBe('warning');
    expect(f.messages[0].text).toContain("No NeMo Platform answers at http://localhost:8080 (the SDK's default: nothing is configured)");
    expect(f.messages[0].items).toEqual([SET_URL, OPEN_SETTINGS]);
    expect(f.inputCalls[0].validate?.('localhost:8080')).toBeDefined();
    expect(f.plainPicks[0].items.map((i) => i.label)).toEqual(['User', 'Workspace']);
    expect(w.setup.applyBaseUrl).toHaveBeenCalledWith(UP, 'workspace');
    expect(w.state.calls).toEqual([SERVER_COMMANDS.platformInfo, SERVER_COMMANDS.platformInfo]);
    expect(lines.join('\n')).toContain('connection refused');
    expect(lines.join('\n')).not.toMatch(/local_platform/);
  });

  it('asks again when the URL entered does not answer either', async () => {
    const w = world({ folders: false });
    const f = fakeUi({ choices: [SET_URL, SET_URL], inputs: ['http://127.0.0.1:9999', UP] });
    expect(await ensurePlatform({ ui: f.ui, run: w.run, log: () => undefined, platform: w.setup }, DOC)).toBe(true);
    expect(f.messages[1].text).toContain('http://127.0.0.1:9999 (setting evalsubmit.platform.baseUrl)');
    expect(f.inputCalls[1].value).toBe('http://127.0.0.1:9999'); // starts from what was typed
    expect(f.plainPicks).toEqual([]); // no folder open: the user settings, without asking
    expect(w.setup.applyBaseUrl).toHaveBeenLastCalledWith(UP, 'user');
  });

  it('stops, logged, when the message is dismissed or the input box escaped', async () => {
    for (const script of [{ choices: [undefined] }, { choices: [SET_URL], inputs: [undefined] }, { choices: [SET_URL], inputs: [UP], chosen: [undefined] }]) {
      const w = world();
      const f = fakeUi(script);
      const lines: string[] = [];
      expect(await ensurePlatform({ ui: f.ui, run: w.run, log: (l) => lines.push(l), platform: w.setup }, DOC)).toBe(false);
      expect(w.setup.applyBaseUrl).not.toHaveBeenCalled();
      expect(lines.at(-1)).toMatch(/^Submit cancelled: /);
    }
  });

  it('opens the settings on the URL setting', async () => {
    const w = world();
    const f = fakeUi({ choices: [OPEN_SETTINGS] });
    expect(await ensurePlatform({ ui: f.ui, run: w.run, log: () => undefined, platform: w.setup }, DOC)).toBe(false);
    expect(w.setup.openSettings).toHaveBeenCalledWith(BASE_URL_SETTING);
  });

  it('lets the submission speak when the server cannot check', async () => {
    const f = fakeUi();
    const run = vi.fn(async () => {
      throw new Error('Unhandled method evalsubmit.platformInfo');
    });
    expect(await ensurePlatform({ ui: f.ui, run, log: () => undefined, platform: world().setup }, DOC)).toBe(true);
  });
});

describe('the first submit with no platform', () => {
  it('checks before the taskset, then submits the same call to the URL set', async () => {
    const w = world();
    const f = fakeUi({ choices: [SET_URL, undefined], inputs: [UP], chosen: ['User'] });
    const deps = {
      ui: f.ui,
      run: w.run,
      history: new JobHistory(),
      defaultTaskset: () => null,
      log: () => undefined,
      openJob: vi.fn(async () => undefined),
      platform: w.setup,
    };
    const arg = { uri: DOC, line: 40, character: 8, tasks: 'qa/smoke' };
    const result = await executeCommandMiddleware(deps)(SERVER_COMMANDS.submit, [arg], vi.fn());
    expect(result).toEqual({ job: { name: 'eval-1', workspace: 'qa', status: 'created' } });
    expect(w.state.calls).toEqual([SERVER_COMMANDS.platformInfo, SERVER_COMMANDS.platformInfo, SERVER_COMMANDS.submit]);
    expect(w.run).toHaveBeenLastCalledWith(SERVER_COMMANDS.submit, [{ ...arg, clientReportsOutcome: true }], expect.anything());
  });
});

describe('validateBaseUrl and sourceWords', () => {
  it('accepts http(s) base URLs only, without credentials, query or fragment', () => {
    expect(validateBaseUrl('https://nmp.example.com/base')).toBeUndefined();
    expect(validateBaseUrl(' http://127.0.0.1:8080 ')).toBeUndefined();
    for (const bad of ['', '   ', 'localhost:8080', 'ftp://h', 'http://u:p@h', 'http://h/?a=1', 'http://h/#x', 'not a url']) {
      expect(validateBaseUrl(bad), bad).toBeDefined();
    }
  });
  it('names where a URL came from', () => {
    expect(sourceWords('env NEMO_PLATFORM_BASE_URL')).toBe('environment variable NEMO_PLATFORM_BASE_URL');
    expect(sourceWords('evalsubmit setting')).toBe('setting evalsubmit.platform.baseUrl');
    expect(sourceWords(undefined)).toBe('');
  });
});
