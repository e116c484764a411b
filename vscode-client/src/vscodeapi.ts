/**
 * The one module that touches the `vscode` API. Everything else receives these functions (or
 * imports them from here), so unit tests can run the logic against a mocked `vscode` module.
 */
import * as vscode from 'vscode';

export type Disposable = vscode.Disposable;
export type LogOutputChannel = vscode.LogOutputChannel;
export type ExtensionContext = vscode.ExtensionContext;
export type ConfigurationChangeEvent = vscode.ConfigurationChangeEvent;
export type LanguageStatusItem = vscode.LanguageStatusItem;
export type OutputChannel = vscode.OutputChannel;
export type SecretStorage = vscode.SecretStorage;

/** A value-level view of a configuration section: `get(key)` with dotted keys. */
export interface ConfigReader {
  get<T>(key: string): T | undefined;
}

export function getConfiguration(section: string, scopeUri?: string): ConfigReader {
  const scope = scopeUri ? vscode.Uri.parse(scopeUri) : undefined;
  return vscode.workspace.getConfiguration(section, scope);
}

export function onDidChangeConfiguration(
  listener: (e: ConfigurationChangeEvent) => unknown,
): Disposable {
  return vscode.workspace.onDidChangeConfiguration(listener);
}

export function registerCommand(id: string, callback: (...args: any[]) => unknown): Disposable {
  return vscode.commands.registerCommand(id, callback);
}

export function executeCommand<T = unknown>(id: string, ...args: unknown[]): Thenable<T> {
  return vscode.commands.executeCommand<T>(id, ...args);
}

export function createLogOutputChannel(name: string): LogOutputChannel {
  return vscode.window.createOutputChannel(name, { log: true });
}

export type MessageLevel = 'error' | 'warning' | 'info';

export function showMessage(
  level: MessageLevel,
  message: string,
  ...items: string[]
): Thenable<string | undefined> {
  switch (level) {
    case 'error':
      return vscode.window.showErrorMessage(message, ...items);
    case 'warning':
      return vscode.window.showWarningMessage(message, ...items);
    default:
      return vscode.window.showInformationMessage(message, ...items);
  }
}

export interface PickItem {
  label: string;
  description?: string;
  detail?: string;
}

/**
 * A quick pick that also accepts free text: resolves to the chosen item's label, or to the typed
 * text (offered as the first item whenever it is not one of the items), or to undefined when
 * dismissed.
 */
export function pickOrType(
  items: PickItem[],
  options: { title: string; placeholder: string; value?: string },
): Promise<string | undefined> {
  return new Promise((resolve) => {
    const qp = vscode.window.createQuickPick<vscode.QuickPickItem>();
    qp.title = options.title;
    qp.placeholder = options.placeholder;
    qp.matchOnDescription = true;
    qp.ignoreFocusOut = true;
    const update = (value: string) => {
      const typed = value.trim();
      qp.items =
        typed && !items.some((i) => i.label === typed)
          ? [{ label: typed, description: 'typed reference', alwaysShow: true }, ...items]
          : items;
    };
    update(options.value ?? '');
    if (options.value) {
      qp.value = options.value;
    }
    let done = false;
    const finish = (value: string | undefined) => {
      if (!done) {
        done = true;
        resolve(value);
        qp.dispose();
      }
    };
    qp.onDidChangeValue(update);
    qp.onDidAccept(() => {
      const chosen = qp.selectedItems[0] ?? qp.activeItems[0];
      finish(chosen?.label ?? (qp.value.trim() || undefined));
    });
    qp.onDidHide(() => finish(undefined));
    qp.show();
  });
}

export function showInputBox(options: {
  title: string;
  prompt: string;
  placeHolder?: string;
  value?: string;
  password?: boolean;
  validateInput?: (value: string) => string | undefined;
}): Promise<string | undefined> {
  return Promise.resolve(
    vscode.window.showInputBox({ ...options, ignoreFocusOut: true }),
  );
}

