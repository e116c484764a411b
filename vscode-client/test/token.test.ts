import { describe, expect, it } from 'vitest';
import { PlatformToken, TOKEN_KEY, setPlatformToken } from '../src/token';
import { fakeUi } from './fakes';

function secrets() {
  const map = new Map<string, string>();
  return {
    store_: map,
    get: async (k: string) => map.get(k),
    store: async (k: string, v: string) => void map.set(k, v),
    delete: async (k: string) => void map.delete(k),
  };
}

describe('the platform token', () => {
  it('is set in the secret storage, trimmed, and removed with an empty entry', async () => {
    const s = secrets();
    const token = new PlatformToken(s as never);
    const f = fakeUi({ inputs: ['  tok-123 ', ''] });
    expect(await setPlatformToken(f.ui, token, 'http://p')).toBe('set');
    expect(s.store_.get(TOKEN_KEY)).toBe('tok-123');
    expect(token.current).toBe('tok-123');
    expect(f.messages[0].text).not.toContain('tok-123');
    expect(await setPlatformToken(f.ui, token, 'http://p')).toBe('removed');
    expect(s.store_.has(TOKEN_KEY)).toBe(false);
    expect(token.current).toBeNull();
  });

  it('asks in a password box, and does nothing when cancelled', async () => {
    const s = secrets();
    const token = new PlatformToken(s as never);
    const f = fakeUi({ inputs: [undefined] });
    expect(await setPlatformToken(f.ui, token, null)).toBeUndefined();
    expect(f.ui.inputBox).toHaveBeenCalledWith(expect.objectContaining({ password: true }));
    expect(f.messages).toHaveLength(0);
  });

  it('load() reports a change made elsewhere (another window)', async () => {
    const s = secrets();
    const token = new PlatformToken(s as never);
    expect(await token.load()).toBe(false);
    s.store_.set(TOKEN_KEY, 'x');
    expect(await token.load()).toBe(true);
    expect(token.current).toBe('x');
  });
});
