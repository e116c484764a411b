/** Path settings that name nothing on disk (after `${workspaceFolder}`, `~` and `${env:…}` are
 * expanded): each one is told once, as a warning with "Open Settings" and a log line, instead of
 * a server that silently reads another environment. No `vscode` import. */
import * as fs from 'node:fs';
import * as path from 'node:path';

export const OPEN_SETTINGS = 'Open Settings';

/** `evalsubmit.interpreter` (already expanded, program first) when its program is a path that
 * does not exist, as `evalsubmit.interpreter: PATH`. A bare name (`python3`, `py`) is looked up
 * on PATH when the server starts, not here. */
export function missingInterpreter(
  interpreter: string[],
  exists: (p: string) => boolean = fs.existsSync,
): string[] {
  const program = interpreter[0];
  if (program === undefined || !(path.isAbsolute(program) || /[\\/]/.test(program))) {
    return [];
  }
  return exists(program) ? [] : [`evalsubmit.interpreter: ${program}`];
}

export interface MissingPathDeps {
  log(line: string): void;
  warn(text: string, ...items: string[]): PromiseLike<string | undefined>;
  openSettings(key: string): unknown;
}

export class MissingPaths {
  private readonly told = new Set<string>();

  constructor(private readonly deps: MissingPathDeps) {}

  /** Tells each `evalsubmit.KEY: PATH` not told before (a new path for the same setting is
   * told again: the user changed it and it is still wrong). */
  report(missing: readonly string[]): void {
    for (const entry of missing) {
      if (this.told.has(entry)) {
        continue;
      }
      this.told.add(entry);
      const at = entry.indexOf(': ');
      const key = entry.slice(0, at);
      const where = entry.slice(at + 2);
      this.deps.log(`Setting ${entry}: no such file or folder.`);
      void Promise.resolve(
        this.deps.warn(`evalsubmit: "${key}" is set to ${where}, which does not exist.`, OPEN_SETTINGS),
      ).then((choice) => {
        if (choice === OPEN_SETTINGS) {
          void this.deps.openSettings(key);
        }
      });
    }
  }
}