/** A plain quick pick of `items`; the chosen item, or undefined when dismissed. */
export function pick<T extends PickItem>(items: T[], options: { title: string; placeholder: string }): Promise<T | undefined> {
  return Promise.resolve(
    vscode.window.showQuickPick(items, {
      title: options.title,
      placeHolder: options.placeholder,
      matchOnDescription: true,
      matchOnDetail: true,
      ignoreFocusOut: true,
    }),
  );
}

export async function openFile(options: { title: string }): Promise<string | undefined> {
  const chosen = await vscode.window.showOpenDialog({
    title: options.title,
    canSelectFiles: true,
    canSelectFolders: false,
    canSelectMany: false,
    openLabel: 'Use this Python',
  });
  return chosen?.[0]?.fsPath;
}

/** Writes (undefined: removes) a setting in the user settings. */
export function updateUserSetting(key: string, value: unknown): Thenable<void> {
  const dot = key.indexOf('.');
  return vscode.workspace
    .getConfiguration(key.slice(0, dot))
    .update(key.slice(dot + 1), value, vscode.ConfigurationTarget.Global);
}

export function isWorkspaceTrusted(): boolean {
  return vscode.workspace.isTrusted;
}

export function onDidGrantWorkspaceTrust(listener: () => unknown): Disposable {
  return vscode.workspace.onDidGrantWorkspaceTrust(listener);
}

/** Where each setting is set: whether a workspace or folder value exists (Restricted Mode
 * ignores those of restricted settings). */
export function hasWorkspaceValue(key: string): boolean {
  const dot = key.indexOf('.');
  const info = vscode.workspace.getConfiguration(key.slice(0, dot)).inspect(key.slice(dot + 1));
  return info !== undefined && (info.workspaceValue !== undefined || info.workspaceFolderValue !== undefined);
}

/** Writes a setting in the user or the workspace settings. */
export function updateSetting(key: string, value: unknown, scope: 'user' | 'workspace'): Thenable<void> {
  const dot = key.indexOf('.');
  const target = scope === 'user' ? vscode.ConfigurationTarget.Global : vscode.ConfigurationTarget.Workspace;
  return vscode.workspace.getConfiguration(key.slice(0, dot)).update(key.slice(dot + 1), value, target);
}

/** The Settings editor, filtered by `query` (a setting id shows that setting). */
export function openSettings(query: string): Thenable<unknown> {
  return vscode.commands.executeCommand('workbench.action.openSettings', query);
}

/** A read-only virtual document scheme: `provide(uri)` gives the text; `changed(uri)` makes VS
 * Code ask again. */
export function registerReadOnlyDocuments(
  scheme: string,
  provide: (uri: string) => Promise<string>,
): { changed(uri: string): void; dispose(): void } {
  const emitter = new vscode.EventEmitter<vscode.Uri>();
  const registration = vscode.workspace.registerTextDocumentContentProvider(scheme, {
    onDidChange: emitter.event,
    provideTextDocumentContent: (uri) => provide(uri.toString()),
  });
  return {
    changed: (uri) => emitter.fire(vscode.Uri.parse(uri)),
    dispose: () => {
      registration.dispose();
      emitter.dispose();
    },
  };
}

export async function openDocument(uri: string, language?: string): Promise<void> {
  let doc = await vscode.workspace.openTextDocument(vscode.Uri.parse(uri));
  if (language && doc.languageId !== language) {
    doc = await vscode.languages.setTextDocumentLanguage(doc, language);
  }
  await vscode.window.showTextDocument(doc, { preview: false });
}

export function isDocumentOpen(uri: string): boolean {
  return vscode.workspace.textDocuments.some((d) => d.uri.toString() === uri && !d.isClosed);
}

export function onDidCloseDocument(listener: (uri: string) => unknown): Disposable {
  return vscode.workspace.onDidCloseTextDocument((d) => listener(d.uri.toString()));
}

export function onDidChangeActiveEditor(listener: () => unknown): Disposable {
  return vscode.window.onDidChangeActiveTextEditor(() => listener());
}

