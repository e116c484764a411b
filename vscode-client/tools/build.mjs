// Bundles the extension (src/extension.ts and everything it imports, vscode-languageclient
// included) into one file, out/extension.js: the .vsix then carries no node_modules. `vscode`
// is the editor's own module. Type checking is `npm run typecheck` (esbuild only strips types).
//   node tools/build.mjs [--watch]
import * as esbuild from 'esbuild';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const client = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const options = {
  absWorkingDir: client,
  entryPoints: ['src/extension.ts'],
  outfile: 'out/extension.js',
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node18',
  external: ['vscode'],
  sourcemap: true, // out/*.map stays out of the .vsix (.vscodeignore)
  logLevel: 'warning',
};

if (process.argv.includes('--watch')) {
  await (await esbuild.context({ ...options, logLevel: 'info' })).watch();
} else {
  await esbuild.build(options);
}
