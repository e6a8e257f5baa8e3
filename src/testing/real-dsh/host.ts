// createDshHost: the createTestHost driver shape over real DeepSeek Harness. A test installs plugin
// packages into a fresh DSH home the way a user does (`dsh plugin --profile <p> add <tarball>`),
// chooses rows (`use`), and runs scripted turns: DSH runs as its own Node 22 process with our driver
// plugin (driver-plugin.ts) in place of the one-shot headless runner, so one process serves many
// turns of one live session and a later process resumes it from disk. The model is a scripted
// OpenAI-compatible endpoint on loopback (chat-server.ts) that DSH's own DeepSeek adapter calls;
// every request body it receives is recorded. `headless()` runs the stock one-shot mode unchanged.

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { stringify } from 'yaml';
import type { SessionEvent, SessionHeader } from '../../host/session.js';
import { compiledAsset } from './assets.js';
import { ScriptedChatServer, type ChatRequest, type ChatResponder, type ChatScript } from './chat-server.js';
import type { DriverOrder, DriverReport } from './driver-plugin.js';
import type { RealDsh } from './install.js';
import { bundleOverrides, bundleRows, type PatchRow } from './patch.js';
import { readSessionLog } from './session-log.js';

/** Options of `createDshHost`. */
export interface DshHostOptions {
  /** The installation to run (`ensureRealDsh(dir)`). */
  readonly dsh: RealDsh;
  /** Packages to install into the profile with `dsh plugin --profile <p> add` (tarball paths, directories or specs), in order. */
  readonly packages?: readonly string[];
  /** The profile to boot; default `headless`. */
  readonly profile?: string;
  /** The agent preset a new session joins where the profile has a preset roster (`web`); default the roster's. */
  readonly agentPreset?: string;
  /** Files of the workspace, by path relative to it. */
  readonly files?: Readonly<Record<string, string>>;
  /** An existing directory to use as the workspace instead of a new one (left as it is: no files written, no `git init`, not removed). */
  readonly workspace?: string;
  /** The session's cwd, relative to the workspace (created if missing); default the workspace itself. */
  readonly cwd?: string;
  /** Make the workspace a git repository (`git init`), so it is a project root; default true. */
  readonly git?: boolean;
  /** Files of the user's home, by path relative to it (e.g. `.dsh/AGENTS.md`). */
  readonly homeFiles?: Readonly<Record<string, string>>;
  /** Arguments for the booted profile's app after the launcher's flags (e.g. `['--no-open', '--port', '0']` for web). */
  readonly args?: readonly string[];
  /** Extra environment for every DSH process. */
  readonly env?: Readonly<Record<string, string>>;
  /** Keep the temporary directory after `close()` (to look at it). */
  readonly keep?: boolean;
  /** A pnpm store shared across hosts (`dsh plugin add` then installs without downloading again); default: pnpm's, in the host's temporary home. */
  readonly pnpmStore?: string;
  /** Milliseconds a boot or a turn may take before the process is killed; default 60 000. */
  readonly timeoutMs?: number;
  /** Milliseconds the scripted model waits before answering each agent step (a real model takes seconds); default 0. */
  readonly modelLatencyMs?: number;
}

/** One row choice of `use`: a bundle row by id, or a plugin module by path. */
export interface DshRow {
  readonly id: string;
  readonly config?: unknown;
}

/** What one `run` did. */
export interface DshTurn {
  /** The session events this turn appended (from the `turn/start`). */
  readonly events: readonly SessionEvent[];
  /** The agent-step requests the model received during the turn. */
  readonly requests: readonly ChatRequest[];
}

/** A live session's state, read from DSH. */
export interface DshSession {
  readonly header: SessionHeader;
  readonly events: readonly SessionEvent[];
  /** `session.surface.nodes`: the seqs of the model-visible events, in order. */
  readonly surface: readonly number[];
}

/** What a one-shot `dsh --profile headless "<task>"` printed. */
export interface HeadlessRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Creates a real-DSH host: a temporary home (`~` and the default `~/.dsh`), a workspace, and the
 * scripted model. Nothing starts until the first `run`, `headless` or `install`.
 * @param options - the installation, the packages to install, files, profile and timeouts.
 * @returns the host; `close()` it when done.
 */
export function createDshHost(options: DshHostOptions): DshHost {
  return new DshHost(options);
}

