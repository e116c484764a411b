/**
 * The server the extension carries: wheels in `bundled/wheels` (see scripts/bundle_server.py),
 * installed offline, once, into a private venv under the extension's global storage.
 *
 * The venv is made from the user's Python with `-m venv --without-pip` (no ensurepip needed, so
 * Debian's python3 without python3-venv works), and filled by pip run from its bundled wheel
 * (`python pip.whl/pip install --isolated --no-index --find-links ...`), so neither the user's pip
 * nor its configuration nor the network is involved. One venv per (bundle, interpreter): a new
 * extension build or another interpreter gets its own, built next to the others and renamed into
 * place when complete, so a half-built venv is never used and two windows never share a half.
 * No `vscode` import.
 */
import { createHash, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Exec, PythonInfo, cleanEnv, nodeExec, versionText } from './python';

export interface BundleManifest {
  evalsubmit: string;
  requirement: string;
  target: string;
  pythons: string[];
  pip: string;
  id: string;
}

export interface Bundle {
  manifest: BundleManifest;
  wheels: string;
}

const MARKER = '.evalsubmit-complete';

/** `bundled/manifest.json` of the extension, or why it cannot be used. */
export function readBundle(extensionPath: string): Bundle | string {
  const dir = path.join(extensionPath, 'bundled');
  let manifest: BundleManifest;
  try {
    manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as BundleManifest;
  } catch (err) {
    return `the extension has no bundled server (${path.join(dir, 'manifest.json')}: ${(err as Error).message})`;
  }
  for (const key of ['evalsubmit', 'requirement', 'pip', 'id'] as const) {
    if (typeof manifest[key] !== 'string' || manifest[key] === '') {
      return `bundled/manifest.json has no "${key}"`;
    }
  }
  return { manifest, wheels: path.join(dir, 'wheels') };
}

/** The folder holding every private venv (of every bundle and interpreter). */
export function venvsDir(storage: string): string {
  return path.join(storage, 'server');
}

/** The folder of the private venv for this bundle and interpreter. */
export function venvDir(storage: string, bundle: Bundle, python: PythonInfo): string {
  const [major, minor] = python.version;
  const who = createHash('sha256').update(python.executable).digest('hex').slice(0, 10);
  return path.join(venvsDir(storage), `${bundle.manifest.id}-py${major}${minor}-${who}`);
}

export function venvPython(dir: string, platform: NodeJS.Platform = process.platform): string {
  return platform === 'win32' ? path.join(dir, 'Scripts', 'python.exe') : path.join(dir, 'bin', 'python');
}

/** Arguments that start the server from the private venv: `-E -s -P` (= `-I`): no PYTHON*
 * variable, no user site-packages, and not the working directory (the workspace) on sys.path,
 * so nothing of the user's can shadow a module of the server. `-u`: unbuffered stdio. */
export const BUNDLED_SERVER_ARGS = ['-E', '-s', '-P', '-u', '-m', 'evalsubmit.lsp'];

/** Why this Python cannot take the bundled wheels, or undefined when it can. */
export function unsupportedReason(bundle: Bundle, python: PythonInfo): string | undefined {
  const [major, minor] = python.version;
  if (python.freeThreaded) {
    return `${python.executable} is a free-threaded build of Python ${versionText(python)}; the bundled wheels are for the standard build`;
  }
  if (!bundle.manifest.pythons.includes(`${major}.${minor}`)) {
    const range = `${bundle.manifest.pythons[0]}-${bundle.manifest.pythons[bundle.manifest.pythons.length - 1]}`;
    return `the bundled server has wheels for CPython ${range} (${bundle.manifest.target}); ${python.executable} is Python ${versionText(python)}`;
  }
  return undefined;
}

export interface InstallDeps {
  storage: string;
  log: (line: string) => void;
  /** Shows a progress notification while `task` runs (the first start only). */
  progress: <T>(title: string, task: () => Promise<T>) => Promise<T>;
  exec?: Exec;
  platform?: NodeJS.Platform;
}

export type Installed = { ok: true; python: string; dir: string; fresh: boolean } | { ok: false; detail: string };

