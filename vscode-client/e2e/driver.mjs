// Driving code-server's workbench in Chromium: the keyboard and the selectors seen to work in
// VS Code 1.100 (docs: /work/shared/reference/vscode-e2e.md). Used by run.mjs.
import fs from 'node:fs';
import path from 'node:path';

export const mod = process.platform === 'darwin' ? 'Meta' : 'Control';
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export async function waitFor(what, fn, timeoutMs, intervalMs = 250) {
  const end = Date.now() + timeoutMs;
  let last;
  while (Date.now() < end) {
    try {
      last = await fn();
      if (last) return last;
    } catch (e) {
      if (e && e.fatal) throw e;
      last = e;
    }
    await sleep(intervalMs);
  }
  throw new Error(`timed out after ${timeoutMs / 1000}s waiting for ${what}${last instanceof Error ? ` (${last.message})` : ''}`);
}

/** An error that stops a waitFor at once (a wrong notification, not "not yet"). */
export function fatal(message) {
  const e = new Error(message);
  e.fatal = true;
  return e;
}

export function findFiles(dir, name, out = []) {
  if (!fs.existsSync(dir)) return out;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) findFiles(p, name, out);
    else if (e.name === name) out.push(p);
  }
  return out;
}

export class Workbench {
  constructor(page, art) {
    this.page = page;
    this.art = art;
    this.shotNo = 0;
  }

  async shot(name) {
    const file = path.join(this.art, `${String(++this.shotNo).padStart(2, '0')}-${name}.png`);
    await this.page.screenshot({ path: file }).catch(() => undefined);
    return file;
  }

  async escape(n = 2) {
    for (let i = 0; i < n; i++) await this.page.keyboard.press('Escape');
  }

  quickInputVisible() {
    return this.page.locator('.quick-input-widget').isVisible();
  }

  async quickInputTitle() {
    return this.page.locator('.quick-input-widget .quick-input-title').innerText().catch(() => '');
  }

  async quickInputValue() {
    return this.page.locator('.quick-input-widget .quick-input-box input').inputValue().catch(() => '');
  }

