// The runtimes the examples run in besides Node (Deno, Bun, Chromium through playwright-core), found
// or installed for the runtime tests (test/runtimes) and bench/runtimes.ts. Deno, Bun and
// playwright-core are pinned in test/runtimes/tools/package.json + package-lock.json and installed
// with `npm ci` into `.test-tools/` (gitignored) the first time they are missing: they are test
// tools, not dependencies, so a user's `npm install` and a newcomer's `npm ci` never download them.
// Chromium is the system's (Debian's `chromium` package); playwright-core downloads no browser.

import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';
import { pathToFileURL } from 'node:url';

/** Where the pinned manifest lives and where the tools are installed, relative to the repository. */
export const TOOLS_MANIFEST_DIR = 'test/runtimes/tools';
export const TOOLS_DIR = '.test-tools';
/** The browser the Chromium tests drive; DSH_TEST_CHROMIUM overrides it on machines without Debian's package. */
export const CHROMIUM_PATH = process.env.DSH_TEST_CHROMIUM ?? '/usr/bin/chromium';

/** A tool that is ready (`path` to run or import) or why it is not (`error`, said so a person can act). */
export type Tool = { readonly path: string; readonly version: string } | { readonly error: string };

export interface RuntimeTools {
  readonly deno: Tool;
  readonly bun: Tool;
  /** `path` is playwright-core's module entry, to `import()`. */
  readonly playwrightCore: Tool;
  /** `path` is the browser's executable; `version` is what `--version` printed. */
  readonly chromium: Tool;
}

function run(file: string, args: readonly string[], cwd?: string): { ok: boolean; out: string } {
  const result = spawnSync(file, args, { cwd, encoding: 'utf8', timeout: 240_000, shell: process.platform === 'win32' });
  const out = `${result.stdout ?? ''}${result.stderr ?? ''}${result.error ? String(result.error) : ''}`.trim();
  return { ok: result.status === 0, out };
}

/**
 * Installs the pinned tools into `<root>/.test-tools` unless the lockfile installed there is already
 * the committed one. `--ignore-scripts`: the packages' postinstall scripts only copy the platform
 * binary out of its platform package, and the binaries are run from those packages directly, so no
 * third-party install script runs and npm's script policy makes no difference.
 */