/** See `createDshHost`. */
export class DshHost {
  /** The temporary root: `home/` (HOME), `work/` (the workspace), the patch files. */
  readonly root: string;
  /** The OS home DSH sees (`HOME`); DSH's home is `~/.dsh` unless `env.DSH_HOME` says otherwise. */
  readonly home: string;
  /** DSH's home directory. */
  readonly dshHome: string;
  /** The workspace (a git repository unless `git: false`). */
  readonly workspace: string;
  /** The session's cwd (the process cwd of every DSH run): the workspace or the `cwd` below it. */
  readonly cwd: string;
  /** The profile directory under DSH's home. */
  readonly profileDir: string;
  readonly profile: string;
  /** Everything DSH printed on stderr, over all processes. */
  stderr = '';
  /** Everything DSH printed on stdout, over all processes. */
  stdout = '';
  readonly #options: DshHostOptions;
  readonly #model: ScriptedChatServer;
  readonly #rows = new Map<string, DshRow & { readonly name?: string }>();
  #userPatch: unknown[] = [];
  #baseUrl: string | undefined;
  #installed = false;
  #sessionId: string | undefined;
  #process: DriverProcess | undefined;
  #orders = 0;
  #webPort: number | undefined;

  constructor(options: DshHostOptions) {
    this.#options = options;
    this.#model = new ScriptedChatServer({ latencyMs: options.modelLatencyMs });
    this.profile = options.profile ?? 'headless';
    this.root = mkdtempSync(join(tmpdir(), 'dsh-host-'));
    this.home = join(this.root, 'home');
    this.dshHome = options.env?.DSH_HOME ?? join(this.home, '.dsh');
    this.workspace = options.workspace ?? join(this.root, 'work');
    this.cwd = join(this.workspace, options.cwd ?? '.');
    this.profileDir = join(this.dshHome, 'profiles', this.profile);
    mkdirSync(this.home, { recursive: true });
    mkdirSync(this.cwd, { recursive: true });
    for (const [path, text] of Object.entries(options.homeFiles ?? {})) this.write(path, text, this.home);
    for (const [path, text] of Object.entries(options.files ?? {})) this.write(path, text);
    if (options.git !== false && options.workspace === undefined) {
      const git = spawnSync('git', ['init', '-q'], { cwd: this.workspace, encoding: 'utf8' });
      if (git.status !== 0) mkdirSync(join(this.workspace, '.git'), { recursive: true });
    }
  }

  /** Agent-step requests the model received, over all turns and processes. */
  get requests(): readonly ChatRequest[] {
    return this.#model.requests;
  }

  /** Other model requests (session titles). */
  get auxiliaryRequests(): readonly ChatRequest[] {
    return this.#model.auxiliary;
  }

  /**
   * The loopback URL of DSH's own web server (`webServer` service) in the running DSH process, for
   * profiles that mount it (`web`); undefined before the first `run` or without one.
   */
  get webUrl(): string | undefined {
    return this.#process !== undefined && this.#webPort !== undefined ? `http://127.0.0.1:${this.#webPort}` : undefined;
  }

  /**
   * Starts DSH with the driver if it is not running (creating or resuming the session), without a turn.
   * @returns once the session's agent is published.
   */
  async start(): Promise<void> {
    await this.#start();
  }

  /** The session's id, once the first `run` has created it. */
  get sessionId(): string | undefined {
    return this.#sessionId;
  }

