/** The UI operations the logic needs, as an interface: `vscodeapi.ts` provides them in the
 * extension, tests provide fakes. */
export type MessageLevel = 'error' | 'warning' | 'info';

export interface PickItem {
  label: string;
  description?: string;
  detail?: string;
}

export interface EditorPosition {
  uri: string;
  languageId: string;
  line: number;
  character: number;
}

/** A code lens of the document, as `vscode.executeCodeLensProvider` returns it (0-based lines). */
export interface LensInfo {
  startLine: number;
  endLine: number;
  command?: string;
  arguments?: unknown[];
}

export interface Ui {
  message(level: MessageLevel, text: string, ...items: string[]): PromiseLike<string | undefined>;
  pickOrType(
    items: PickItem[],
    options: { title: string; placeholder: string; value?: string },
  ): Promise<string | undefined>;
  /** A plain quick pick: resolves to the chosen item, or undefined when dismissed. */
  pick<T extends PickItem>(items: T[], options: { title: string; placeholder: string }): Promise<T | undefined>;
  inputBox(options: {
    title: string;
    prompt: string;
    placeHolder?: string;
    value?: string;
    password?: boolean;
    validateInput?: (value: string) => string | undefined;
  }): Promise<string | undefined>;
  /** An "Open File" dialog for one file; its path, or undefined. */
  openFile(options: { title: string }): Promise<string | undefined>;
  /** A notification with progress; `cancellable` adds a Cancel button that fires `onCancel`. */
  withProgress<T>(title: string, task: (progress: Progress) => Promise<T>, cancellable?: boolean): Promise<T>;
  activeEditor(): EditorPosition | undefined;
  openExternal(url: string): PromiseLike<unknown>;
  /** The code lenses of a document (all providers); optional, empty when unavailable. */
  codeLenses?(uri: string): Promise<LensInfo[]>;
}

export interface Progress {
  report(message: string): void;
  onCancel(listener: () => void): void;
}

/** Sends `workspace/executeCommand` to the running server (bypassing the middleware). With a
 * `progress`, the request carries a `workDoneToken`: the server's work-done progress is shown
 * there, and Cancel sends `window/workDoneProgress/cancel` for it. */
export type ServerCommandRunner = (command: string, args: unknown[], progress?: Progress) => Promise<unknown>;

/** A message from an error of any kind (ResponseError, Error, string). */
export function errorText(err: unknown): string {
  if (err instanceof Error) {
    return err.message;
  }
  if (typeof err === 'object' && err !== null && 'message' in err) {
    return String((err as { message: unknown }).message);
  }
  return String(err);
}
