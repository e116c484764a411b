// Drives code-server in headless Chromium (playwright-core + Debian's chromium) and checks the
// evalsubmit extension end to end, as a new user meets it: installed into a fresh profile with
// no evalsubmit.* setting and no evalsubmit in any Python on PATH. Started by
// scripts/vscode-e2e.sh, which starts code-server (and the platform).
//   node run.mjs --port N --work DIR --artifacts DIR
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { Workbench, fatal, findFiles, mod, sleep, waitFor } from './driver.mjs';

const args = Object.fromEntries(
  process.argv.slice(2).reduce((acc, a, i, all) => (a.startsWith('--') ? [...acc, [a.slice(2), all[i + 1]]] : acc), []),
);
const port = Number(args.port);
const work = args.work;
const art = args.artifacts;
const wsDir = path.join(work, 'workspace');
const userSettingsFile = path.join(work, 'user-data', 'User', 'settings.json');
const env = process.env;
const platformUrl = env.EVALSUBMIT_E2E_PLATFORM_URL;
const platformWs = env.EVALSUBMIT_E2E_WORKSPACE || 'qa';
const completedJob = env.EVALSUBMIT_E2E_COMPLETED_JOB;
const taskset = (() => {
  const t = env.EVALSUBMIT_E2E_TASKSET || 'smoke';
  return t.includes('/') ? t : `${platformWs}/${t}`;
})();
const TYPING_SECONDS = Number(env.EVALSUBMIT_E2E_TYPING_S || 60);

const results = [];
const t0 = Date.now();
const log = (msg) => console.log(`[e2e +${((Date.now() - t0) / 1000).toFixed(1)}s] ${msg}`);

/** The extension's LogOutputChannel file (VS Code writes it under <user-data>/logs). */
function extensionLog() {
  return findFiles(path.join(work, 'user-data', 'logs'), 'evalsubmit.log')
    .map((f) => fs.readFileSync(f, 'utf8'))
    .join('\n');
}
const serverStarts = () => (extensionLog().match(/Server running/g) || []).length;

function userSettings() {
  return fs.readFileSync(userSettingsFile, 'utf8');
}

/** 1-based line and column of `needle` in a workspace file. */
function position(file, needle, occurrence = 0) {
  const lines = fs.readFileSync(path.join(wsDir, file), 'utf8').split('\n');
  let seen = 0;
  for (let i = 0; i < lines.length; i++) {
    const col = lines[i].indexOf(needle);
    if (col >= 0 && seen++ === occurrence) return { line: i + 1, column: col + 1 };
  }
  throw new Error(`${needle} not in ${file}`);
}

let wb;
let page;
const state = {};
const venvDir = path.join(wsDir, '.venv');
const cleanBin = `${path.join(work, 'clean-python', 'bin')}${path.sep}`;

function restrictedIndicator() {
  return page.locator('.statusbar-item', { hasText: 'Restricted Mode' });
}

/** Opens "evalsubmit: Debug Info" and counts each needle in it (whatever is in view), then closes it. */
async function debugInfoCounts(needles) {
  await wb.command('evalsubmit: Debug Info');
  await waitFor('the debug info document', async () => {
    const t = await wb.editorText().catch(() => '');
    return /"client"/.test(t) && /"server"/.test(t);
  }, 30_000, 500);
  const counts = {};
  for (const [key, needle] of Object.entries(needles)) counts[key] = await wb.countInEditor(needle);
  await wb.closeEditorExpectingNoDialog();
  return counts;
}

const only = env.EVALSUBMIT_E2E_STEPS ? new Set(env.EVALSUBMIT_E2E_STEPS.split(',')) : undefined;

async function step(name, fn, needs) {
  if (only && !only.has(name)) {
    results.push({ name, status: 'skipped', detail: 'not selected (EVALSUBMIT_E2E_STEPS)' });
    return;
  }
  if (needs && !state[needs]) {
    results.push({ name, status: 'skipped', detail: `needs ${needs}` });
    log(`SKIP ${name}: needs ${needs}`);
    return;
  }
  log(`step ${name}`);
  const started = Date.now();
  try {
    const detail = await fn();
    if (detail && detail.skipped) {
      results.push({ name, status: 'skipped', detail: detail.skipped });
      log(`SKIP ${name}: ${detail.skipped}`);
    } else {
      const seconds = (Date.now() - started) / 1000;
      results.push({ name, status: 'passed', seconds, detail });
      log(`PASS ${name} (${seconds.toFixed(1)}s)${detail ? `: ${detail}` : ''}`);
    }
  } catch (err) {
    await wb.shot(`${name}-FAILED`);
    if (env.EVALSUBMIT_E2E_PAUSE_ON_FAILURE) {
      // for debugging: time to look at the live processes (py-spy dump, ...)
      log(`FAIL ${name}: pausing ${env.EVALSUBMIT_E2E_PAUSE_ON_FAILURE} s`);
      await sleep(Number(env.EVALSUBMIT_E2E_PAUSE_ON_FAILURE) * 1000);
    }
    results.push({ name, status: 'failed', error: String(err?.message ?? err) });
    log(`FAIL ${name}: ${err?.message ?? err}`);
  }
}

/** Waits until a squiggle of `kind` appears (or, with gone, disappears) in the active editor. */
async function waitSquiggle(what, timeoutMs = 60_000, { kind = 'error', gone = false } = {}) {
  return waitFor(what, async () => ((await wb.squiggles(kind)) > 0) !== gone, timeoutMs, 100);
}

/** Waits for a notification matching `pattern`, failing at once on an unexpected error one. */
async function waitToast(what, pattern, { timeoutMs = 120_000, seen = new Set(), bad = /not submitted|could not|failed to start/i } = {}) {
  return waitFor(what, async () => {
    for (const t of await wb.toastsWithButtons()) {
      const key = `${t.text} [${t.buttons.join('|')}]`;
      if (!seen.has(key)) {
        seen.add(key);
        log(`notification: ${key.slice(0, 240)}`);
      }
      if (bad && bad.test(t.text) && !pattern.test(t.text)) throw fatal(`notification: ${t.text}`);
      if (pattern.test(t.text)) return t;
    }
    return undefined;
  }, timeoutMs, 200);
}

async function languageStatusText() {
  const item = page.locator('[id="status.languageStatus"], .statusbar-item:has(.codicon-json)').first();
  await item.waitFor({ timeout: 20_000 });
  await item.hover();
  const h = page.locator('.monaco-hover:visible, .context-view:visible');
  return (await h.allInnerTexts()).join(' ').replace(/\s+/g, ' ');
}