  async quickPickRows() {
    return (await this.page.locator('.quick-input-list .monaco-list-row').allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
  }

  /** Opens a workspace file through quick open (again from scratch when the workbench dropped
   * the keystrokes, e.g. right after a restart). */
  async openFile(name) {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.escape();
        await this.page.keyboard.press(`${mod}+KeyP`);
        await waitFor('quick open', () => this.quickInputVisible(), 10_000);
        await this.page.keyboard.type(name, { delay: 20 });
        await waitFor(`"${name}" in quick open`, async () => (await this.quickPickRows()).some((t) => t.includes(name)), 15_000);
        await this.page.keyboard.press('Enter');
        await waitFor(`editor tab ${name}`, async () => (await this.page.locator('.tab.active').allInnerTexts()).some((t) => t.includes(name)), 15_000);
        // a text editor, or a notebook's cell editors (the notebook editor is no .editor-instance)
        await this.page.locator('.editor-instance .monaco-editor .view-lines:visible, .notebook-editor .monaco-editor .view-lines:visible').first().waitFor({ timeout: 10_000 });
        await sleep(300);
        return;
      } catch (error) {
        if (attempt >= 3) throw error;
        console.log(`[e2e] opening ${name} again (attempt ${attempt + 1}): ${error.message}`);
        await sleep(1000);
      }
    }
  }

  async goto(line, column) {
    await this.escape(1);
    await this.page.keyboard.press(`${mod}+KeyG`);
    await waitFor('go to line', () => this.quickInputVisible(), 10_000);
    await this.page.keyboard.type(`${line}:${column}`, { delay: 20 });
    await this.page.keyboard.press('Enter');
    await sleep(300);
  }

  /** Runs the command whose palette label is exactly `title` (not one that merely starts so). */
  async command(title) {
    await this.escape();
    await this.page.keyboard.press(`${mod}+Shift+KeyP`);
    await waitFor('command palette', () => this.quickInputVisible(), 10_000);
    await this.page.keyboard.type(title, { delay: 15 });
    const index = await waitFor(`command "${title}"`, async () => {
      const rows = await this.quickPickRows();
      // a row is the title, maybe followed by "recently used" / "other commands" / a keybinding
      const i = rows.findIndex((t) => t === title || (t.startsWith(`${title} `) && !/^[a-z]/i.test(t.slice(title.length + 1)) ) || /^(recently used|other commands|similar commands)/i.test(t.slice(title.length).trim()) && t.startsWith(title));
      return i >= 0 ? i + 1 : undefined;
    }, 15_000);
    for (let k = 1; k < index; k++) await this.page.keyboard.press('ArrowDown');
    await this.page.keyboard.press('Enter');
  }

  /** The text of the active editor's rendered lines (only what is in view). */
  async editorText() {
    const lines = await this.page.locator('.editor-instance .monaco-editor .view-lines').first().innerText();
    return lines.replace(/\u00a0/g, ' ');
  }

  async editorLines() {
    return (await this.page.locator('.editor-instance .monaco-editor .view-line').allInnerTexts()).map((l) => l.replace(/\u00a0/g, ' '));
  }

  /** How many times the active editor contains `text` (its find widget's count), whatever is in view. */
  async countInEditor(text) {
    await this.page.keyboard.press(`${mod}+KeyF`);
    const input = this.page.locator('.editor-instance .find-widget textarea, .editor-instance .find-widget input').first();
    await input.waitFor({ timeout: 10_000 });
    await input.fill(text);
    await sleep(400);
    const count = (await this.page.locator('.editor-instance .find-widget .matchesCount').innerText().catch(() => '')).trim();
    await this.page.keyboard.press('Escape');
    const m = /of (\d+)/.exec(count);
    return m ? Number(m[1]) : 0;
  }

  async squiggles(kind = 'error') {
    return this.page.locator(`.editor-instance .monaco-editor .squiggly-${kind}`).count();
  }

  async toasts() {
    return (await this.page.locator('.notifications-toasts .notification-toast').allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
  }

  /** Visible notifications with their buttons. */
  async toastsWithButtons() {
    const toasts = this.page.locator('.notifications-toasts .notification-toast');
    const out = [];
    for (let i = 0; i < (await toasts.count()); i++) {
      const t = toasts.nth(i);
      const text = (await t.locator('.notification-list-item-message').innerText().catch(() => '')).replace(/\s+/g, ' ').trim();
      const buttons = (await t.locator('.notification-list-item-buttons-container .monaco-button').allInnerTexts()).map((b) => b.trim());
      const progress = await t.locator('.monaco-progress-container.active, .progress-bit').count().then((n) => n > 0).catch(() => false);
      out.push({ text, buttons, progress });
    }
    return out;
  }

  async clickToastButton(textPattern, button) {
    const toast = this.page.locator('.notifications-toasts .notification-toast', { hasText: textPattern }).first();
    await toast.hover();
    await toast.locator('.notification-list-item-buttons-container .monaco-button', { hasText: button }).first().click();
  }

  async clearNotifications() {
    await this.escape();
    await this.command('Notifications: Clear All Notifications').catch(() => undefined);
    await sleep(300);
  }

  /** Closes the active editor; fails if VS Code asks whether to save it. */
  async closeEditorExpectingNoDialog() {
    await this.page.keyboard.press(`${mod}+KeyW`);
    await sleep(500);
    if (await this.page.locator('.monaco-dialog-box').isVisible().catch(() => false)) {
      const text = await this.page.locator('.monaco-dialog-box').innerText();
      await this.page.keyboard.press('Escape');
      throw new Error(`closing the editor asked: ${text.replace(/\s+/g, ' ')}`);
    }
  }

  /** Clicks a boolean setting's checkbox in the Settings editor, as a user would; its state after. */
  async toggleBoolSetting(id, label) {
    await this.escape();
    await this.page.keyboard.press(`${mod}+Comma`);
    const search = this.page.locator('.settings-editor .suggest-input-container textarea, .settings-editor .suggest-input-container input').first();
    await search.waitFor({ timeout: 20_000 });
    await sleep(500);
    await this.page.keyboard.press(`${mod}+KeyA`);
    await this.page.keyboard.type(id, { delay: 10 });
    await waitFor('the filtered settings list', async () => !(await this.page.locator('.settings-editor .setting-item', { hasText: /Font Size/ }).isVisible()), 20_000);
    const box = this.page.locator('.settings-editor .setting-item-bool', { hasText: label }).locator('.setting-value-checkbox').first();
    await box.waitFor({ timeout: 20_000 });
    const before = await box.getAttribute('aria-checked');
    await box.click();
    await waitFor(`the ${id} checkbox toggled`, async () => (await box.getAttribute('aria-checked')) !== before, 10_000);
    await sleep(300);
    return (await box.getAttribute('aria-checked')) === 'true';
  }

  /** Sets a string setting in the Settings editor's text box, as a user would. */
  async setTextSetting(id, label, value) {
    await this.escape();
    await this.page.keyboard.press(`${mod}+Comma`);
    const search = this.page.locator('.settings-editor .suggest-input-container textarea, .settings-editor .suggest-input-container input').first();
    await search.waitFor({ timeout: 20_000 });
    await sleep(500);
    await this.page.keyboard.type(id, { delay: 10 });
    const item = this.page.locator('.settings-editor .setting-item', { hasText: label });
    const input = item.locator('input.input, textarea.input').first();
    await input.waitFor({ timeout: 20_000 });
    await waitFor('the filtered settings list', async () => !(await this.page.locator('.settings-editor .setting-item', { hasText: /Font Size/ }).isVisible()), 20_000);
    await input.fill(value);
    await input.press('Tab');
    await sleep(300);
    return item;
  }
}
