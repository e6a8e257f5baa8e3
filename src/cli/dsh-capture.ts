// Exact mode of `dsh-context inspect`: the first model request of the user's own DSH, captured.
// DSH runs headless in the chosen profile and the session's working directory, in a throwaway copy
// of the DSH home (dsh-home-copy.ts), with DeepSeek's endpoint pointed at a capture endpoint on
// loopback. The endpoint keeps the first agent request's body exactly as it arrived and inspect then
// ends DSH, so no model is ever called; the probe plugin (dsh-probe.ts), mounted for the run through
// a `--patch` overlay, reports what the request is made of. Git's optional index refresh is turned
// off (GIT_OPTIONAL_LOCKS=0) so that the `git status` plugins run leaves the repository untouched.

import { spawn } from 'node:child_process';
import { accessSync, constants, copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { HomeEnvironment } from '../host/index.js';
import { copyDshHome, type HomeCopy } from './dsh-home-copy.js';
import type { ProbeConfig, ProbeReport } from './dsh-probe.js';
import { CliError } from './env.js';

/** How long DSH may take from start to its first request before inspect gives up. */
export const CAPTURE_TIMEOUT_MS = 120_000;
/** Most bytes of a request body kept (a first request is tens of kilobytes). */
const MAX_BODY_BYTES = 64 * 1024 * 1024;
/** Most entries of the OS home linked into the throwaway one. */
const MAX_HOME_ENTRIES = 10_000;
/** Most bytes of DSH's output kept for an error message. */
const MAX_OUTPUT_BYTES = 64 * 1024;
/** The probe's file name in the throwaway profile directory. */
const PROBE_FILE = 'dsh-context-inspect-probe.mjs';
/** The bundle that gives a profile DSH's one-shot runner (`dsh --profile headless "<task>"`). */
const HEADLESS_BUNDLE = '@deepseek-ai/dsh-headless';
/** The bundle of DSH's web app, whose server must not take the user's port. */
const WEB_BUNDLE = '@deepseek-ai/dsh-web-app';
/** The profiles DSH creates from a template on first use, and their bundles (dsh-app-boot). */
const PROFILE_TEMPLATES: Readonly<Record<string, readonly string[]>> = {
  headless: ['@deepseek-ai/dsh-base', HEADLESS_BUNDLE],
  web: ['@deepseek-ai/dsh-base', WEB_BUNDLE],
};

/** What `captureFirstRequest` needs. */
export interface CaptureOptions {
  /** The `dsh` executable. */
  readonly dsh: string;
  /** The DSH home to copy (the user's), and whether it is the default `~/.dsh` (else DSH_HOME names it). */
  readonly dshHome: { readonly path: string; readonly isDefault: boolean };
  /** The DSH profile to boot. */
  readonly profile: string;
  /** The session's working directory. */
  readonly cwd: string;
  /** The user's first message. */
  readonly prompt: string;
  /** The environment DSH is started with (its HOME included). */
  readonly environment: HomeEnvironment;
  /** A context profile to start the session under instead of the one the home's state names. */
  readonly contextProfile?: string;
  /** A profile directory to use instead of the copied home's own (`--sample`: the user's profile over the sample's home). */
  readonly profileDir?: string;
  readonly timeoutMs?: number;
}

/** The captured request and what it is made of. */
export interface Capture {
  /** The request body exactly as DSH sent it. */
  readonly body: Buffer;
  readonly probe: ProbeReport;
  readonly home: HomeCopy;
  /** Milliseconds: copying the home, and from starting DSH to holding its request. */
  readonly timings: { readonly copy: number; readonly dsh: number };
}

/**
 * The `dsh` to run: `explicit` (`--dsh`), else the first `dsh` on PATH.
 * @param explicit - a path given by the user, if any.
 * @param env - the environment whose PATH is searched.
 * @param cwd - what a relative `explicit` is relative to.
 * @returns the executable, or undefined when none is found (and none was given).
 * @throws CliError when `explicit` is not an executable file.
 */
export function findDsh(explicit: string | undefined, env: NodeJS.ProcessEnv, cwd: string): string | undefined {
  if (explicit !== undefined) {
    const path = resolve(cwd, explicit);
    if (!executable(path)) throw new CliError(`--dsh ${explicit}: not an executable file`, 'pass the path of the `dsh` command (`command -v dsh`), or leave --dsh out to use the one on PATH');
    return path;
  }
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir === '' || !isAbsolute(dir)) continue;
    for (const name of process.platform === 'win32' ? ['dsh.cmd', 'dsh.exe', 'dsh'] : ['dsh']) {
      const path = join(dir, name);
      if (executable(path)) return path;
    }
  }
  return undefined;
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** The compiled probe plugin, beside this module in the build (`lib/cli/dsh-probe.js`). */
function probeModule(): string {
  const here = fileURLToPath(import.meta.url);
  const dir = here.endsWith('.ts') ? join(dirname(here), '..', '..', 'lib', 'cli') : dirname(here);
  return join(dir, 'dsh-probe.js');
}

