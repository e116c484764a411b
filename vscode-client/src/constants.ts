/** Ids shared by the extension, its manifest and its tests. No `vscode` import here. */

export const EXTENSION_ID = 'evalsubmit.evalsubmit';
export const SECTION = 'evalsubmit';
export const CLIENT_ID = 'evalsubmit';
export const CLIENT_NAME = 'evalsubmit';
export const PYTHON_EXTENSION_ID = 'ms-python.python';

/** The documents the server checks: Python files, and the Python cells of Jupyter notebooks
 * (the server declares notebook document sync; vscode-languageclient then sends each notebook
 * with its cells, and asks hovers, code actions and lenses of the cells). */
export const DOCUMENT_SELECTOR = [
  { scheme: 'file', language: 'python' },
  { scheme: 'untitled', language: 'python' },
  { notebook: 'jupyter-notebook', language: 'python' },
] as const;

/** Commands that the server registers through `executeCommandProvider`.
 * vscode-languageclient registers them in VS Code; the extension must never register them itself. */
export const SERVER_COMMANDS = {
  submit: 'evalsubmit.submit',
  debugInfo: 'evalsubmit.debugInfo',
  listTasksets: 'evalsubmit.listTasksets',
  jobStatus: 'evalsubmit.jobStatus',
  platformInfo: 'evalsubmit.platformInfo',
} as const;

/** Commands of the client, contributed in package.json and registered in extension.ts. */
export const CLIENT_COMMANDS = {
  restartServer: 'evalsubmit.restartServer',
  showLogs: 'evalsubmit.showLogs',
  submitEvaluation: 'evalsubmit.submitEvaluation',
  showJob: 'evalsubmit.showJob',
  showJobLogs: 'evalsubmit.showJobLogs',
  showDebugInfo: 'evalsubmit.showDebugInfo',
  selectInterpreter: 'evalsubmit.selectInterpreter',
  setPlatformToken: 'evalsubmit.setPlatformToken',
  setPlatformUrl: 'evalsubmit.setPlatformUrl',
  platformActions: 'evalsubmit.platformActions',
} as const;

export type ServerCommand = (typeof SERVER_COMMANDS)[keyof typeof SERVER_COMMANDS];
export type ClientCommand = (typeof CLIENT_COMMANDS)[keyof typeof CLIENT_COMMANDS];