export function onDidChangeSecret(secrets: SecretStorage, key: string, listener: () => unknown): Disposable {
  return secrets.onDidChange((e) => {
    if (e.key === key) {
      listener();
    }
  });
}

export interface Progress {
  report(message: string): void;
  onCancel(listener: () => void): void;
}

export function withProgress<T>(
  title: string,
  task: (progress: Progress) => Promise<T>,
  cancellable = false,
): Promise<T> {
  return Promise.resolve(
    vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title, cancellable },
      (progress, token) =>
        task({
          report: (message) => progress.report({ message }),
          onCancel: (listener) => void token.onCancellationRequested(listener),
        }),
    ),
  );
}

export interface EditorPosition {
  uri: string;
  languageId: string;
  line: number; // 0-based
  character: number; // 0-based, UTF-16 code units (as LSP)
}

export function activeEditorPosition(): EditorPosition | undefined {
  const editor = vscode.window.activeTextEditor;
  if (!editor) {
    return undefined;
  }
  const pos = editor.selection.active;
  return {
    uri: editor.document.uri.toString(),
    languageId: editor.document.languageId,
    line: pos.line,
    character: pos.character,
  };
}

export interface Folder {
  uri: string;
  fsPath: string;
  name: string;
}

export function workspaceFolders(): Folder[] {
  return (vscode.workspace.workspaceFolders ?? []).map((f) => ({
    uri: f.uri.toString(),
    fsPath: f.uri.fsPath,
    name: f.name,
  }));
}

export function folderOf(uri: string | undefined): Folder | undefined {
  if (!uri) {
    return workspaceFolders()[0];
  }
  const f = vscode.workspace.getWorkspaceFolder(vscode.Uri.parse(uri));
  return f ? { uri: f.uri.toString(), fsPath: f.uri.fsPath, name: f.name } : workspaceFolders()[0];
}

export function getExtension<T = unknown>(id: string): vscode.Extension<T> | undefined {
  return vscode.extensions.getExtension<T>(id);
}

export function onDidChangeExtensions(listener: () => unknown): Disposable {
  return vscode.extensions.onDidChange(listener);
}

export interface LensInfo {
  startLine: number;
  endLine: number;
  command?: string;
  arguments?: unknown[];
}

export async function codeLenses(uri: string): Promise<LensInfo[]> {
  const lenses = await vscode.commands.executeCommand<vscode.CodeLens[] | undefined>(
    'vscode.executeCodeLensProvider',
    vscode.Uri.parse(uri),
  );
  return (lenses ?? []).map((l) => ({
    startLine: l.range.start.line,
    endLine: l.range.end.line,
    command: l.command?.command,
    arguments: l.command?.arguments,
  }));
}

export function openExternal(url: string): Thenable<boolean> {
  return vscode.env.openExternal(vscode.Uri.parse(url));
}

export function createLanguageStatusItem(id: string): LanguageStatusItem {
  return vscode.languages.createLanguageStatusItem(id, [
    { language: 'python', scheme: 'file' },
    { language: 'python', scheme: 'untitled' },
  ]);
}

export const StatusSeverity = {
  info: vscode.LanguageStatusSeverity.Information,
  warning: vscode.LanguageStatusSeverity.Warning,
  error: vscode.LanguageStatusSeverity.Error,
} as const;

export function isVirtualWorkspace(): boolean {
  return (vscode.workspace.workspaceFolders ?? []).some((f) => f.uri.scheme !== 'file');
}

/** The files a workspace's settings come from, on disk: each folder's `.vscode/settings.json`
 * and a `.code-workspace` file (whether they exist is not checked). */
export function workspaceSettingsFiles(): string[] {
  const folders = (vscode.workspace.workspaceFolders ?? [])
    .filter((f) => f.uri.scheme === 'file')
    .map((f) => vscode.Uri.joinPath(f.uri, '.vscode', 'settings.json').fsPath);
  const file = vscode.workspace.workspaceFile;
  return file && file.scheme === 'file' ? [...folders, file.fsPath] : folders;
}
