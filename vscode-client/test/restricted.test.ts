import { describe, expect, it } from 'vitest';
import { keysSetIn, restrictedKeysSet, restrictedModeLine, stripJsonc } from '../src/restricted';

const KEYS = ['evalsubmit.interpreter', 'evalsubmit.python', 'evalsubmit.importStrategy', 'evalsubmit.platform.baseUrl'];

describe('Restricted Mode: the workspace values that are ignored', () => {
  it('reads settings.json as VS Code writes it: comments, trailing commas, // inside strings', () => {
    const text = `{
  // the project's environment
  "evalsubmit.python": "\${workspaceFolder}/.venv", /* set by the team */
  "evalsubmit.platform.baseUrl": "http://nmp.internal//api",
  "editor.tabSize": 4,
}`;
    expect(JSON.parse(stripJsonc(text))['evalsubmit.platform.baseUrl']).toBe('http://nmp.internal//api');
    expect(keysSetIn(text, KEYS)).toEqual(['evalsubmit.python', 'evalsubmit.platform.baseUrl']);
  });

  it('finds them under a language override and in a .code-workspace file\'s settings', () => {
    expect(keysSetIn('{"[python]": {"evalsubmit.interpreter": "/x/python"}}', KEYS)).toEqual(['evalsubmit.interpreter']);
    expect(keysSetIn('{"folders": [{"path": "."}], "settings": {"evalsubmit.importStrategy": "fromEnvironment"}}', KEYS)).toEqual(['evalsubmit.importStrategy']);
    expect(keysSetIn('{"evalsubmit.enable": false}', KEYS)).toEqual([]);
    expect(keysSetIn('not json {', KEYS)).toEqual([]);
  });

  it('joins every file, in the settings\' order, skipping missing ones, and says it in one line', () => {
    const files: Record<string, string> = {
      '/a/.vscode/settings.json': '{"evalsubmit.platform.baseUrl": "http://h"}',
      '/w.code-workspace': '{"settings": {"evalsubmit.interpreter": "/p"}}',
    };
    const read = (f: string) => {
      if (!(f in files)) throw new Error('ENOENT');
      return files[f];
    };
    const found = restrictedKeysSet(['/a/.vscode/settings.json', '/b/.vscode/settings.json', '/w.code-workspace'], KEYS, read);
    expect(found).toEqual(['evalsubmit.interpreter', 'evalsubmit.platform.baseUrl']);
    expect(restrictedModeLine(found, KEYS)).toBe(
      'Restricted Mode: the workspace values of evalsubmit.interpreter, evalsubmit.platform.baseUrl are ignored until the workspace is trusted.',
    );
    expect(restrictedModeLine([], KEYS)).toMatch(/would be ignored \(none is set\)/);
  });
});