/** The notebook cell (its row in the notebook editor) whose text contains `needle`. */
function notebookCell(needle) {
  return page.locator('.notebook-editor .code-cell-row:visible', { hasText: needle }).first();
}

/** Scrolls the notebook until the cell holding `needle` is rendered (the notebook editor renders
 * only the cells in view): down first, then back up. */
async function revealCell(needle) {
  const row = notebookCell(needle);
  const list = page.locator('.notebook-editor .cell-list-container:visible, .notebook-editor .monaco-list:visible').first();
  for (let i = 0; i < 16; i++) {
    if ((await row.count()) > 0 && (await row.locator('.view-line').count()) > 0) {
      await row.scrollIntoViewIfNeeded().catch(() => undefined);
      await sleep(300);
      return row;
    }
    const box = await list.boundingBox();
    if (box) await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.wheel(0, i < 8 ? 300 : -300);
    await sleep(250);
  }
  throw new Error(`the cell with "${needle}" is not shown`);
}

/** Clicks in a notebook cell's editor on `needle` (plus `offset` characters): the cursor is there. */
async function clickInCell(cellRow, needle, offset = 0) {
  const line = cellRow.locator('.view-line', { hasText: needle }).first();
  const span = line.locator(':scope > span').first();
  await span.scrollIntoViewIfNeeded();
  const box = await span.boundingBox();
  const text = (await span.innerText()).replace(/\u00a0/g, ' ');
  const at = text.indexOf(needle) + offset;
  if (!box || at < offset) throw new Error(`"${needle}" is not shown in the cell`);
  const width = box.width / Math.max(text.length, 1); // a monospace font
  await page.mouse.click(box.x + width * (at + 0.5), box.y + box.height / 2);
  await sleep(300);
}

async function cellSquiggles(cellRow) {
  return cellRow.locator('.squiggly-error, .squiggly-warning').count();
}

/** Shows the hover at the cursor, again, until its text passes `accept` (the first hover may
 * come before the analysis it describes): that text. */
async function hoverUntil(what, accept) {
  return waitFor(what, async () => {
    await page.keyboard.press(`${mod}+KeyK`);
    await page.keyboard.press(`${mod}+KeyI`);
    const h = page.locator('.monaco-hover:visible');
    await h.first().waitFor({ timeout: 5000 });
    const t = (await h.allInnerTexts()).join('\n').replace(/\u00a0/g, ' ');
    return accept(t) ? t : undefined;
  }, 60_000, 1000);
}

/** Opens the quick fixes (after `ready`, which puts the cursor back on the finding) until the
 * ES102 "remove config=" fix is listed: its index and every row offered. */
async function es102Fix(what, ready) {
  return waitFor(what, async () => {
    await ready();
    await page.keyboard.press(`${mod}+Period`);
    await page.locator('.action-widget').waitFor({ timeout: 5000 });
    const texts = await page.locator('.action-widget .monaco-list-row.action').allInnerTexts();
    const i = texts.findIndex((t) => /ES102/.test(t) && /remove/i.test(t) && /config/.test(t));
    return i >= 0 ? { index: i, texts } : undefined;
  }, 60_000, 1000);
}

