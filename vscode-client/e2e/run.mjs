// Drives code-server in headless Chromium (playwright-core + Debian's chromium) and checks the
// evalsubmit extension end to end. Started by scripts/vscode-e2e.sh, which starts code-server.
//   node run.mjs --port N --work DIR --artifacts DIR
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';

const args = Object.fromEntries(
  process.argv.slice(2).reduce((acc, a, i, all) => (a.startsWith('--') ? [...acc, [a.slice(2), all[i + 1]]] : acc), []),
);
const port = Number(args.port);
const work = args.work;
const art = args.artifacts;
const wsDir = path.join(work, 'workspace');
const env = process.env;
const platformUrl = env.EVALSUBMIT_E2E_PLATFORM_URL;
const platformWs = env.EVALSUBMIT_E2E_WORKSPACE || 'qa';
const taskset = (() => {
  const t = env.EVALSUBMIT_E2E_TASKSET || 'smoke';
  return t.includes('/') ? t : `${platformWs}/${t}`;
})();
const isMac = false;
const mod = isMac ? 'Meta' : 'Control';

const results = [];
const t0 = Date.now();
const log = (msg) => console.log(`[e2e +${((Date.now() - t0) / 1000).toFixed(1)}s] ${msg}`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function waitFor(what, fn, timeoutMs, intervalMs = 250) {
  const end = Date.now() + timeoutMs;
  let last;
  while (Date.now() < end) {
    try {
      last = await fn();
      if (last) return last;
    } catch (e) {
      last = e;
    }
    await sleep(intervalMs);
  }
  throw new Error(`timed out after ${timeoutMs / 1000}s waiting for ${what}${last instanceof Error ? ` (${last.message})` : ''}`);
}

function findFiles(dir, name, out = []) {
  if (!fs.existsSync(dir)) return out;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) findFiles(p, name, out);
    else if (e.name === name) out.push(p);
  }
  return out;
}

/** The extension's LogOutputChannel file (VS Code writes it under <user-data>/logs). */
function extensionLog() {
  return findFiles(path.join(work, 'user-data', 'logs'), 'evalsubmit.log')
    .map((f) => fs.readFileSync(f, 'utf8'))
    .join('\n');
}

/** 1-based line and column of `needle` in a workspace file (column of its first character). */
function position(file, needle, occurrence = 0) {
  const lines = fs.readFileSync(path.join(wsDir, file), 'utf8').split('\n');
  let seen = 0;
  for (let i = 0; i < lines.length; i++) {
    const col = lines[i].indexOf(needle);
    if (col >= 0 && seen++ === occurrence) return { line: i + 1, column: col + 1 };
  }
  throw new Error(`${needle} not in ${file}`);
}

let page;
let shotNo = 0;
let submittedJob;
async function shot(name) {
  const file = path.join(art, `${String(++shotNo).padStart(2, '0')}-${name}.png`);
  await page.screenshot({ path: file }).catch(() => undefined);
  return file;
}

async function step(name, fn) {
  log(`step ${name}`);
  const started = Date.now();
  try {
    const detail = await fn();
    if (detail && detail.skipped) {
      results.push({ name, status: 'skipped', detail: detail.skipped });
      log(`SKIP ${name}: ${detail.skipped}`);
    } else {
      results.push({ name, status: 'passed', seconds: (Date.now() - started) / 1000, detail });
      log(`PASS ${name} (${((Date.now() - started) / 1000).toFixed(1)}s)${detail ? `: ${detail}` : ''}`);
    }
  } catch (err) {
    await shot(`${name}-FAILED`);
    results.push({ name, status: 'failed', error: String(err?.message ?? err) });
    log(`FAIL ${name}: ${err?.message ?? err}`);
  }
}

async function pressEscape(n = 2) {
  for (let i = 0; i < n; i++) await page.keyboard.press('Escape');
}

async function quickInputVisible() {
  return page.locator('.quick-input-widget').isVisible();
}

async function openFile(name) {
  // Quick open can lose the keystrokes while the workbench is busy (a restart, the Settings
  // editor closing): try again from scratch rather than fail the step.
  for (let attempt = 1; ; attempt++) {
    try {
      await openFileOnce(name);
      return;
    } catch (error) {
      if (attempt >= 3) throw error;
      console.log(`[e2e] opening ${name} again (attempt ${attempt + 1}): ${error.message}`);
      await sleep(1000);
    }
  }
}