  /**
   * Chooses a row for the profile: a row id of an installed bundle (its `config` replaces the
   * bundle's, as a DSH patch does; a row the bundle ships disabled is enabled), or a plugin module
   * by absolute path (inserted as a new row). Once any bundle row is chosen, the installed bundles'
   * other rows are disabled, so a test mounts exactly what it names, and DSH keeps the rest as it
   * would be without the bundles: an override of one of DSH's rows (`agent-instructions` disabled)
   * stays only when a row it is made for (the `insert` after it in the patch) is chosen. Call before
   * the first run.
   * @param row - a bundle row id, or an absolute path to a plugin module.
   * @param config - the row's config; omitted: the bundle's.
   * @returns this host.
   */
  use(row: string, config?: unknown): this {
    if (this.#process !== undefined) throw new Error('dsh host: use() after DSH started; call it before the first run');
    if (isAbsolute(row)) {
      const id = `${basename(row).replace(/\.[cm]?js$/, '')}`;
      this.#rows.set(id, { id, name: row, ...(config !== undefined ? { config } : {}) });
    } else {
      this.#rows.set(row, { id: row, ...(config !== undefined ? { config } : {}) });
    }
    return this;
  }

  /**
   * Adds entries to the profile's own patch layer (`cordis.patch.yml`), after the rows `use` writes.
   * @param entries - DSH patch entries (`{ id, disabled }`, `{ id, config }`, `{ insert: [...] }`).
   * @returns this host.
   */
  patch(...entries: readonly unknown[]): this {
    this.#userPatch.push(...entries);
    return this;
  }

  /** Installs the packages (once) and writes the profile patch; `run` and `headless` call it. */
  async install(): Promise<void> {
    if (!this.#installed) {
      this.#baseUrl ??= await this.#model.listen();
      for (const spec of this.#options.packages ?? []) {
        const result = this.#dsh(['plugin', '--profile', this.profile, 'add', isAbsolute(spec) || spec.startsWith('.') ? resolve(spec) : spec], this.root);
        if (result.code !== 0) throw new Error(`dsh plugin add ${spec} failed (exit ${result.code}):\n${result.stdout}${result.stderr}`);
      }
      if (!existsSync(join(this.profileDir, 'package.json'))) {
        // A profile with no plugin added is initialized by its first boot; do it now so the patch has a home.
        const init = this.#dsh(['--profile', this.profile, '--dump-config'], this.cwd);
        if (init.code !== 0) throw new Error(`dsh --profile ${this.profile} --dump-config failed:\n${init.stderr}`);
      }
      this.#installed = true;
    }
    writeFileSync(join(this.profileDir, 'cordis.patch.yml'), stringify([...this.#profileRows(), ...this.#userPatch]));
  }

  /**
   * `dsh --profile <p> --dump-config`: the composed tree DSH would boot.
   * @returns what DSH printed (YAML with layer comments).
   */
  async dumpConfig(): Promise<string> {
    await this.install();
    const result = this.#dsh(['--profile', this.profile, '--dump-config'], this.cwd);
    this.stderr += result.stderr;
    if (result.code !== 0) throw new Error(`dsh --dump-config failed (exit ${result.code}):\n${result.stderr}`);
    return result.stdout;
  }

  /**
   * One user turn in the session (created at the first call, resumed after `restart`): the model
   * answers each agent step from `script`, in order, or every step from a responder function of the
   * request (however many steps the turn takes).
   * @param prompt - the user's text (or content blocks).
   * @param script - one answer per agent step, or a responder.
   * @returns the turn's events and requests.
   * @throws when DSH fails, the turn times out, or answers are missing or left unused.
   */
  async run(prompt: string | readonly unknown[], script: readonly ChatScript[] | ChatResponder): Promise<DshTurn> {
    const content = typeof prompt === 'string' ? [{ type: 'text', text: prompt }] : prompt;
    return this.#scripted({ op: 'turn', id: ++this.#orders, content }, script);
  }

  /**
   * Compacts the idle session as DSH's `/compact` command does (`compaction.compactNow`): one
   * useful older span is summarized by the model (its request carries the conversation's tools, so
   * it takes the next scripted answer) and replaced on the surface by DSH's checkpoint message.
   * @param script - the summarizer's answer.
   * @returns the events compaction appended (none when DSH found nothing to compact) and the summarizer's request.
   */
  async compact(script: readonly ChatScript[]): Promise<DshTurn> {
    return this.#scripted({ op: 'compact', id: ++this.#orders }, script);
  }

  /**
   * What DSH's plugins logged in the running process so far, every level (DSH itself shows none of
   * a plugin's warnings in a headless run).
   * @returns one entry per line logged: level (`error`, `info`, `warn`, `debug`), logger name, text.
   */
  async logs(): Promise<{ level: string; name: string; text: string }[]> {
    const process = await this.#start();
    return (await process.order({ op: 'logs', id: ++this.#orders }, this.#timeout)) as { level: string; name: string; text: string }[];
  }

  /** Sends an order that makes model requests answered from `script`; fails on model errors or unused answers. */
  async #scripted(order: DriverOrder, script: readonly ChatScript[] | ChatResponder): Promise<DshTurn> {
    const process = await this.#start();
    const firstRequest = this.#model.requests.length;
    if (typeof script === 'function') this.#model.respond(script);
    else this.#model.load(script);
    let from: number;
    try {
      ({ from } = (await process.order(order, this.#timeout)) as { from: number; to: number });
    } catch (error) {
      this.#model.reset();
      throw error;
    }
    const errors = [...this.#model.errors];
    const left = this.#model.remaining;
    this.#model.reset();
    if (errors.length > 0) throw new Error(`${errors.join('\n')}\nDSH stderr:\n${this.stderr}`);
    const { events } = await this.session();
    const turn = events.slice(from);
    // DSH ends a turn whose step failed (a surface replacement it refused, a listener that threw) with
    // the error as its reason: that is the cause, and unused answers only its symptom.
    const failed = turn.find((e) => e.type === 'turn/end' && (e.data as { reason?: { kind?: string } }).reason?.kind === 'error');
    if (failed !== undefined) {
      const { turn: number, reason } = failed.data as { turn: number; reason: { error?: { message?: string; code?: string } } };
      throw new Error(`DSH ended turn ${number} with an error: ${reason.error?.message ?? JSON.stringify(reason)}${reason.error?.code !== undefined ? ` (code ${reason.error.code})` : ''}${left > 0 ? `; ${left} scripted answer(s) were left unused` : ''}\nDSH stderr:\n${this.stderr}`);
    }
    if (left > 0) throw new Error(`scripted model: ${left} answer(s) left unused`);
    return { events: turn, requests: this.#model.requests.slice(firstRequest) };
  }

  /**
   * The live session as the running DSH process holds it.
   * @returns the header, every event, and the surface (the seqs of the visible nodes, in order).
   */
  async session(): Promise<DshSession> {
    const process = await this.#start();
    return (await process.order({ op: 'events', id: ++this.#orders }, this.#timeout)) as DshSession;
  }

  /**
   * Ends the DSH process (flushing the session); the next `run` starts a new process that resumes
   * the session from disk (`agent/session-start { source: 'resume' }`).
   */
  async restart(): Promise<void> {
    const running = this.#process;
    if (running === undefined) return;
    this.#process = undefined;
    await running.exit(this.#timeout);
  }

  /**
   * Ends the DSH process (flushing the session); the next `run` creates a new session in a new
   * process, as a user starting DSH again in the same workspace.
   */
  async newSession(): Promise<void> {
    await this.restart();
    this.#sessionId = undefined;
  }

  /**
   * The persisted session log as DSH wrote it (`~/.dsh/sessions/…/session.jsonl[.zstd]`),
   * decompressed: one JSON text per line.
   * @returns the log's lines.
   */
  sessionLog(): string[] {
    if (this.#sessionId === undefined) throw new Error('dsh host: no session yet');
    return readSessionLog(this.dshHome, this.#sessionId);
  }

  /**
   * `dsh --profile <p> "<task>"`: DSH's stock one-shot mode (headless runner, no driver).
   * @param task - the task text.
   * @param script - one answer per agent step.
   * @returns exit code, stdout and stderr.
   */
  async headless(task: string, script: readonly ChatScript[]): Promise<HeadlessRun> {
    await this.install();
    this.#model.load(script);
    const result = await this.#dshAsync(['--profile', this.profile, task], this.cwd);
    const errors = [...this.#model.errors];
    const left = this.#model.remaining;
    this.#model.reset();
    this.stdout += result.stdout;
    this.stderr += result.stderr;
    if (errors.length > 0) throw new Error(`${errors.join('\n')}\nDSH stderr:\n${result.stderr}`);
    if (left > 0) throw new Error(`scripted model: ${left} answer(s) left unused`);
    return result;
  }

  /** Stops DSH and the model, and removes the temporary directory unless `keep`. */
  async close(): Promise<void> {
    try {
      await this.restart();
    } finally {
      await this.#model.close().catch(() => undefined);
      if (this.#options.keep !== true) rmSync(this.root, { recursive: true, force: true });
    }
  }

  get #timeout(): number {
    return this.#options.timeoutMs ?? 60_000;
  }

  /**
   * Writes a file (between turns, e.g. an edit made while DSH was not running).
   * @param path - relative to the workspace (or to `base`).
   * @param text - the content.
   * @param base - default the workspace.
   */
  write(path: string, text: string, base = this.workspace): void {
    const file = join(base, path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
  }

  /**
   * The environment of every DSH process: the caller's (proxies, CA certificates and the like reach
   * pnpm), without anything that would point DSH elsewhere (`DSH_*`, `DEEPSEEK_*`) or npm's
   * lifecycle variables (pnpm reads `npm_config_*`), then this host's home, model and PATH.
   */
  #env(): NodeJS.ProcessEnv {
    const { dsh } = this.#options;
    const env: NodeJS.ProcessEnv = {};
    for (const [key, value] of Object.entries(process.env)) {
      if (!/^(DSH_|DEEPSEEK_|npm_)/i.test(key)) env[key] = value;
    }
    Object.assign(env, {
      PATH: [...dsh.path, process.env.PATH ?? ''].join(process.platform === 'win32' ? ';' : ':'),
      HOME: this.home,
      USERPROFILE: this.home,
      XDG_CONFIG_HOME: join(this.home, '.config'),
      XDG_CACHE_HOME: join(this.home, '.cache'),
      XDG_DATA_HOME: join(this.home, '.local', 'share'),
      DSH_TELEMETRY_DISABLED: '1',
      DEEPSEEK_API_KEY: 'scripted-model-key',
      ...(this.#options.pnpmStore !== undefined ? { pnpm_config_store_dir: this.#options.pnpmStore } : {}),
      ...(this.#baseUrl !== undefined ? { DEEPSEEK_BASE_URL: this.#baseUrl } : {}),
      ...this.#options.env,
    });
    return env;
  }

  #dsh(args: readonly string[], cwd: string): HeadlessRun {
    const { dsh } = this.#options;
    const result = spawnSync(dsh.node, [dsh.dshEntry, ...args], { cwd, env: this.#env(), encoding: 'utf8', timeout: 300_000 });
    return { code: result.status, stdout: result.stdout ?? '', stderr: `${result.stderr ?? ''}${result.error ? String(result.error) : ''}` };
  }

  #dshAsync(args: readonly string[], cwd: string): Promise<HeadlessRun> {
    const { dsh } = this.#options;
    const child = spawn(dsh.node, [dsh.dshEntry, ...args], { cwd, env: this.#env(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), this.#timeout);
    return new Promise((resolve, reject) => {
      child.once('error', reject);
      child.once('close', (code) => {
        clearTimeout(timer);
        resolve({ code, stdout, stderr });
      });
    });
  }

  /**
   * The rows `use` chose, as patch entries; the other rows of installed bundles are disabled, and a
   * bundle's override of a DSH row made for rows not chosen is undone (DSH's loader comes back when
   * the row that replaces it is not chosen).
   */
  #profileRows(): unknown[] {
    if (this.#rows.size === 0) return [];
    const entries: unknown[] = [];
    const inserts: PatchRow[] = [];
    const bundle = bundleRows(this.profileDir);
    // Choosing a bundle row makes the test mount exactly what it names; plugin modules alone leave the bundles as they are.
    const exclusive = bundle.some((row) => this.#rows.has(row.id));
    if (exclusive) {
      for (const override of bundleOverrides(this.profileDir)) {
        if (override.disabled !== undefined && !override.for.some((id) => this.#rows.has(id))) entries.push({ id: override.id, disabled: !override.disabled });
      }
    }
    for (const row of bundle) {
      const chosen = this.#rows.get(row.id);
      if (chosen === undefined) {
        if (exclusive) entries.push({ id: row.id, disabled: true });
      } else entries.push({ id: row.id, disabled: false, ...(chosen.config !== undefined ? { config: chosen.config } : {}) });
    }
    for (const row of this.#rows.values()) {
      if (row.name !== undefined) inserts.push({ id: row.id, name: row.name, ...(row.config !== undefined ? { config: row.config } : {}) });
      else if (!bundle.some((b) => b.id === row.id)) throw new Error(`dsh host: use(${JSON.stringify(row.id)}): no installed bundle has a row with that id (rows: ${bundle.map((b) => b.id).join(', ') || 'none'})`);
    }
    if (inserts.length > 0) entries.push({ insert: inserts });
    return entries;
  }

  async #start(): Promise<DriverProcess> {
    if (this.#process !== undefined) return this.#process;
    await this.install();
    const resume = this.#sessionId !== undefined;
    this.#sessionId ??= `session-${randomUUID()}`;
    const driver = join(this.profileDir, 'dsh-test-driver.mjs');
    copyFileSync(compiledAsset('driver-plugin.js'), driver);
    const patch = join(this.root, 'driver.cordis.patch.yml');
    // The driver takes the one-shot runner's place in the headless profile; other profiles keep their app.
    const oneShot = this.profile === 'headless' ? [{ id: 'headless-runner', disabled: true }, { id: 'headless-startup', disabled: true }] : [];
    writeFileSync(patch, stringify([
      ...oneShot,
      { insert: [{ id: 'dsh-test-driver', name: driver, config: { sessionId: this.#sessionId, resume, cwd: this.cwd, ...(this.#options.agentPreset !== undefined ? { agentPreset: this.#options.agentPreset } : {}) } }] },
    ]));
    const { dsh } = this.#options;
    const args = [dsh.dshEntry, '--profile', this.profile, '--patch', patch, ...(this.#options.args ?? [])];
    const child = spawn(dsh.node, args, { cwd: this.cwd, env: this.#env(), stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (this.stdout += chunk));
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (this.stderr += chunk));
    const running = new DriverProcess(child, () => this.stderr);
    this.#process = running;
    try {
      this.#webPort = (await running.ready(this.#timeout)).webPort;
    } catch (error) {
      this.#process = undefined;
      if (!resume) this.#sessionId = undefined;
      throw error;
    }
    return running;
  }
}

type ReadyReport = Extract<DriverReport, { op: 'ready' }>;

/** One DSH process running the driver plugin, and its IPC conversation. */
class DriverProcess {
  readonly #child: ChildProcess;
  readonly #stderr: () => string;
  readonly #waiting = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  readonly #exited: Promise<number | null>;
  #ready: { resolve(report: ReadyReport): void; reject(error: Error): void } | undefined;
  #readyPromise: Promise<ReadyReport>;
  #failure: string | undefined;

  constructor(child: ChildProcess, stderr: () => string) {
    this.#child = child;
    this.#stderr = stderr;
    this.#readyPromise = new Promise<ReadyReport>((resolve, reject) => (this.#ready = { resolve, reject }));
    this.#readyPromise.catch(() => undefined);
    child.on('message', (report: DriverReport) => this.#receive(report));
    this.#exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
    void this.#exited.then((code) => this.#fail(`DSH exited (code ${code})`));
  }

  ready(timeoutMs: number): Promise<ReadyReport> {
    return this.#deadline(this.#readyPromise, timeoutMs, 'boot');
  }

  order(order: DriverOrder, timeoutMs: number): Promise<unknown> {
    const answer = new Promise<unknown>((resolve, reject) => this.#waiting.set(order.id, { resolve, reject }));
    if (this.#failure !== undefined) this.#fail(this.#failure);
    else this.#child.send(order);
    return this.#deadline(answer, timeoutMs, order.op);
  }

  async exit(timeoutMs: number): Promise<void> {
    if (this.#failure === undefined) {
      await this.order({ op: 'exit', id: -1 }, timeoutMs).catch(() => undefined);
    }
    const timer = setTimeout(() => this.#child.kill('SIGKILL'), timeoutMs);
    await this.#exited;
    clearTimeout(timer);
  }

  #receive(report: DriverReport): void {
    if (report.op === 'ready') this.#ready?.resolve(report);
    else if (report.op === 'done') {
      this.#waiting.get(report.id)?.resolve(report.value);
      this.#waiting.delete(report.id);
    } else if (report.id !== undefined && this.#waiting.has(report.id)) {
      this.#waiting.get(report.id)!.reject(new Error(`dsh-test-driver: ${report.error}`));
      this.#waiting.delete(report.id);
    } else {
      this.#fail(`dsh-test-driver: ${report.error}`);
    }
  }

  #fail(reason: string): void {
    this.#failure ??= reason;
    const error = new Error(`${reason}\nDSH stderr:\n${this.#stderr()}`);
    this.#ready?.reject(error);
    for (const waiter of this.#waiting.values()) waiter.reject(error);
    this.#waiting.clear();
  }

  async #deadline<T>(promise: Promise<T>, timeoutMs: number, what: string): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        this.#child.kill('SIGKILL');
        reject(new Error(`DSH did not finish ${what} within ${timeoutMs} ms\nDSH stderr:\n${this.#stderr()}`));
      }, timeoutMs);
    });
    try {
      return await Promise.race([promise, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
}
