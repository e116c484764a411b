/** Restricted Mode: which restricted settings a workspace sets, for the one log line that says
 * they are ignored. VS Code hides those values from an untrusted workspace's configuration
 * (`inspect()` shows none), so the workspace's settings files are read as text, never run.
 * No `vscode` import. */
import * as fs from 'node:fs';

/** JSON with comments and trailing commas (settings.json, a .code-workspace file) as JSON. */
export function stripJsonc(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') {
        j += text[j] === '\\' ? 2 : 1;
      }
      out += text.slice(i, j + 1);
      i = j + 1;
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') {
        i++;
      }
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 2;
    } else {
      out += c;
      i++;
    }
  }
  return out.replace(/,(\s*[}\]])/g, '$1');
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The `keys` a settings text sets: at the top, under a language override (`"[python]": {…}`),
 * or, for a .code-workspace file, under its `settings`. Unreadable text sets nothing. */
export function keysSetIn(text: string, keys: readonly string[]): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(stripJsonc(text));
  } catch {
    return [];
  }
  if (!isRecord(parsed)) {
    return [];
  }
  const scopes = [parsed, ...(isRecord(parsed.settings) ? [parsed.settings] : [])];
  for (const scope of [...scopes]) {
    for (const [k, v] of Object.entries(scope)) {
      if (/^\[.*\]$/.test(k) && isRecord(v)) {
        scopes.push(v);
      }
    }
  }
  return keys.filter((key) => scopes.some((scope) => scope[key] !== undefined));
}

/** The restricted keys set in any of `files` (missing or unreadable files set nothing). */
export function restrictedKeysSet(
  files: readonly string[],
  keys: readonly string[],
  read: (file: string) => string = (f) => fs.readFileSync(f, 'utf8'),
): string[] {
  const found = new Set<string>();
  for (const file of files) {
    let text: string;
    try {
      text = read(file);
    } catch {
      continue;
    }
    keysSetIn(text, keys).forEach((k) => found.add(k));
  }
  return keys.filter((k) => found.has(k));
}

/** The one line logged when the extension starts in Restricted Mode. */
export function restrictedModeLine(ignored: readonly string[], all: readonly string[]): string {
  return ignored.length > 0
    ? `Restricted Mode: the workspace values of ${ignored.join(', ')} are ignored until the workspace is trusted.`
    : `Restricted Mode: workspace values of ${all.join(', ')} would be ignored (none is set).`;
}