async function openFileOnce(name) {
  await pressEscape();
  await page.keyboard.press(`${mod}+KeyP`);
  await waitFor('quick open', quickInputVisible, 10_000);
  await page.keyboard.type(name, { delay: 20 });
  await waitFor(`"${name}" in quick open`, async () =>
    (await page.locator('.quick-input-list .monaco-list-row').allInnerTexts()).some((t) => t.includes(name)), 15_000);
  await page.keyboard.press('Enter');
  await waitFor(`editor tab ${name}`, async () =>
    (await page.locator('.tab.active').allInnerTexts()).some((t) => t.includes(name)), 15_000);
  await page.locator('.editor-instance .monaco-editor .view-lines').first().waitFor({ timeout: 10_000 });
  await sleep(300);
}

async function gotoPosition(line, column) {
  await pressEscape(1);
  await page.keyboard.press(`${mod}+KeyG`);
  await waitFor('go to line', quickInputVisible, 10_000);
  await page.keyboard.type(`${line}:${column}`, { delay: 20 });
  await page.keyboard.press('Enter');
  await sleep(300);
}

async function runCommand(title) {
  await pressEscape();
  await page.keyboard.press(`${mod}+Shift+KeyP`);
  await waitFor('command palette', quickInputVisible, 10_000);
  await page.keyboard.type(title, { delay: 15 });
  await waitFor(`command "${title}"`, async () =>
    (await page.locator('.quick-input-list .monaco-list-row').allInnerTexts()).some((t) => t.includes(title)), 15_000);
  await page.keyboard.press('Enter');
}

async function editorText() {
  const lines = await page.locator('.editor-instance .monaco-editor .view-lines').first().innerText();
  return lines.replace(/\u00a0/g, ' ');
}

async function toasts() {
  return (await page.locator('.notifications-toasts .notification-toast').allInnerTexts()).map((t) => t.replace(/\s+/g, ' '));
}

