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

// The README (the extension's page) links the project's docs: they travel in the .vsix, in docs/.
const docs = path.join(client, 'docs');
fs.rmSync(docs, { recursive: true, force: true });
fs.mkdirSync(docs);
for (const name of ['vscode.md', 'lsp.md', 'rules.md', 'platform.md']) {
  fs.copyFileSync(path.join(root, 'docs', name), path.join(docs, name));
}

const vsce = path.join(client, 'node_modules', '.bin', process.platform === 'win32' ? 'vsce.cmd' : 'vsce');
// every relative link of the README must be a file of the package
const packaged = new Set(
  execFileSync(vsce, ['ls', '--no-dependencies'], { cwd: client, encoding: 'utf8' })
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean),
);
const readme = fs.readFileSync(path.join(client, 'README.md'), 'utf8');
const links = [...readme.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)].map((m) => m[1]).filter((l) => !/^[a-z]+:/i.test(l));
const broken = links.filter((l) => !packaged.has(path.normalize(l)));
if (broken.length) {
  console.error(`README.md links files the .vsix would not contain: ${broken.join(', ')}`);
  process.exit(1);
}
// relative links stay relative: VS Code resolves them in the installed extension's folder
run(vsce, ['package', '--no-dependencies', '--target', target, '--allow-missing-repository', '--skip-license', '--no-rewrite-relative-links', '-o', out]);