async function main() {
  fs.mkdirSync(art, { recursive: true });
  const context = await chromium.launchPersistentContext(path.join(work, 'profile'), {
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
    wb = new Workbench(page, art);
    await page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(wsDir)}`);
    await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    await page.locator('.statusbar').waitFor({ timeout: 60_000 });
    await sleep(1500);

    // Workspace Trust is on: VS Code asks at once, as a new user sees it. The answer is "No":
    // the steps up to trust-workspace run in Restricted Mode.
    await step('trust-prompt', async () => {
      const dialog = page.locator('.monaco-dialog-box');
      await waitFor('the Workspace Trust dialog', () => dialog.isVisible(), 60_000, 300);
      const text = (await dialog.innerText()).replace(/\s+/g, ' ').trim();
      if (!/trust the authors/i.test(text)) throw new Error(`another dialog: ${text}`);
      await wb.shot('trust-prompt');
      await dialog.locator('.monaco-button', { hasText: /No, I don.t trust/ }).first().click();
      await waitFor('the dialog closed', async () => !(await dialog.isVisible()), 10_000);
      await waitFor('"Restricted Mode" in the status bar', async () => (await restrictedIndicator().count()) > 0, 20_000, 300);
      state.restricted = true;
      return `"${text.slice(0, 100)}…" answered "No, I don't trust the authors"; the status bar says Restricted Mode`;
    });
    await page.locator('.monaco-workbench').click({ position: { x: 700, y: 450 } }).catch(() => undefined);

    await step('first-install', async () => {
      // (EVALSUBMIT_E2E_TRACE, for debugging, adds evalsubmit.trace.server: the LSP traffic in the log)
      if (/"evalsubmit\.(?!trace\.server)/.test(userSettings())) throw new Error('the profile is not clean: it has evalsubmit.* settings');
      await wb.openFile('mixed_shape.py');
      const pos = position('mixed_shape.py', 'submit(');
      await wb.goto(pos.line, pos.column);
      const seen = new Set();
      let progressShot = false;
      const started = Date.now();
      await waitFor('diagnostics from the bundled server, with no notification answered', async () => {
        for (const t of await wb.toastsWithButtons()) {
          const key = `${t.text} [${t.buttons.join('|')}]`;
          if (!seen.has(key)) {
            seen.add(key);
            log(`notification: ${key}`);
          }
          if (t.buttons.length > 0) throw fatal(`a notification asks the user something: ${key}`);
          if (/installing the language server/.test(t.text) && !progressShot) {
            progressShot = true;
            await wb.shot('first-install-progress');
          }
        }
        const t = extensionLog();
        if (/needs Python 3.11|could not be set up|failed to start/.test(t)) throw fatal(t.split('\n').slice(-12).join('\n'));
        return (await wb.squiggles('error')) > 0;
      }, 180_000, 200);
      const seconds = (Date.now() - started) / 1000;
      await wb.shot('first-install-diagnostics');
      const text = extensionLog();
      const server = (text.match(/Server: bundled evalsubmit [^\n]*/) || [])[0];
      if (!server) throw new Error(`the log does not say the bundled server runs:\n${text.split('\n').slice(-15).join('\n')}`);
      if (!server.includes(path.join('globalStorage', 'evalsubmit.evalsubmit', 'server'))) throw new Error(`not the private venv: ${server}`);
      if (!server.includes(path.join(work, 'clean-python'))) throw new Error(`not made from the clean PATH's Python: ${server}`);
      const installed = (text.match(/Server installed in \S+ in ([\d.]+) s/) || [])[1];
      state.installed = true;
      return `squiggle ${seconds.toFixed(1)} s after opening (install ${installed} s), ${seen.size} notification(s), none asking; ${server.replace(/ in \/\S+/, '')}`;
    });

    await step('restricted-mode', async () => {
      const text = extensionLog();
      const lines = text.split('\n').filter((l) => /Restricted Mode:/.test(l));
      if (lines.length !== 1) throw new Error(`expected one "Restricted Mode:" line, got ${lines.length}:\n${lines.join('\n')}`);
      if (!/the workspace values of evalsubmit\.importStrategy are ignored until the workspace is trusted/.test(lines[0])) {
        throw new Error(`the line does not name the ignored workspace setting (.vscode/settings.json sets evalsubmit.importStrategy): ${lines[0]}`);
      }
      // the bundled server runs (first-install saw its diagnostics), but the workspace's .venv
      // is neither run nor read: the user's Python on PATH stands for the environment
      if (text.includes(venvDir)) throw new Error(`the workspace's .venv is in the log before trust:\n${text.split('\n').filter((l) => l.includes(venvDir)).join('\n')}`);
      const reads = (text.match(/Installed packages are read from [^\n]*/) || [])[0] ?? '';
      if (!reads.includes(cleanBin)) throw new Error(`not the PATH's Python: ${reads || '(no "Installed packages are read from" line)'}`);
      const counts = await debugInfoCounts({
        pathPython: `"interpreter": "${cleanBin}`,
        venv: `"interpreter": "${venvDir}`,
        oldSdk: '"nemo-platform": "0.0.1"',
      });
      if (counts.pathPython < 1 || counts.venv > 0 || counts.oldSdk > 0) throw new Error(`the server's environment before trust: ${JSON.stringify(counts)}`);
      await wb.openFile('mixed_shape.py');
      await waitSquiggle('diagnostics in Restricted Mode');
      return `${lines[0].replace(/^.*Restricted Mode:/, 'Restricted Mode:')}; ${reads.slice(0, 120)}; Debug Info: environment ${cleanBin}*, no .venv, no nemo-platform 0.0.1`;
    }, 'restricted');

    await step('trust-workspace', async () => {
      const before = serverStarts();
      await wb.command('Workspaces: Manage Workspace Trust');
      const editor = page.locator('.workspace-trust-editor');
      await editor.waitFor({ timeout: 20_000 });
      const button = editor.locator('.monaco-button').filter({ hasText: /^\s*Trust( Folder| Workspace)?\s*$/ }).first();
      await button.waitFor({ timeout: 10_000 });
      await wb.shot('trust-editor');
      await button.click();
      await waitFor('"The workspace is trusted now" in the log', async () =>
        /The workspace is trusted now: restarting the server with its settings and environment\./.test(extensionLog()), 30_000, 300);
      await waitFor('the server running again', async () => serverStarts() > before, 60_000, 300);
      await waitFor('no "Restricted Mode" in the status bar', async () => (await restrictedIndicator().count()) === 0, 20_000, 300);
      await wb.shot('trusted');
      await wb.escape();
      await page.keyboard.press(`${mod}+KeyW`); // the trust editor
      state.trusted = true;
      return `trusted in the Workspace Trust editor; "The workspace is trusted now: restarting ..." logged; server started ${serverStarts() - before} more time(s)`;
    }, 'restricted');

    await step('workspace-venv', async () => {
      const venvPython = path.join(venvDir, 'bin', 'python');
      const reads = await waitFor('the server reading the .venv', async () => {
        const l = extensionLog().split('\n').filter((x) => /Installed packages are read from/.test(x)).pop();
        return l && l.includes(`environment ${venvPython} `) ? l : undefined;
      }, 30_000, 300);
      await wb.openFile('mixed_shape.py');
      await waitSquiggle('diagnostics with the .venv');
      // the .venv's nemo-platform 0.0.1: ES111's note on the first SDK import (line 1)
      await wb.goto(1, 8);
      const hover = await hoverUntil('the ES111 note about the .venv\'s nemo-platform 0.0.1', (t) => /0\.0\.1 is installed: results may differ/.test(t));
      await wb.shot('workspace-venv-es111');
      await wb.escape();
      const counts = await debugInfoCounts({ venv: `"interpreter": "${venvPython}"`, oldSdk: '"nemo-platform": "0.0.1"' });
      if (counts.venv < 1 || counts.oldSdk < 1) throw new Error(`Debug Info does not show the .venv read: ${JSON.stringify(counts)}`);
      return `${reads.replace(/^.*Installed/, 'Installed').slice(0, 140)}; hover: ${hover.split('\n').find((l) => /0\.0\.1/.test(l))?.trim()}; Debug Info: environment ${venvPython} with nemo-platform 0.0.1`;
    }, 'trusted');

    await step('language-status', async () => {
      const text = await waitFor('the evalsubmit language status', async () => {
        const t = await languageStatusText();
        return /evalsubmit \d/.test(t) && /Platform:/.test(t) ? t : undefined;
      }, 30_000, 1000);
      await wb.shot('language-status');
      await page.mouse.move(700, 450);
      return text.slice(text.indexOf('evalsubmit'), text.indexOf('evalsubmit') + 140);
    }, 'installed');

    await step('debug-info-read-only', async () => {
      await wb.command('evalsubmit: Debug Info');
      const text = await waitFor('the debug info document', async () => {
        const t = await wb.editorText().catch(() => '');
        return /"client"/.test(t) && /"server"/.test(t) ? t : undefined;
      }, 30_000, 500);
      await wb.shot('debug-info');
      // evalsubmit.python is empty: the server reads the user's Python (the clean PATH's), sent
      // as its `python` setting, not the private venv the bundled server runs in
      const venv = (extensionLog().match(/Server: bundled evalsubmit \S+ in (\S+), made from/) || [])[1];
      if (!venv) throw new Error('no "Server: bundled evalsubmit ... in <venv>" line in the log');
      // the user's environment: the workspace's .venv once trusted, else the PATH's Python
      const user = state.trusted ? `${path.join(venvDir, 'bin')}${path.sep}` : cleanBin;
      const counts = {
        sent: await wb.countInEditor(`"python": "${user}`), // the client's settings and the server's
        environment: await wb.countInEditor(`"interpreter": "${user}`), // the server's environments
        privateSent: await wb.countInEditor(`"python": "${venv}`),
        privateEnvironment: await wb.countInEditor(`"interpreter": "${venv}`),
      };
      await wb.closeEditorExpectingNoDialog();
      if (counts.sent < 2 || counts.environment < 1 || counts.privateSent + counts.privateEnvironment > 0) {
        throw new Error(`the server's environment is not the user's Python ${user}*: ${JSON.stringify(counts)}`);
      }
      return `${(text.match(/"source": "[^"]*"/) || ['?'])[0]}; environment ${user}* (python sent ${counts.sent}x), not the private venv; closed without a save prompt`;
    }, 'installed');

    await step('squiggle-problems', async () => {
      await wb.openFile('mixed_shape.py');
      await waitSquiggle('.squiggly-error in mixed_shape.py');
      await page.keyboard.press(`${mod}+Shift+KeyM`);
      const problem = await waitFor('a problem in the Problems panel', async () =>
        (await page.locator('.markers-panel .monaco-list-row').allInnerTexts()).find((r) => /ES1\d\d/.test(r)), 20_000);
      await wb.shot('problems-panel');
      await page.keyboard.press(`${mod}+Shift+KeyM`);
      return problem.replace(/\s+/g, ' ').slice(0, 160);
    }, 'installed');

    await step('hover-target-json', async () => {
      const pos = position('mixed_shape.py', 'GymAgentTaskRunner(');
      await wb.goto(pos.line, pos.column + 2);
      const hover = await hoverUntil('hover with "kind": "gym"', (t) => /"kind":\s*"gym"/.test(t));
      await wb.shot('hover-target-json');
      await wb.escape();
      return hover.split('\n').find((l) => l.includes('"kind"'))?.trim();
    }, 'installed');

    await step('hover-several-targets', async () => {
      await wb.openFile('several_targets.py');
      const pos = position('several_targets.py', 'submit(');
      await wb.goto(pos.line, pos.column + 2);
      const hover = await hoverUntil('hover with 2 different targets', (t) => /2 different targets/.test(t) && /"tool_agent"/.test(t));
      await wb.shot('hover-several-targets');
      await wb.escape();
      const where = hover.split('\n').filter((l) => /when .*launch\(\).* is called at line/.test(l));
      if (where.length !== 2) throw new Error(`expected where each target comes from, got: ${hover.slice(0, 600)}`);
      return where.map((l) => l.trim()).join(' | ');
    }, 'installed');

    await step('quick-fix-row-option', async () => {
      await wb.openFile('row_option.py');
      const pos = position('row_option.py', 'config=RunConfig');
      await wb.goto(pos.line, pos.column + 1);
      await waitFor('a squiggle on the config= line', async () => (await wb.squiggles('error')) + (await wb.squiggles('warning')) > 0, 60_000);
      const picked = await es102Fix('the ES102 quick fix in the action widget', () => wb.escape(1));
      await wb.shot('quick-fix-menu');
      for (let k = 0; k < picked.index; k++) await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Enter');
      await waitFor('config=RunConfig gone from the editor', async () => !(await wb.editorText()).includes('config=RunConfig'), 15_000);
      await wb.shot('quick-fix-applied');
      return picked.texts.map((t) => t.replace(/\s+/g, ' ').trim()).join(' | ');
    }, 'installed');

    await step('notebook', async () => {
      await wb.openFile('evaluate.ipynb');
      await page.locator('.notebook-editor .code-cell-row:visible').first().waitFor({ timeout: 30_000 });
      const mistaken = notebookCell('config=RunConfig');
      await waitFor('a squiggle in the ES102 cell', async () => (await cellSquiggles(mistaken)) > 0, 90_000, 300);
      await sleep(1000); // every cell's diagnostics have arrived by now
      const total = await page.locator('.notebook-editor .code-cell-row:visible').locator('.squiggly-error, .squiggly-warning').count();
      const inCell = await cellSquiggles(mistaken);
      if (total !== inCell) throw new Error(`${total - inCell} squiggle(s) outside the ES102 cell (the %pip and ! cells are not Python)`);
      await wb.shot('notebook-diagnostic');
      // hover the runner where the submit cell uses it (defined three cells above)
      const submitCell = await revealCell('job = client.evaluator.submit');
      await clickInCell(submitCell, 'target=runner', 'target='.length + 2);
      const hover = await hoverUntil('hover with "kind": "gym" in the cell', (t) => /"kind":\s*"gym"/.test(t) && /"agent":\s*"simple_agent"/.test(t));
      await wb.shot('notebook-hover');
      await wb.escape();
      // the ES102 quick fix, applied in its cell
      await revealCell('config=RunConfig');
      const picked = await es102Fix('the ES102 quick fix in the cell', async () => {
        // (Escape would leave the cell's editor: click into it again instead)
        if (await page.locator('.action-widget').isVisible()) await page.keyboard.press('Escape');
        await clickInCell(mistaken, 'config=RunConfig', 1);
      });
      await wb.shot('notebook-quick-fix-menu');
      for (let k = 0; k < picked.index; k++) await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Enter');
      await waitFor('config=RunConfig gone from the notebook', async () => !(await page.locator('.notebook-editor .code-cell-row:visible').allInnerTexts()).join('\n').includes('config=RunConfig'), 15_000);
      const fixed = notebookCell('qa/nightly');
      await waitFor('the fixed cell without squiggles', async () => (await cellSquiggles(fixed)) === 0, 30_000, 300);
      await wb.shot('notebook-quick-fix-applied');
      state.notebook = true;
      const json = hover.split('\n').find((l) => l.includes('"agent"'))?.trim();
      return `ES102 squiggle only in its cell (${inCell}); hover in the submit cell: ${json}; fix: ${picked.texts[picked.index].replace(/\s+/g, ' ').trim()}`;
    }, 'installed');

    await step('restart-server', async () => {
      const before = serverStarts();
      await wb.command('evalsubmit: Restart Server');
      await waitFor('a new "Server running" in the log', async () => serverStarts() > before, 60_000, 500);
      await wb.openFile('mixed_shape.py');
      await waitSquiggle('diagnostics again after the restart');
      const wrong = extensionLog().match(/^.*\[error\].*exited with code 0.*$/im);
      if (wrong) throw new Error(`a normal restart is logged as an error: ${wrong[0]}`);
      return `server started ${serverStarts()} times; the stop is logged as "${(extensionLog().match(/The server (stopped for a restart|stopped\.|process exited)[^\n]*/) || ['(no exit line)'])[0]}"`;
    }, 'installed');

    await step('settings-change-restart', async () => {
      const before = serverStarts();
      await wb.escape();
      await page.keyboard.press(`${mod}+Comma`);
      const search = page.locator('.settings-editor .suggest-input-container textarea, .settings-editor .suggest-input-container input').first();
      await search.waitFor({ timeout: 20_000 });
      await sleep(500);
      await page.keyboard.type('evalsubmit', { delay: 10 });
      await waitFor('the evalsubmit settings', async () => (await page.locator('.settings-editor .setting-item-title').allInnerTexts()).some((t) => /Interpreter/.test(t)), 20_000);
      await sleep(500);
      const titles = (await page.locator('.settings-editor .setting-item-title').allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
      await wb.shot('settings-editor');
      const first = titles.slice(0, 4).join(' | ');
      if (!/Interpreter/.test(titles[0] ?? '') || titles.some((t) => /Token/.test(t))) throw new Error(`settings order/token: ${titles.join(' | ')}`);
      const textBoxes = await page.locator('.settings-editor .setting-item-contents:has-text("Interpreter") input.input').count();
      if (textBoxes < 1) throw new Error('evalsubmit.interpreter is not a text box');
      await wb.escape();
      await page.keyboard.press(`${mod}+KeyA`);
      await page.keyboard.type('evalsubmit.debounceMs', { delay: 10 });
      const input = page.locator('.settings-editor .setting-item-number', { hasText: /Debounce Ms/ }).locator('input').first();
      await input.waitFor({ timeout: 20_000 });
      await input.fill('60');
      await input.press('Tab');
      await waitFor('"Settings changed" and a new "Server running" in the log', async () =>
        /Settings changed: restarting the server/.test(extensionLog()) && serverStarts() > before, 60_000, 500);
      await wb.openFile('mixed_shape.py');
      await waitSquiggle('diagnostics again after the restart');
      return `first settings: ${first}; debounceMs changed: server restarted`;
    }, 'installed');

    await step('typing', async () => {
      await wb.openFile('typing.py');
      await page.keyboard.press(`${mod}+End`);
      const startLine = fs.readFileSync(path.join(wsDir, 'typing.py'), 'utf8').split('\n').length;
      const lines = [
        'extra = client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=runner)',
        'other = client.evaluator.submit(metric=m, dataset=rows)',
        'third = GymAgentTaskRunner(config=GymRuntimeConfig(agent="a", agent_config="c.yaml", resources_server="mcqa"))',
        'print(extra, other, third)',
      ];
      const starts = serverStarts();
      const started = Date.now();
      let chars = 0;
      let typedLines = 0;
      let hovers = 0;
      let actions = 0;
      while (Date.now() - started < TYPING_SECONDS * 1000) {
        const line = lines[typedLines % lines.length];
        await page.keyboard.type(line, { delay: 25 });
        await page.keyboard.press('Enter');
        chars += line.length + 1;
        typedLines++;
        if (typedLines % 3 === 0) {
          // what a user does between lines: look at a hover, open the quick fixes, go back
          await page.keyboard.press('ArrowUp');
          await page.keyboard.press('Home');
          await page.keyboard.press(`${mod}+KeyK`);
          await page.keyboard.press(`${mod}+KeyI`);
          hovers++;
          await sleep(150);
          await page.keyboard.press('Escape');
          await page.keyboard.press(`${mod}+Period`);
          actions++;
          await sleep(150);
          await page.keyboard.press('Escape');
          await page.keyboard.press('ArrowDown');
          await page.keyboard.press('End');
          await page.keyboard.press(`${mod}+End`);
        }
        if (typedLines % 8 === 0) {
          // delete the block just typed, keeping the file small (edits that remove lines)
          for (let k = 0; k < 8; k++) await page.keyboard.press('Shift+ArrowUp');
          await page.keyboard.press('Delete');
        }
      }
      const typingSeconds = (Date.now() - started) / 1000;
      // the end: everything typed goes, then a mixed-shape call must be flagged promptly
      await page.keyboard.press(`${mod}+End`);
      await wb.goto(startLine, 1);
      await page.keyboard.press(`${mod}+Shift+End`);
      await page.keyboard.press('Delete');
      await waitSquiggle('no error left after deleting the typed lines', 30_000, { gone: true });
      const bad = 'bad = client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=runner, metric=m, dataset=rows)';
      await page.keyboard.type(bad, { delay: 10 });
      const typedAt = Date.now();
      await waitSquiggle('a squiggle on the mixed-shape call typed last (the server still answers)', 20_000);
      const latency = Date.now() - typedAt;
      await wb.shot('typing-end-diagnostics');
      await page.keyboard.press('Home');
      await page.keyboard.press('Shift+End');
      await page.keyboard.press('Delete');
      const removedAt = Date.now();
      await waitSquiggle('the squiggle gone once the call is deleted', 20_000, { gone: true });
      const latency2 = Date.now() - removedAt;
      if (serverStarts() !== starts) throw new Error('the server restarted while typing');
      if (/Server process exited|exited with code [1-9]/.test(extensionLog().split('Settings changed').pop() ?? '')) throw new Error('the server process died while typing');
      await wb.command('File: Revert File'); // leave typing.py as it was on disk
      return `${typingSeconds.toFixed(0)} s of typing (${chars} chars, ${typedLines} lines, ${hovers} hovers, ${actions} quick-fix menus); then a new error flagged in ${latency} ms and cleared in ${latency2} ms`;
    }, 'installed');

    await step('select-interpreter', async () => {
      const before = serverStarts();
      await wb.command('evalsubmit: Select Interpreter');
      const rows = await waitFor('the interpreter picker', async () => {
        const r = await wb.quickPickRows();
        return r.some((t) => /^Python 3\.\d+/.test(t)) && r.some((t) => /Browse\.\.\./.test(t)) ? r : undefined;
      }, 30_000);
      await wb.shot('select-interpreter');
      await page.keyboard.press('Enter'); // the first one found
      const value = await waitFor('evalsubmit.interpreter in the user settings', async () => (userSettings().match(/"evalsubmit\.interpreter":\s*"([^"]+)"/) || [])[1], 15_000);
      await waitFor('the server restarted at once with it', async () => serverStarts() > before, 60_000, 300);
      await wb.openFile('mixed_shape.py');
      await waitSquiggle('diagnostics with the chosen interpreter');
      return `offered: ${rows.join(' | ')}; chose ${value}`;
    }, 'installed');

    await step('status-nothing-configured', async () => {
      await wb.openFile('submit_ok.py');
      const text = await waitFor('the platform item: the SDK default, not reachable, no token', async () => {
        const t = await languageStatusText();
        return /Platform http:\/\/localhost:8080 · not reachable/.test(t) && t.includes("URL from the SDK's default: nothing is configured") && /· no token/.test(t) ? t : undefined;
      }, 45_000, 1000);
      await wb.shot('status-nothing-configured');
      await page.mouse.move(700, 450);
      const at = text.indexOf('Platform http');
      return text.slice(at, at + 160);
    }, 'installed');

    await step('platform-token', async () => {
      const before = serverStarts();
      await wb.command('evalsubmit: Set Platform Token');
      await waitFor('the token box', () => wb.quickInputVisible(), 10_000);
      const isPassword = await page.locator('.quick-input-widget input[type="password"]').count();
      await page.keyboard.type('e2e-token-123', { delay: 10 });
      await page.keyboard.press('Enter');
      await waitToast('"token saved"', /platform token saved/, { timeoutMs: 15_000 });
      if (userSettings().includes('e2e-token-123')) throw new Error('the token is in settings.json');
      await waitFor('a restart with the token', async () => serverStarts() > before, 60_000, 300);
      await wb.command('evalsubmit: Debug Info');
      await waitFor('debug info', async () => /"client"/.test(await wb.editorText().catch(() => '')), 30_000);
      const masked = await wb.countInEditor('"token": "***"'); // the client's view of the settings
      const redacted = await wb.countInEditor('"token": "<redacted>"'); // the server's settings
      const shown = await wb.countInEditor('e2e-token-123');
      await wb.closeEditorExpectingNoDialog();
      if (shown > 0 || extensionLog().includes('e2e-token-123')) throw new Error('Debug Info or the log shows the token');
      if (masked < 1 || redacted < 1) throw new Error(`the settings have no token (client ${masked}, server ${redacted})`);
      return `password box: ${isPassword > 0}; stored in SecretStorage, not in settings.json; sent to the server (Debug Info shows "***")`;
    }, 'installed');

    // issue 29: the first submit with no URL configured. Self-contained: it sets the URL through
    // the prompt, submits the same call (a job on the real platform), then takes the URL out of
    // settings.json again, so the next step starts from an empty profile as before.
    await step('first-submit-no-url', async () => {
      if (!platformUrl) return { skipped: 'no platform (run scripts/vscode-e2e.sh --with-platform)' };
      if (userSettings().includes('platform.baseUrl')) throw new Error('the profile already has a platform URL');
      await wb.clearNotifications();
      await wb.openFile('submit_ok.py');
      const status = await waitFor('the platform item saying nothing answers', async () => {
        const t = await languageStatusText();
        return /Platform http:\/\/localhost:8080 · not reachable/.test(t) ? t : undefined;
      }, 30_000, 1000);
      await wb.shot('status-platform-not-reachable');
      await page.mouse.move(700, 450);
      const lenses = page.locator('.codelens-decoration a', { hasText: /Submit evaluation/i });
      await waitFor('a "Submit evaluation" code lens', async () => (await lenses.count()) > 0, 30_000);
      const ys = await lenses.evaluateAll((els) => els.map((e) => e.getBoundingClientRect().y));
      await lenses.nth(ys.indexOf(Math.min(...ys))).click();
      const toast = await waitFor('"No NeMo Platform answers"', async () => (await wb.toastsWithButtons()).find((t) => /No NeMo Platform answers at/.test(t.text)), 30_000, 300);
      if (toast.buttons.join('|') !== 'Set Platform URL|Open Settings') throw new Error(`buttons: ${toast.buttons.join('|')}`);
      if (/local_platform/.test(toast.text)) throw new Error(`repository advice: ${toast.text}`);
      await wb.shot('first-submit-no-platform');
      await wb.clickToastButton(/No NeMo Platform answers/, 'Set Platform URL');
      await waitFor('the URL input box', async () => (await wb.quickInputVisible()) && /Platform URL/.test(await wb.quickInputTitle()), 20_000);
      await page.keyboard.type(platformUrl, { delay: 5 });
      await wb.shot('first-submit-set-url');
      await page.keyboard.press('Enter');
      await waitFor('the settings scope', async () => (await wb.quickInputVisible()) && /Save the platform URL/.test(await wb.quickInputTitle()), 20_000);
      await page.keyboard.type('User', { delay: 10 });
      await page.keyboard.press('Enter');
      await waitFor('the URL in the user settings', async () => userSettings().includes(platformUrl), 20_000);
      // the same submission carries on: the taskset prompt, then a job on the platform
      await waitFor('the taskset prompt', async () => (await wb.quickInputVisible()) && /taskset/i.test(await wb.quickInputTitle()), 90_000);
      await page.keyboard.press(`${mod}+KeyA`);
      await page.keyboard.type(taskset, { delay: 10 });
      await page.keyboard.press('Enter');
      const outcome = await waitFor('the outcome of the job', async () => (await wb.toasts()).find((t) => /Evaluation job \S+ (failed|completed)|Submitted evaluation job/.test(t)), 150_000, 300);
      const after = await waitFor('the platform item saying it answers', async () => {
        const t = await languageStatusText();
        return t.includes(`Platform ${platformUrl} · reachable`) ? t : undefined;
      }, 30_000, 1000);
      await wb.clearNotifications();
      const before = serverStarts();
      await wb.setTextSetting('evalsubmit.platform.baseUrl', /Base Url/, '');
      await waitFor('the URL out of settings.json', async () => !userSettings().includes(platformUrl), 15_000);
      await waitFor('a restart without the URL', async () => serverStarts() > before, 60_000, 300);
      return `before: ${status.slice(status.indexOf('Platform http'), status.indexOf('Platform http') + 60)}; "${toast.text.slice(0, 120)}"; then ${outcome.slice(0, 80)}; after: ${after.slice(after.indexOf('Platform http'), after.indexOf('Platform http') + 60)}`;
    }, 'installed');

    await step('platform-settings', async () => {
      if (!platformUrl) return { skipped: 'no platform (run scripts/vscode-e2e.sh --with-platform)' };
      const before = serverStarts();
      await wb.setTextSetting('evalsubmit.platform.baseUrl', /Base Url/, platformUrl);
      await wb.shot('settings-base-url');
      await waitFor('the base URL in settings.json', async () => userSettings().includes(platformUrl), 15_000);
      await waitFor('a restart', async () => serverStarts() > before, 60_000, 300);
      await wb.openFile('submit_ok.py');
      const text = await waitFor('the status naming the platform and the code\'s workspace', async () => {
        const t = await languageStatusText();
        return t.includes(platformUrl) && t.includes(`workspace ${platformWs}`) ? t : undefined;
      }, 30_000, 1000);
      await wb.shot('language-status-platform');
      await page.mouse.move(700, 450);
      state.platform = true;
      return text.slice(text.indexOf('Platform:'), text.indexOf('Platform:') + 140);
    }, 'installed');

    await step('status-configured', async () => {
      await wb.openFile('submit_ok.py');
      const text = await waitFor('the platform item: the setting, reachable, a token', async () => {
        const t = await languageStatusText();
        return t.includes(`Platform ${platformUrl} · reachable`) && t.includes('URL from setting evalsubmit.platform.baseUrl') && t.includes("token set (VS Code's secret storage)") ? t : undefined;
      }, 45_000, 1000);
      await wb.shot('status-configured');
      await page.mouse.move(700, 450);
      const at = text.indexOf('Platform http');
      return text.slice(at, at + 200);
    }, 'platform');

    await step('complete-taskset-ref', async () => {
      await wb.openFile('complete_taskset.py');
      const at = position('complete_taskset.py', 'TasksetRef("');
      await wb.goto(at.line, at.column + 'TasksetRef("'.length);
      const name = taskset.split('/').pop();
      const rows = page.locator('.suggest-widget.visible .monaco-list-row');
      // the first request of a list may answer before the platform does (isIncomplete): ask again
      const shown = await waitFor(`${name} suggested inside TasksetRef("`, async () => {
        const texts = (await rows.allInnerTexts()).map((t) => t.replace(/\s+/g, ' '));
        if (texts.some((t) => t.includes(name))) return texts;
        await wb.escape(1);
        await page.keyboard.press('Control+Space');
        await sleep(1500);
        return undefined;
      }, 30_000, 200);
      await wb.shot('complete-taskset-ref');
      const index = shown.findIndex((t) => t.includes(name));
      for (let k = 0; k < index; k++) await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Tab');
      const line = await waitFor('the full reference inserted', async () => {
        const l = (await wb.editorLines()).find((t) => t.includes('TasksetRef('));
        return l && l.includes(`TasksetRef("${taskset}")`) ? l : undefined;
      }, 10_000);
      await page.keyboard.press(`${mod}+KeyZ`);
      return `suggested: ${shown.join(' | ').slice(0, 200)}; accepted: ${line.trim()}`;
    }, 'platform');

    await step('taskset-prompt-code-workspace', async () => {
      await wb.clearNotifications();
      await wb.openFile('submit_ok.py');
      const lenses = page.locator('.codelens-decoration a', { hasText: /Submit evaluation/i });
      await waitFor('a "Submit evaluation" code lens', async () => (await lenses.count()) > 0, 30_000);
      // nothing left over from the steps before (a hover or a suggest widget) may cover the lens
      await page.mouse.move(0, 0);
      await wb.escape(1);
      await waitFor('the runner\'s lens clicked', async () => {
        const ys = await lenses.evaluateAll((els) => els.map((e) => e.getBoundingClientRect().y));
        try { // the runner's: its taskset is not in the code
          await lenses.nth(ys.indexOf(Math.min(...ys))).click({ timeout: 5000 });
          return true;
        } catch {
          await wb.escape(1);
          return undefined;
        }
      }, 30_000, 500);
      await waitFor('the taskset prompt', async () => (await wb.quickInputVisible()) && /taskset/i.test(await wb.quickInputTitle()), 20_000);
      const title = await wb.quickInputTitle();
      const value = await wb.quickInputValue();
      await wb.escape(0);
      // the list without the pre-filled filter
      await page.keyboard.press(`${mod}+KeyA`);
      await page.keyboard.press('Backspace');
      const rows = await waitFor(`${taskset} in the list`, async () => {
        const r = await wb.quickPickRows();
        return r.some((t) => t.includes(taskset)) ? r : undefined;
      }, 20_000);
      await wb.shot('taskset-prompt');
      if (!title.includes(`(workspace ${platformWs})`)) throw new Error(`title "${title}" does not name the code's workspace ${platformWs}`);
      if (rows.some((t) => t.includes('default/decoy'))) throw new Error(`the default workspace's tasksets are listed: ${rows.join(' | ')}`);
      if (value !== taskset) throw new Error(`not pre-filled with the TasksetRef near the runner: "${value}"`);
      await page.keyboard.type(taskset, { delay: 10 });
      await page.keyboard.press('Enter');
      state.submitted = true;
      return `"${title}", pre-filled "${value}", rows: ${rows.join(' | ')}`;
    }, 'platform');

    await step('failed-job-toast', async () => {
      const seen = new Set();
      const progress = new Set();
      const toast = await waitFor('the outcome of the job', async () => {
        for (const t of await wb.toastsWithButtons()) {
          const key = `${t.text} [${t.buttons.join('|')}]`;
          if (!seen.has(key)) {
            seen.add(key);
            log(`notification: ${key.slice(0, 240)}`);
          }
          if (/Submitting evaluation/.test(t.text)) progress.add(t.text.replace(/^.*?\)…?\s*/, ''));
          if (/not submitted|could not/i.test(t.text)) throw fatal(`notification: ${t.text}`);
          if (/^Evaluation job \S+ failed: /.test(t.text)) return t;
        }
        return undefined;
      }, 150_000, 200);
      await sleep(1500); // a second outcome toast (the server's) would show by now
      await wb.shot('failed-job-toast');
      const outcomes = (await wb.toasts()).filter((t) => /ended: error|Evaluation job \S+ failed|\(status: error\)/.test(t));
      if (outcomes.length !== 1) throw new Error(`expected one outcome notification, got: ${outcomes.join(' || ')}`);
      if (!/The 'gym' CLI was not found on PATH\./.test(toast.text)) throw new Error(`the cause is not named: ${toast.text}`);
      if (toast.buttons.join('|') !== 'Show Job|Show Logs') throw new Error(`buttons: ${toast.buttons.join('|')}`);
      state.failedJob = toast.text.match(/^Evaluation job (\S+) failed/)[1];
      const states = [...progress].filter(Boolean);
      if (states.some((s) => /pending: Job is running/.test(s))) throw new Error(`a progress message contradicts its state: ${states.join(' | ')}`);
      return `"${toast.text}" [${toast.buttons.join(', ')}]; progress said: ${states.join(' → ')}`;
    }, 'submitted');

    await step('failed-job-view', async () => {
      await wb.clickToastButton(/Evaluation job \S+ failed/, 'Show Job');
      await waitFor('the job view', async () => (await page.locator('.tab.active').allInnerTexts()).some((t) => t.includes(state.failedJob)), 20_000);
      const top = await waitFor('status, cause and target in the view', async () => {
        const t = await wb.editorText();
        return /Status {5}error — The 'gym' CLI was not found on PATH\./.test(t) && /Target \(as submitted\)/.test(t) && /Created {4}\d{4}-/.test(t) ? t : undefined;
      }, 30_000, 500);
      await wb.shot('failed-job-view');
      await page.keyboard.press(`${mod}+End`);
      await sleep(500);
      const bottom = await wb.editorLines();
      await wb.shot('failed-job-view-logs');
      if (!bottom.some((l) => /^\s+File "/.test(l)) || !bottom.some((l) => /^\s+RuntimeError: The 'gym' CLI/.test(l))) {
        throw new Error(`the traceback is not on several lines:\n${bottom.join('\n')}`);
      }
      await wb.closeEditorExpectingNoDialog();
      return `${top.split('\n').filter((l) => /^(Status|Created|Updated|URL) /.test(l)).join(' / ')}; traceback on ${bottom.filter((l) => /^\s+File "/.test(l)).length}+ lines; closed without a save prompt`;
    }, 'failedJob');

    await step('completed-job-view', async () => {
      if (!completedJob) return { skipped: 'no completed job (scripts/local_platform.py complete-job)' };
      await wb.openFile('submit_ok.py'); // Show Job reads the platform of the active document
      await wb.command('evalsubmit: Show Job');
      await waitFor('the job prompt', () => wb.quickInputVisible(), 15_000);
      await page.keyboard.type(completedJob, { delay: 10 });
      await sleep(300);
      await page.keyboard.press('Enter');
      const text = await waitFor('the completed job with its summary', async () => {
        const t = await wb.editorText().catch(() => '');
        return /Status {5}completed/.test(t) && /"mean": 0\.5/.test(t) && /URL {8}http/.test(t) ? t : undefined;
      }, 30_000, 500);
      await wb.shot('completed-job-view');
      await wb.closeEditorExpectingNoDialog();
      return text.split('\n').filter((l) => /^(Status|URL) |"mean"/.test(l.trim()) || /^Status|^URL/.test(l)).map((l) => l.trim()).join(' / ');
    }, 'platform');

    await step('submit-command-taskset-from-code', async () => {
      await wb.clearNotifications();
      await wb.openFile('submit_ok.py');
      const pos = position('submit_ok.py', 'submit(');
      await wb.goto(pos.line, pos.column + 2);
      await wb.command('evalsubmit: Submit Evaluation');
      const toast = await waitToast('the outcome of a second job', /^Evaluation job \S+ failed: |^Submitted evaluation job /, { timeoutMs: 150_000 });
      if (toast.text.includes(state.failedJob ?? '\u0000')) throw new Error('the same job as before');
      return `no taskset prompt (the call names ${taskset}); ${toast.text}`;
    }, 'platform');

    await step('notebook-submit', async () => {
      if (!state.platform) return { skipped: 'no platform (run scripts/vscode-e2e.sh --with-platform)' };
      await wb.clearNotifications();
      await wb.openFile('evaluate.ipynb');
      const submitCell = await revealCell('job = client.evaluator.submit');
      const lens = submitCell.locator('.codelens-decoration a', { hasText: /Submit evaluation/i });
      await waitFor('the "Submit evaluation" lens in the submit cell', async () => (await lens.count()) > 0, 30_000);
      await wb.shot('notebook-lens');
      await lens.first().click();
      const toast = await waitToast('the outcome of the job submitted from the cell', /^Evaluation job \S+ failed: |^Submitted evaluation job /, { timeoutMs: 150_000 });
      await wb.shot('notebook-submitted');
      const name = (toast.text.match(/job (\S+)/) || [])[1];
      if (!name || name === state.failedJob) throw new Error(`not a new job: ${toast.text}`);
      return `no taskset prompt (the cell names ${taskset}); ${toast.text}`;
    }, 'notebook');

    await step('lens-setting', async () => {
      await wb.clearNotifications();
      await wb.openFile('submit_ok.py');
      const lenses = page.locator('.editor-instance .codelens-decoration a', { hasText: /Submit evaluation/i });
      const count = async () => lenses.count();
      const shown = await waitFor('the "Submit evaluation" lenses', async () => ((await count()) > 0 ? count() : undefined), 30_000, 300);
      const setLenses = async (value) => {
        const before = serverStarts();
        const checked = await wb.toggleBoolSetting('evalsubmit.codeLens.enable', /Code Lens/);
        if (checked !== value) throw new Error(`the checkbox is ${checked}, not ${value}`);
        await waitFor(`"evalsubmit.codeLens.enable" ${value} in the user settings`, async () => {
          const v = JSON.parse(userSettings())['evalsubmit.codeLens.enable'];
          return value ? v === undefined || v === true : v === false;
        }, 15_000, 300);
        await waitFor('the server restarted', async () => serverStarts() > before, 60_000, 300);
        await wb.openFile('submit_ok.py');
      };
      await setLenses(false);
      await waitFor('no lens in the editor', async () => (await count()) === 0, 30_000, 300);
      await sleep(2000); // a late lens request would have answered by now
      const off = await count();
      if (off !== 0) throw new Error(`${off} lens(es) with evalsubmit.codeLens.enable false`);
      await wb.shot('lens-setting-off');
      await setLenses(true);
      const again = await waitFor('the lenses back', async () => ((await count()) > 0 ? count() : undefined), 30_000, 300);
      await wb.shot('lens-setting-on');
      return `${shown} lens(es); evalsubmit.codeLens.enable unchecked in the Settings editor: 0 after the restart; checked again: ${again}`;
    }, 'installed');

    await step('no-duplicate-commands', async () => {
      const logs = findFiles(path.join(work, 'user-data', 'logs'), 'exthost.log')
        .concat(findFiles(path.join(work, 'user-data', 'logs'), 'remoteexthost.log'))
        .map((f) => fs.readFileSync(f, 'utf8'))
        .join('\n');
      const dup = logs.match(/command '[^']*' already exists/);
      if (dup) throw new Error(dup[0]);
      return `no "command already exists" after ${serverStarts()} server starts`;
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
fs.writeFileSync(path.join(art, 'evalsubmit-extension.log'), extensionLog());
if (count('failed') > 0) {
  console.log('--- last lines of the evalsubmit log ---\n' + extensionLog().split('\n').slice(-40).join('\n'));
}
console.log(`vscode-e2e: ${count('passed')} passed, ${count('failed')} failed, ${count('skipped')} skipped (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
process.exit(count('failed') > 0 ? 1 : 0);