async function main() {
  fs.mkdirSync(art, { recursive: true });
  const profile = path.join(work, 'profile');
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    viewport: { width: 1440, height: 900 },
    args: [
      '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
  try {
    page = context.pages()[0] ?? (await context.newPage());
    page.setDefaultTimeout(30_000);
    await page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(wsDir)}`);
    await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    await page.locator('.statusbar').waitFor({ timeout: 60_000 });
    await sleep(1500);
    await page.locator('.monaco-workbench').click({ position: { x: 700, y: 450 } }).catch(() => undefined);

    await step('activation', async () => {
      await openFile('mixed_shape.py');
      const text = await waitFor('"Server running" in the evalsubmit log', async () => {
        const t = extensionLog();
        if (/not installed|failed to start|was not found/.test(t)) throw new Error(t.split('\n').slice(-8).join('\n'));
        return /Server running/.test(t) ? t : undefined;
      }, 90_000, 500);
      await shot('activation');
      const python = (text.match(/Python for the server[^\n]*/) || [''])[0];
      return python;
    });

    await step('language-status', async () => {
      const item = page.locator('[id="status.languageStatus"], .statusbar-item:has(.codicon-json)').first();
      await item.waitFor({ timeout: 20_000 });
      const text = await waitFor('the evalsubmit language status', async () => {
        await item.hover();
        const h = page.locator('.monaco-hover:visible, .context-view:visible');
        const t = (await h.allInnerTexts()).join(' ').replace(/\s+/g, ' ');
        const want = platformUrl ? t.includes(platformUrl.replace(/\/$/, '')) : /Platform:/.test(t);
        return /evalsubmit/.test(t) && want ? t : undefined;
      }, 30_000, 1000);
      await shot('language-status');
      await page.mouse.move(700, 450);
      return text.slice(text.indexOf('evalsubmit'), text.indexOf('evalsubmit') + 120);
    });

    await step('debug-info', async () => {
      await runCommand('evalsubmit: Debug Info');
      const text = await waitFor('the debug info document', async () => {
        const t = await editorText().catch(() => '');
        return /"client"/.test(t) && /"server"/.test(t) ? t : undefined;
      }, 30_000, 500);
      await shot('debug-info');
      await page.keyboard.press(`${mod}+KeyW`);
      await sleep(300);
      // an untitled document asks whether to save: don't
      if (await page.locator('.monaco-dialog-box').isVisible().catch(() => false)) {
        await page.keyboard.press('Alt+KeyN').catch(() => undefined);
        const dont = page.locator('.monaco-dialog-box .monaco-button', { hasText: /Don.t Save/ });
        if (await dont.isVisible().catch(() => false)) await dont.click();
      }
      const versions = text.match(/"evalsubmit":\s*"[^"]*"/);
      return versions ? versions[0] : 'client and server sections present';
    });

    await step('squiggle-mixed-shape', async () => {
      const pos = position('mixed_shape.py', 'submit(');
      await gotoPosition(pos.line, pos.column);
      await waitFor('.squiggly-error in the editor', async () =>
        (await page.locator('.editor-instance .monaco-editor .squiggly-error').count()) > 0, 60_000);
      await shot('squiggle-mixed-shape');
      // The Problems panel names the rule (code, message) for the record.
      await page.keyboard.press(`${mod}+Shift+KeyM`);
      const problems = await waitFor('a problem in the Problems panel', async () => {
        const rows = await page.locator('.markers-panel .monaco-list-row').allInnerTexts();
        return rows.find((r) => /evalsubmit|ES1\d\d/i.test(r));
      }, 20_000);
      await shot('problems-panel');
      await page.keyboard.press(`${mod}+Shift+KeyM`);
      return problems.replace(/\s+/g, ' ').slice(0, 160);
    });

    await step('hover-target-json', async () => {
      const pos = position('mixed_shape.py', 'GymAgentTaskRunner(');
      await gotoPosition(pos.line, pos.column + 2);
      const hover = await waitFor('hover with "kind": "gym"', async () => {
        await page.keyboard.press(`${mod}+KeyK`);
        await page.keyboard.press(`${mod}+KeyI`);
        const h = page.locator('.monaco-hover:visible');
        await h.first().waitFor({ timeout: 5000 });
        const t = (await h.allInnerTexts()).join('\n').replace(/\u00a0/g, ' ');
        return /"kind":\s*"gym"/.test(t) ? t : undefined;
      }, 60_000, 1000);
      await shot('hover-target-json');
      await pressEscape();
      return hover.split('\n').find((l) => l.includes('"kind"'))?.trim();
    });

    await step('quick-fix-row-option', async () => {
      await openFile('row_option.py');
      const pos = position('row_option.py', 'config=RunConfig');
      await gotoPosition(pos.line, pos.column + 1);
      await waitFor('a squiggle on the config= line', async () =>
        (await page.locator('.editor-instance .monaco-editor .squiggly-error, .editor-instance .monaco-editor .squiggly-warning').count()) > 0, 60_000);
      const picked = await waitFor('an ES102 quick fix in the action widget', async () => {
        await pressEscape(1);
        await page.keyboard.press(`${mod}+Period`);
        await page.locator('.action-widget').waitFor({ timeout: 5000 });
        const rows = page.locator('.action-widget .monaco-list-row.action');
        const texts = await rows.allInnerTexts();
        const i = texts.findIndex((t) => /remove/i.test(t) && /config/i.test(t));
        const j = i >= 0 ? i : texts.findIndex((t) => /ES102|remove/i.test(t));
        return j >= 0 ? { index: j, texts } : undefined;
      }, 60_000, 1000);
      await shot('quick-fix-menu');
      for (let k = 0; k < picked.index; k++) await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Enter');
      await waitFor('config=RunConfig gone from the editor', async () => !(await editorText()).includes('config=RunConfig'), 15_000);
      await shot('quick-fix-applied');
      return picked.texts[picked.index].replace(/\s+/g, ' ');
    });

    await step('restart-server', async () => {
      const count = () => (extensionLog().match(/Server running/g) || []).length;
      const before = count();
      await runCommand('evalsubmit: Restart Server');
      await waitFor('a second "Server running" in the log', async () => count() > before, 60_000, 500);
      await openFile('mixed_shape.py');
      await waitFor('diagnostics again after the restart', async () =>
        (await page.locator('.editor-instance .monaco-editor .squiggly-error').count()) > 0, 60_000);
      await shot('restart-server');
      return `server started ${count()} times`;
    });

    await step('settings-change-restart', async () => {
      const count = () => (extensionLog().match(/Server running/g) || []).length;
      const before = count();
      // change evalsubmit.debounceMs in the Settings editor, as a user would
      await pressEscape();
      await page.keyboard.press(`${mod}+Comma`);
      const search = page.locator('.settings-editor .suggest-input-container textarea, .settings-editor .suggest-input-container input').first();
      await search.waitFor({ timeout: 20_000 });
      await sleep(500); // the search box has the focus once the editor is open
      await page.keyboard.type('evalsubmit.debounceMs', { delay: 10 });
      // wait for the search to filter the list down to the setting (its label is "Debounce Ms")
      const input = page.locator('.settings-editor .setting-item-number', { hasText: /Debounce Ms/ }).locator('input').first();
      await input.waitFor({ timeout: 20_000 });
      await waitFor('the filtered settings list', async () =>
        !(await page.locator('.settings-editor .setting-item', { hasText: /Font Size/ }).isVisible()), 20_000);
      await input.fill('60');
      await input.press('Tab');
      await shot('settings-editor');
      await waitFor('"Settings changed" and a new "Server running" in the log', async () =>
        /Settings changed: restarting the server/.test(extensionLog()) && count() > before, 60_000, 500);
      await openFile('mixed_shape.py');
      await waitFor('diagnostics again after the restart', async () =>
        (await page.locator('.editor-instance .monaco-editor .squiggly-error').count()) > 0, 60_000);
      return 'evalsubmit.debounceMs changed in the Settings editor: server restarted';
    });

    await step('submit-evaluation', async () => {
      if (!platformUrl) {
        return { skipped: 'EVALSUBMIT_E2E_PLATFORM_URL is not set (set it, or run scripts/vscode-e2e.sh --with-platform)' };
      }
      await openFile('submit_ok.py');
      // On the runner construction the taskset is not in the code: the command asks for it.
      const pos = position('submit_ok.py', 'GymAgentTaskRunner(');
      await gotoPosition(pos.line, pos.column + 2);
      await runCommand('evalsubmit: Submit Evaluation');
      await waitFor('the taskset prompt', async () => {
        const title = await page.locator('.quick-input-widget .quick-input-title').innerText().catch(() => '');
        return (await quickInputVisible()) && /taskset/i.test(title);
      }, 30_000);
      // the quick pick lists the platform's tasksets (evalsubmit.listTasksets)
      await waitFor(`${taskset} listed in the quick pick`, async () =>
        (await page.locator('.quick-input-list .monaco-list-row').allInnerTexts()).some((t) => t.includes(taskset)), 20_000);
      await page.keyboard.type(taskset, { delay: 15 });
      await shot('submit-taskset-prompt');
      await page.keyboard.press('Enter');
      const seen = new Set();
      const toast = await waitFor('a notification naming the job', async () => {
        for (const t of await toasts()) {
          if (!seen.has(t)) {
            seen.add(t);
            log(`notification: ${t.slice(0, 200)}`);
          }
          if (/not submitted|not available|refused|could not|failed:/i.test(t)) throw new Error(`notification: ${t}`);
        }
        // the client's notification for the command's result (progress toasts also name the job)
        return [...seen].find((t) => /Submitted evaluation job \S+/.test(t));
      }, 120_000, 500);
      await shot('submit-notification');
      const m = toast.match(/Submitted evaluation job (\S+?)[.,]?(?:\s|$)/);
      if (!m) throw new Error(`no job name in "${toast}"`);
      const name = m[1];
      const url = `${platformUrl.replace(/\/$/, '')}/apis/evaluator/v2/workspaces/${encodeURIComponent(taskset.split('/')[0])}/agent-evaluate/jobs/${encodeURIComponent(name)}`;
      const res = await fetch(url);
      if (res.status !== 200) throw new Error(`GET ${url} -> ${res.status}`);
      const job = await res.json();
      submittedJob = name;
      return `job ${name} exists on the platform (status ${job.status})`;
    });

    await step('show-job', async () => {
      if (!submittedJob) {
        return { skipped: 'no job was submitted' };
      }
      await pressEscape();
      await runCommand('evalsubmit: Show Job');
      await waitFor('the job prompt', quickInputVisible, 15_000);
      await sleep(300);
      await page.keyboard.press('Enter');
      const text = await waitFor('the job status document', async () => {
        for (const t of await toasts()) {
          if (/Could not read job/.test(t)) throw new Error(t);
        }
        const t = await editorText().catch(() => '');
        return t.includes(`Job: ${submittedJob}`) && /Status: /.test(t) ? t : undefined;
      }, 60_000, 500);
      await shot('show-job');
      return (text.match(/Status: .*/) || [''])[0];
    });

    await step('code-lens-submit', async () => {
      if (!submittedJob) {
        return { skipped: 'no job was submitted by the command' };
      }
      await pressEscape();
      await page.locator('.notifications-toasts .codicon-notifications-clear').first().click().catch(() => undefined);
      await openFile('submit_ok.py');
      const lenses = page.locator('.codelens-decoration a', { hasText: /Submit evaluation/i });
      const found = await waitFor('a "Submit evaluation" code lens', async () => (await lenses.count()) > 0, 30_000).catch(() => false);
      if (!found) {
        return { skipped: 'the server shows no "Submit evaluation" code lens in submit_ok.py' };
      }
      // the topmost lens: the one above the runner construction, whose taskset is not in the code,
      // so the client's executeCommand middleware asks for it
      const boxes = await lenses.evaluateAll((els) => els.map((e) => e.getBoundingClientRect().y));
      const top = boxes.indexOf(Math.min(...boxes));
      await shot('code-lens');
      await lenses.nth(top).click();
      const prompted = await waitFor('the taskset prompt', async () => {
        const title = await page.locator('.quick-input-widget .quick-input-title').innerText().catch(() => '');
        return (await quickInputVisible()) && /taskset/i.test(title);
      }, 15_000).catch(() => false);
      if (!prompted) {
        throw new Error('the code lens on the runner did not ask for the taskset');
      }
      await page.keyboard.type(taskset, { delay: 15 });
      await page.keyboard.press('Enter');
      const toast = await waitFor('a notification naming a new job', async () => {
        for (const t of await toasts()) {
          if (/not submitted|not available|refused|could not|failed:/i.test(t)) throw new Error(`notification: ${t}`);
        }
        return (await toasts()).find((t) => /Submitted evaluation job \S+/.test(t) && !t.includes(`job ${submittedJob} `));
      }, 120_000, 500);
      await shot('code-lens-notification');
      return `prompted for the taskset; ${toast.match(/Submitted evaluation job \S+/)[0]}`;
    });

    await step('no-duplicate-commands', async () => {
      // after two restarts, the language client re-registered the server's commands each time
      const logs = findFiles(path.join(work, 'user-data', 'logs'), 'exthost.log')
        .concat(findFiles(path.join(work, 'user-data', 'logs'), 'remoteexthost.log'))
        .map((f) => fs.readFileSync(f, 'utf8'))
        .join('\n');
      const dup = logs.match(/command '[^']*' already exists/);
      if (dup) throw new Error(dup[0]);
      return 'no "command already exists" in the extension host logs';
    });
  } finally {
    await context.close().catch(() => undefined);
  }
}

try {
  await main();
} catch (err) {
  results.push({ name: 'harness', status: 'failed', error: String(err?.stack ?? err) });
  log(`harness error: ${err?.stack ?? err}`);
}
fs.writeFileSync(path.join(art, 'results.json'), JSON.stringify(results, null, 2));
const count = (s) => results.filter((r) => r.status === s).length;
const tail = extensionLog().split('\n').slice(-40).join('\n');
fs.writeFileSync(path.join(art, 'evalsubmit-extension.log'), extensionLog());
if (count('failed') > 0) {
  console.log('--- last lines of the evalsubmit log ---\n' + tail);
}
console.log(`vscode-e2e: ${count('passed')} passed, ${count('failed')} failed, ${count('skipped')} skipped`);
process.exit(count('failed') > 0 ? 1 : 0);
