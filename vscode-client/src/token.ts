/** The platform token, kept in VS Code's SecretStorage (the OS keychain in desktop VS Code),
 * never in settings.json. No `vscode` import: the storage comes in as an interface. */
import { Ui } from './ui';

export const TOKEN_KEY = 'evalsubmit.platform.token';

export interface SecretStore {
  get(key: string): PromiseLike<string | undefined>;
  store(key: string, value: string): PromiseLike<void>;
  delete(key: string): PromiseLike<void>;
}

export class PlatformToken {
  private value: string | null = null;

  constructor(private readonly secrets: SecretStore) {}

  /** The token as last loaded (null: none). Synchronous, for the settings the server reads. */
  get current(): string | null {
    return this.value;
  }

  /** Reads the stored token; true when it changed. */
  async load(): Promise<boolean> {
    const stored = (await this.secrets.get(TOKEN_KEY)) ?? null;
    const changed = stored !== this.value;
    this.value = stored && stored.trim() !== '' ? stored : null;
    return changed;
  }

  async set(token: string | null): Promise<void> {
    if (token === null || token.trim() === '') {
      await this.secrets.delete(TOKEN_KEY);
      this.value = null;
    } else {
      await this.secrets.store(TOKEN_KEY, token.trim());
      this.value = token.trim();
    }
  }
}

/** Command "evalsubmit: Set Platform Token": a password box; empty removes the token.
 * Returns 'set', 'removed' or undefined (cancelled). */
export async function setPlatformToken(ui: Ui, token: PlatformToken, baseUrl: string | null): Promise<'set' | 'removed' | undefined> {
  const value = await ui.inputBox({
    title: 'evalsubmit: platform access token',
    prompt: `Token sent as "Authorization: Bearer ..." to ${baseUrl ?? 'the NeMo Platform'}. Stored in VS Code's secret storage, never in settings. Leave empty to remove it.`,
    placeHolder: token.current ? '(a token is set: type a new one, or leave empty to remove it)' : 'token',
    password: true,
  });
  if (value === undefined) {
    return undefined;
  }
  await token.set(value);
  const what = value.trim() === '' ? 'removed' : 'set';
  // not awaited: an information message settles only when it is closed
  void ui.message('info', what === 'set' ? 'evalsubmit: platform token saved in the secret storage.' : 'evalsubmit: platform token removed.');
  return what;
}