/**
 * Runs the user's DSH until its first model request and returns that request; see the file comment.
 * @param options - which DSH, home, profile, directory and prompt.
 * @returns the request body as sent, the probe's report, and the time taken.
 * @throws CliError when DSH fails, exits or times out before its first request, or the probe stopped it.
 */
export async function captureFirstRequest(options: CaptureOptions): Promise<Capture> {
  const root = mkdtempSync(join(tmpdir(), 'dsh-context-inspect-'));
  try {
    const started = performance.now();
    // Plugins name the home in model-visible text (`~/.dsh/AGENTS.md`, `$DSH_HOME/AGENTS.md`): the
    // copy is reached the way the user's home is, through DSH_HOME, or as `~/.dsh` of a throwaway OS
    // home whose other entries link to the user's (`~/.agents/skills`, `~/.claude/rules`, git's config).
    const osHome = options.dshHome.isDefault ? linkedHome(options.environment.homedir, join(root, 'home')) : options.environment.homedir;
    const home = options.dshHome.isDefault ? join(osHome, '.dsh') : join(root, 'dsh');
    let copied = copyDshHome(options.dshHome.path, home);
    const profileDir = join(home, 'profiles', options.profile);
    if (options.profileDir !== undefined) {
      rmSync(profileDir, { recursive: true, force: true });
      const profile = copyDshHome(options.profileDir, profileDir);
      copied = { entries: copied.entries + profile.entries, bytes: copied.bytes + profile.bytes, linked: copied.linked + profile.linked, skipped: copied.skipped };
    }
    mkdirSync(profileDir, { recursive: true });
    if (options.contextProfile !== undefined) await chooseContextProfile(home, options.contextProfile);
    const copy = performance.now() - started;

    const server = new CaptureServer();
    const capture = await server.listen();
    try {
      const report = join(root, 'probe.json');
      const bundles = profileBundles(profileDir, options.profile);
      const oneShot = bundles.includes(HEADLESS_BUNDLE);
      const probe: ProbeConfig = { report, capture, ...(oneShot ? {} : { drive: { prompt: options.prompt, cwd: options.cwd } }) };
      copyFileSync(probeModule(), join(profileDir, PROBE_FILE));
      const overlay = join(root, 'probe.cordis.patch.yml');
      // JSON is YAML: the overlay is written without loading a YAML library before DSH starts.
      writeFileSync(overlay, JSON.stringify([{ insert: [{ id: 'dsh-context-inspect-probe', name: join(profileDir, PROBE_FILE), config: probe }] }], null, 2));
      const args = ['--profile', options.profile, '--patch', overlay, ...(oneShot ? [options.prompt] : bundles.includes(WEB_BUNDLE) ? ['--no-open', '--port', '0'] : [])];
      const { DSH_HOME: _userHome, ...inherited } = options.environment.env;
      const env: NodeJS.ProcessEnv = {
        ...inherited,
        HOME: osHome,
        ...(process.platform === 'win32' ? { USERPROFILE: osHome } : {}),
        ...(options.dshHome.isDefault ? {} : { DSH_HOME: home }),
        DEEPSEEK_BASE_URL: capture,
        // The adapter refuses to start without a key; the request goes to loopback, so no real key is needed.
        DEEPSEEK_API_KEY: 'dsh-context-inspect',
        DSH_TELEMETRY_DISABLED: '1',
        GIT_OPTIONAL_LOCKS: '0',
      };
      const dshStarted = performance.now();
      const body = await runUntilRequest(options.dsh, args, options.cwd, env, server, options.timeoutMs ?? CAPTURE_TIMEOUT_MS, report);
      const dsh = performance.now() - dshStarted;
      const probeReport = JSON.parse(readFileSync(report, 'utf8')) as ProbeReport;
      if (probeReport.error !== undefined) throw new CliError(`the inspect probe inside DSH failed: ${probeReport.error}`);
      return { body, probe: probeReport, home: copied, timings: { copy, dsh } };
    } finally {
      await server.close();
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/**
 * A throwaway OS home at `to` whose entries are links to those of `from`, but for `.dsh`, which the
 * caller fills with the copy of the DSH home.
 */
function linkedHome(from: string, to: string): string {
  mkdirSync(to, { mode: 0o700 });
  let names: string[] = [];
  try {
    names = readdirSync(from);
  } catch {
    // No readable home: the throwaway one has the DSH home only.
  }
  if (names.length > MAX_HOME_ENTRIES) throw new CliError(`the home ${from} holds ${names.length} entries; inspect links at most ${MAX_HOME_ENTRIES} of them into the throwaway home it runs DSH in`, 'set DSH_HOME to your DSH home, or use --offline');
  for (const name of names) if (name !== '.dsh') symlinkSync(join(from, name), join(to, name));
  return to;
}

/** The bundles a profile composes: its manifest's, else the template DSH creates it from. */
function profileBundles(profileDir: string, profile: string): readonly string[] {
  try {
    const manifest = JSON.parse(readFileSync(join(profileDir, 'package.json'), 'utf8')) as { dsh?: { profile?: { bundles?: unknown } } };
    const bundles = manifest.dsh?.profile?.bundles;
    return Array.isArray(bundles) ? bundles.filter((b): b is string => typeof b === 'string') : [];
  } catch {
    return PROFILE_TEMPLATES[profile] ?? [];
  }
}

/** Makes `id` the context profile a new session starts under, in the throwaway home's state file (through context-profiles' own store). */
async function chooseContextProfile(home: string, id: string): Promise<void> {
  const [{ StateStore }, { StateError }] = await Promise.all([import('../plugins/context-profiles/store.js'), import('../plugins/context-profiles/normalize.js')]);
  const store = new StateStore(home, { warn: () => undefined });
  store.load();
  try {
    store.choose('dsh-context-inspect', id);
  } catch (error) {
    if (error instanceof StateError) throw new CliError(`--context-profile: ${error.message}`, 'pass a profile of your DSH home (dsh-context profiles serve lists them)');
    throw error;
  }
}

/** Starts DSH and resolves with the first agent request's body, ending DSH (its process group) then. */
function runUntilRequest(dsh: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv, server: CaptureServer, timeoutMs: number, report: string): Promise<Buffer> {
  const child = spawn(dsh, args, { cwd, env, detached: process.platform !== 'win32', stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
  let output = '';
  const keep = (chunk: Buffer): void => {
    if (output.length < MAX_OUTPUT_BYTES) output += chunk.toString('utf8');
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const end = (): void => {
    try {
      if (child.pid !== undefined && process.platform !== 'win32') process.kill(-child.pid, 'SIGKILL');
      else child.kill('SIGKILL');
    } catch {
      // Already gone.
    }
  };
  const exited = new Promise<void>((done) => child.once('close', () => done()));
  return new Promise<Buffer>((resolvePromise, reject) => {
    const timer = setTimeout(() => {
      end();
      reject(new CliError(`${dsh} did not send its first model request within ${timeoutMs / 1000} s${tail(output)}`, 'run the same `dsh --profile … "<prompt>"` yourself to see why, or use --offline'));
    }, timeoutMs);
    server.onRequest = (body) => {
      clearTimeout(timer);
      end();
      void exited.then(() => resolvePromise(body));
    };
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(new CliError(`cannot start ${dsh}: ${error.message}`, 'pass the path of the `dsh` command with --dsh, or use --offline'));
    });
    child.once('close', (code, signal) => {
      if (server.body !== undefined) return;
      clearTimeout(timer);
      const probe = readProbeError(report);
      reject(new CliError(probe ?? `${dsh} exited (${signal ?? `code ${code}`}) before its first model request${tail(output)}`, probe !== undefined ? undefined : 'check that this dsh boots the profile (`dsh --profile <name> --dump-config`), or use --offline'));
    });
  });
}

function readProbeError(report: string): string | undefined {
  try {
    const error = (JSON.parse(readFileSync(report, 'utf8')) as ProbeReport).error;
    return error === undefined ? undefined : `DSH was stopped before its first request: ${error}`;
  } catch {
    return undefined;
  }
}

function tail(output: string): string {
  const text = output.trim();
  return text === '' ? '' : `; it printed:\n${text.length > 4000 ? `…${text.slice(-4000)}` : text}`;
}

/**
 * The capture endpoint: an OpenAI-style `POST /v1/chat/completions` on 127.0.0.1 that keeps the
 * first request carrying `tools` (an agent step) as received and answers nothing; other requests
 * (a session title) get a 503, which DSH logs and goes on.
 */
class CaptureServer {
  body: Buffer | undefined;
  onRequest: ((body: Buffer) => void) | undefined;
  readonly #server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      if (this.body === undefined && size <= MAX_BODY_BYTES && request.method === 'POST' && isAgentStep(body)) {
        this.body = body;
        this.onRequest?.(body);
        return; // DSH is ended now; the request is never answered.
      }
      response.writeHead(503, { 'content-type': 'application/json' }).end('{"error":{"message":"dsh-context inspect answers no model request"}}');
    });
  });

  async listen(): Promise<string> {
    await new Promise<void>((done, fail) => {
      this.#server.once('error', fail);
      this.#server.listen(0, '127.0.0.1', done);
    });
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}/v1`;
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((done) => this.#server.close(() => done()));
  }
}

function isAgentStep(body: Buffer): boolean {
  try {
    return Array.isArray((JSON.parse(body.toString('utf8')) as { tools?: unknown }).tools);
  } catch {
    return false;
  }
}
