import { describe, expect, it, vi } from 'vitest';
import * as vscode from 'vscode';
import { pickOrType } from '../src/vscodeapi';

/** A scriptable stand-in for vscode.window.createQuickPick(). */
function fakeQuickPick() {
  const handlers: Record<string, (v?: any) => void> = {};
  const qp: any = {
    items: [],
    activeItems: [],
    selectedItems: [],
    value: '',
    onDidChangeValue: (h: any) => (handlers.change = h),
    onDidAccept: (h: any) => (handlers.accept = h),
    onDidHide: (h: any) => (handlers.hide = h),
    show: vi.fn(),
    dispose: vi.fn(),
  };
  const type = (value: string) => {
    qp.value = value;
    handlers.change(value);
    qp.activeItems = qp.items.slice(0, 1); // VS Code activates the first (filtered) item
  };
  return { qp, type, accept: () => handlers.accept(), hide: () => handlers.hide() };
}

const items = [{ label: 'qa/smoke-extended' }, { label: 'qa/nightly' }];

describe('pickOrType', () => {
  it('returns a typed reference that is not listed, even when it prefixes a listed one', async () => {
    const f = fakeQuickPick();
    vi.mocked(vscode.window.createQuickPick).mockReturnValue(f.qp);
    const p = pickOrType(items, { title: 't', placeholder: 'p' });
    f.type('qa/smoke');
    expect(f.qp.items[0]).toMatchObject({ label: 'qa/smoke', alwaysShow: true });
    f.accept();
    expect(await p).toBe('qa/smoke');
    expect(f.qp.dispose).toHaveBeenCalled();
  });

  it('returns a listed item chosen with the keyboard, and does not duplicate an exact match', async () => {
    const f = fakeQuickPick();
    vi.mocked(vscode.window.createQuickPick).mockReturnValue(f.qp);
    const p = pickOrType(items, { title: 't', placeholder: 'p' });
    f.type('qa/nightly');
    expect(f.qp.items).toEqual(items);
    f.qp.activeItems = [items[1]];
    f.accept();
    expect(await p).toBe('qa/nightly');
  });

  it('pre-fills the value and resolves undefined when dismissed', async () => {
    const f = fakeQuickPick();
    vi.mocked(vscode.window.createQuickPick).mockReturnValue(f.qp);
    const p = pickOrType(items, { title: 't', placeholder: 'p', value: 'qa/default' });
    expect(f.qp.value).toBe('qa/default');
    expect(f.qp.items[0].label).toBe('qa/default');
    f.hide();
    expect(await p).toBeUndefined();
  });
});