function install(root: string): string | undefined {
  const manifest = join(root, TOOLS_MANIFEST_DIR);
  const target = join(root, TOOLS_DIR);
  const lock = readFileSync(join(manifest, 'package-lock.json'), 'utf8');
  const installed = join(target, 'package-lock.json');
  if (existsSync(installed) && readFileSync(installed, 'utf8') === lock && existsSync(join(target, 'node_modules/.package-lock.json'))) {
    return undefined;
  }
  mkdirSync(target, { recursive: true });
  copyFileSync(join(manifest, 'package.json'), join(target, 'package.json'));
  copyFileSync(join(manifest, 'package-lock.json'), installed);
  const npm = run('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], target);
  if (!npm.ok) return `\`npm ci\` of the runtime test tools in ${target} failed (network? registry?):\n${npm.out}`;
  return undefined;
}

function pinnedVersion(root: string, name: string): string {
  const manifest = JSON.parse(readFileSync(join(root, TOOLS_MANIFEST_DIR, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  return manifest.dependencies[name]!;
}

/**
 * Finds a runtime's binary inside the platform package npm installed for this machine (one of the
 * wrapper package's optionalDependencies) and checks that it runs and is the pinned version.
 */
function binary(root: string, name: string, files: readonly string[], versionArgs: readonly string[]): Tool {
  const modules = join(root, TOOLS_DIR, 'node_modules');
  const wanted = pinnedVersion(root, name);
  let platforms: string[];
  try {
    const wrapper = JSON.parse(readFileSync(join(modules, name, 'package.json'), 'utf8')) as { optionalDependencies?: Record<string, string> };
    platforms = Object.keys(wrapper.optionalDependencies ?? {});
  } catch {
    return { error: `${name} is not installed in ${modules} (delete ${TOOLS_DIR}/ to reinstall)` };
  }
  const installed = platforms.filter((p) => existsSync(join(modules, p)));
  const candidates = installed.flatMap((p) => files.map((f) => join(modules, p, f))).filter((f) => existsSync(f));
  if (candidates.length === 0) {
    return { error: `${name} ${wanted} has no binary for ${process.platform}-${process.arch} (platform packages installed: ${installed.join(', ') || 'none'}; delete ${TOOLS_DIR}/ to reinstall)` };
  }
  const errors: string[] = [];
  for (const path of candidates) {
    const check = run(path, versionArgs);
    if (check.ok && check.out.includes(wanted)) return { path, version: check.out.split('\n')[0]! };
    errors.push(`${path} ${versionArgs.join(' ')}: ${check.ok ? `printed ${JSON.stringify(check.out)}, not ${wanted}` : check.out || 'failed'}`);
  }
  return { error: `${name} ${wanted} does not run on this machine:\n${errors.join('\n')}` };
}

/** playwright-core is a devDependency (a small JS library, shared with the context-profiles panel test). */
function playwrightCore(root: string): Tool {
  try {
    const require = createRequire(join(root, 'package.json'));
    const version = (require('playwright-core/package.json') as { version: string }).version;
    return { path: require.resolve('playwright-core'), version };
  } catch (error) {
    return { error: `playwright-core (a devDependency) is not installed in ${root}/node_modules; run npm ci: ${String(error)}` };
  }
}

function chromium(): Tool {
  if (!existsSync(CHROMIUM_PATH)) {
    return { error: `no Chromium at ${CHROMIUM_PATH}: install Debian's \`chromium\` package (apt-get install chromium) or set DSH_TEST_CHROMIUM to a Chromium executable` };
  }
  const check = run(CHROMIUM_PATH, ['--version']);
  if (!check.ok) return { error: `${CHROMIUM_PATH} --version failed: ${check.out}` };
  return { path: CHROMIUM_PATH, version: check.out.split('\n').find((line) => line.startsWith('Chromium')) ?? check.out };
}

/**
 * Installs what is missing and reports every tool: ready, or why not. Never throws for a missing
 * tool, so that each runtime's test fails on its own with the reason.
 */
export function ensureRuntimeTools(root: string): RuntimeTools {
  const installError = install(root);
  if (installError !== undefined) {
    const error = { error: installError };
    return { deno: error, bun: error, playwrightCore: error, chromium: chromium() };
  }
  return {
    deno: binary(root, 'deno', ['deno', 'deno.exe'], ['--version']),
    bun: binary(root, 'bun', ['bin/bun', 'bin/bun.exe'], ['--version']),
    playwrightCore: playwrightCore(root),
    chromium: chromium(),
  };
}

/** The tool's path, or an Error that says why it cannot be used. */
export function toolPath(name: string, tool: Tool): string {
  if ('error' in tool) throw new Error(`${name} is unavailable, so its runtime test cannot run: ${tool.error}`);
  return tool.path;
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.wasm': 'application/wasm', '.tokenizer': 'application/octet-stream',
};

/**
 * Serves the browser example over loopback HTTP (a page cannot fetch a .wasm from file://): only
 * files under examples/, build/engine.wasm and the tokenizer table, nothing else of the repository.
 */
export async function serveExamples(root: string): Promise<{ readonly origin: string; close(): Promise<void> }> {
  const server = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://localhost').pathname);
    const file = normalize(join(root, path));
    const allowed = file === join(root, 'build/engine.wasm') || file === join(root, 'build/deepseek-v3.tokenizer') || file.startsWith(join(root, 'examples') + sep);
    const type = CONTENT_TYPES[extname(file)];
    if (request.method !== 'GET' || !allowed || type === undefined || !existsSync(file)) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' }).end(readFileSync(file));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

// The few playwright-core calls used here; playwright-core is loaded from .test-tools/ at run time,
// so its own types are not available when the tests are type-checked.
interface Page {
  on(event: 'pageerror' | 'console', listener: (value: { toString(): string }) => void): void;
  goto(url: string): Promise<unknown>;
  waitForFunction(expression: string, arg: undefined, options: { timeout: number }): Promise<unknown>;
  evaluate(expression: string): Promise<unknown>;
  textContent(selector: string): Promise<string | null>;
}
interface Browser {
  version(): string;
  newPage(): Promise<Page>;
  close(): Promise<void>;
}
interface PlaywrightCore {
  chromium: { launch(options: { executablePath: string; headless: boolean }): Promise<Browser> };
}

/**
 * Opens examples/browser/ in headless Chromium and returns what the page left on `window`
 * (`demoResults`, or `benchResults` with `?bench`) and the text it shows. Throws with the page's
 * errors and console when it fails.
 */
export async function runBrowserExample(root: string, tools: RuntimeTools, bench: boolean, timeout = 60_000): Promise<{ value: unknown; text: string; browser: string }> {
  const modulePath = toolPath('playwright-core', tools.playwrightCore);
  const executablePath = toolPath('Chromium', tools.chromium);
  // `path` is the CommonJS entry: Node puts its exports on `default`, Vite-based runners hoist them.
  const loaded = (await import(pathToFileURL(modulePath).href)) as Partial<PlaywrightCore> & { default?: PlaywrightCore };
  const { chromium } = loaded.chromium !== undefined ? loaded as PlaywrightCore : loaded.default!;
  const server = await serveExamples(root);
  const browser = await chromium.launch({ executablePath, headless: true });
  try {
    const page = await browser.newPage();
    const log: string[] = [];
    page.on('pageerror', (error) => log.push(`page error: ${error.toString()}`));
    page.on('console', (message) => log.push(`console: ${message.toString()}`));
    const key = bench ? 'benchResults' : 'demoResults';
    await page.goto(`${server.origin}/examples/browser/index.html${bench ? '?bench' : ''}`);
    try {
      await page.waitForFunction(`window.${key} !== undefined || window.exampleError !== undefined`, undefined, { timeout });
    } catch (error) {
      throw new Error(`examples/browser/ gave no ${key} within ${timeout} ms: ${String(error)}\n${log.join('\n')}`);
    }
    const failure = await page.evaluate('window.exampleError');
    if (failure !== undefined) throw new Error(`examples/browser/ failed: ${String(failure)}\n${log.join('\n')}`);
    return { value: await page.evaluate(`window.${key}`), text: (await page.textContent('#output')) ?? '', browser: browser.version() };
  } finally {
    await browser.close();
    await server.close();
  }
}
