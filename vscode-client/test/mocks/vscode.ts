/** A minimal `vscode` module for unit tests: records what the extension asks of VS Code. */
import { vi } from 'vitest';

export const registeredCommands: string[] = [];
export const shownMessages: { level: string; text: string; items: string[] }[] = [];
export const configValues: Record<string, unknown> = {};

class Disposable {
  constructor(private readonly fn: () => void = () => undefined) {}
  dispose(): void {
    this.fn();
  }
}

export const Uri = {
  parse: (s: string) => ({ toString: () => s, fsPath: s.replace(/^file:\/\//, ''), scheme: s.split(':')[0] }),
  file: (p: string) => ({ toString: () => `file://${p}`, fsPath: p, scheme: 'file' }),
};

export const commands = {
  registerCommand: vi.fn((id: string) => {
    if (registeredCommands.includes(id)) {
      throw new Error(`command '${id}' already exists`);
    }
    registeredCommands.push(id);
    return new Disposable(() => registeredCommands.splice(registeredCommands.indexOf(id), 1));
  }),
  executeCommand: vi.fn(async () => undefined),
};

const logChannel = () => ({
  info: vi.fn(),
  warn: vi.fn(),
  error: vi.fn(),
  debug: vi.fn(),
  trace: vi.fn(),
  append: vi.fn(),
  appendLine: vi.fn(),
  show: vi.fn(),
  dispose: vi.fn(),
});

const message = (level: string) =>
  vi.fn(async (text: string, ...items: string[]) => {
    shownMessages.push({ level, text, items });
    return undefined;
  });

export class EventEmitter<T> {
  private listeners: ((v: T) => void)[] = [];
  event = (l: (v: T) => void) => {
    this.listeners.push(l);
    return new Disposable();
  };
  fire(v: T): void {
    this.listeners.forEach((l) => l(v));
  }
  dispose(): void {
    this.listeners = [];
  }
}

export const ConfigurationTarget = { Global: 1, Workspace: 2, WorkspaceFolder: 3 };

export const window = {
  createOutputChannel: vi.fn(() => logChannel()),
  showErrorMessage: message('error'),
  showWarningMessage: message('warning'),
  showInformationMessage: message('info'),
  showInputBox: vi.fn(async () => undefined),
  createQuickPick: vi.fn(),
  showQuickPick: vi.fn(async () => undefined),
  showOpenDialog: vi.fn(async () => undefined),
  onDidChangeActiveTextEditor: vi.fn(() => new Disposable()),
  withProgress: vi.fn(async (_o: unknown, task: () => Promise<unknown>) => task()),
  activeTextEditor: undefined as unknown,
  showTextDocument: vi.fn(),
};

export const workspace = {
  workspaceFolders: [{ uri: Uri.file('/ws'), name: 'ws', index: 0 }],
  getConfiguration: vi.fn(() => ({
    get: (key: string) => configValues[key],
    inspect: () => undefined,
  })),
  isTrusted: true,
  onDidGrantWorkspaceTrust: vi.fn(() => new Disposable()),
  getWorkspaceFolder: vi.fn(() => undefined),
  onDidChangeConfiguration: vi.fn(() => new Disposable()),
  openTextDocument: vi.fn(async () => ({ languageId: 'log' })),
  registerTextDocumentContentProvider: vi.fn(() => new Disposable()),
  onDidCloseTextDocument: vi.fn(() => new Disposable()),
  textDocuments: [] as unknown[],
};

export const extensions = {
  getExtension: vi.fn(() => undefined),
  onDidChange: vi.fn(() => new Disposable()),
};

export const env = { openExternal: vi.fn(async () => true) };

export const languages = {
  setTextDocumentLanguage: vi.fn(async (d: unknown) => d),
  createLanguageStatusItem: vi.fn(() => ({
    name: '',
    text: '',
    detail: '',
    severity: 0,
    busy: false,
    command: undefined,
    dispose: vi.fn(),
  })),
};

export const LanguageStatusSeverity = { Information: 0, Warning: 1, Error: 2 };
export const ProgressLocation = { SourceControl: 1, Window: 10, Notification: 15 };
export { Disposable };
