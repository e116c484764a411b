// Builds the .vsix with the language server bundled (scripts/bundle_server.py), for one VS Code
// target platform: the host's, or $EVALSUBMIT_VSIX_TARGET (linux-x64, linux-arm64, alpine-x64,
// darwin-x64, darwin-arm64, win32-x64). Output: evalsubmit.vsix (or the path given as argument).
//   node tools/package.mjs [out.vsix]
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const client = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const root = path.resolve(client, '..');
const out = process.argv[2] ?? 'evalsubmit.vsix';
const venvPython = path.join(root, '.venv', process.platform === 'win32' ? 'Scripts/python.exe' : 'bin/python');
const python = fs.existsSync(venvPython) ? venvPython : process.platform === 'win32' ? 'python' : 'python3';

const arch = process.arch === 'arm64' ? 'arm64' : 'x64';
const system = process.platform === 'linux' && fs.existsSync('/etc/alpine-release') ? 'alpine' : process.platform;
const target = process.env.EVALSUBMIT_VSIX_TARGET || `${system}-${arch}`;

const run = (cmd, args) => execFileSync(cmd, args, { cwd: client, stdio: 'inherit' });
run(python, [path.join(root, 'scripts', 'bundle_server.py'), '--target', target]);
const vsce = path.join(client, 'node_modules', '.bin', process.platform === 'win32' ? 'vsce.cmd' : 'vsce');
run(vsce, ['package', '--target', target, '--allow-missing-repository', '--skip-license', '-o', out]);