/** The private venv's python, installing the bundle into a new venv when there is none yet. */
export async function ensureBundledServer(bundle: Bundle, python: PythonInfo, deps: InstallDeps): Promise<Installed> {
  const unsupported = unsupportedReason(bundle, python);
  if (unsupported) {
    return { ok: false, detail: unsupported };
  }
  const exec = deps.exec ?? nodeExec;
  const dir = venvDir(deps.storage, bundle, python);
  const exe = venvPython(dir, deps.platform);
  if (isComplete(dir, bundle)) {
    return { ok: true, python: exe, dir, fresh: false };
  }
  const title = `evalsubmit: installing the language server for Python ${versionText(python)} (first start, offline)`;
  const result = await deps.progress(title, () => install(bundle, python, dir, exec, deps));
  if (result.ok) {
    removeOtherBundles(path.dirname(dir), bundle, deps.log);
  }
  return result;
}

function isComplete(dir: string, bundle: Bundle): boolean {
  try {
    return fs.readFileSync(path.join(dir, MARKER), 'utf8').trim() === bundle.manifest.id;
  } catch {
    return false;
  }
}

async function install(
  bundle: Bundle,
  python: PythonInfo,
  dir: string,
  exec: Exec,
  deps: InstallDeps,
): Promise<Installed> {
  const started = Date.now();
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  const tmp = `${dir}.tmp-${randomBytes(4).toString('hex')}`;
  const env = cleanEnv();
  const step = async (what: string, command: string, args: string[], timeoutMs: number) => {
    deps.log(`${what}: ${command} ${args.join(' ')}`);
    const r = await exec(command, args, timeoutMs, env);
    const output = [r.stdout, r.stderr].map((s) => s.trimEnd()).filter(Boolean).join('\n');
    if (output) {
      deps.log(output);
    }
    if (r.code !== 0) {
      throw new Error(`${what} failed (${r.error ?? `exit code ${r.code}`}): ${lastLines(output) || 'no output'}`);
    }
  };
  try {
    await step('Creating the server venv', python.executable, ['-E', '-s', '-m', 'venv', '--without-pip', tmp], 120_000);
    const tmpPython = venvPython(tmp, deps.platform);
    const pip = path.join(bundle.wheels, bundle.manifest.pip, 'pip');
    await step('Installing the bundled wheels', tmpPython, [
      '-E', '-s', pip, 'install', '--isolated', '--no-index', '--find-links', bundle.wheels,
      '--disable-pip-version-check', '--no-warn-script-location', '--no-input', '--quiet',
      bundle.manifest.requirement,
    ], 10 * 60_000);
    await step('Checking the server imports', tmpPython, ['-E', '-s', '-P', '-c', 'import evalsubmit.lsp'], 60_000);
    fs.writeFileSync(path.join(tmp, MARKER), `${bundle.manifest.id}\n`);
    try {
      fs.renameSync(tmp, dir);
    } catch (err) {
      // Another window finished first (or a stale incomplete folder is in the way).
      if (!isComplete(dir, bundle)) {
        fs.rmSync(dir, { recursive: true, force: true });
        fs.renameSync(tmp, dir);
      } else {
        deps.log(`Another window installed the server first (${(err as Error).message}); using it.`);
      }
    }
    deps.log(`Server installed in ${dir} in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
    return { ok: true, python: venvPython(dir, deps.platform), dir, fresh: true };
  } catch (err) {
    return { ok: false, detail: (err as Error).message };
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/** Venvs of earlier extension builds are deleted (best effort: one in use on Windows stays). */
function removeOtherBundles(parent: string, bundle: Bundle, log: (line: string) => void): void {
  let names: string[];
  try {
    names = fs.readdirSync(parent);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(`${bundle.manifest.id}-`) && !name.includes('.tmp-')) {
      try {
        fs.rmSync(path.join(parent, name), { recursive: true, force: true });
        log(`Removed the server venv of an earlier build: ${name}`);
      } catch {
        // in use
      }
    }
  }
}

function lastLines(text: string, n = 3): string {
  return text.trim().split('\n').slice(-n).join(' | ');
}
