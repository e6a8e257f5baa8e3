// `dsh-context inspect` in both its modes. Exact (a `dsh` was found): the first request of the
// user's own DSH, captured (dsh-capture.ts) and broken down (breakdown.ts), beside the plugins' own
// account of the instruction files, memory index and rules (inspect.ts). Offline (no `dsh`, or
// `--offline`): the plugins' part only, from the plugins run on the offline host, headed as such.

import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DEFAULT_HOME_DISPLAY, resolveDshHome, type HomeEnvironment } from '../host/index.js';
import type { PluginNames, RequestBreakdown } from './breakdown.js';
import { captureFirstRequest, findDsh } from './dsh-capture.js';
import type { HomeCopy } from './dsh-home-copy.js';
import { CliError, WORKSPACE_CONTEXT_MODULE } from './env.js';
import type { ProbeReport } from './dsh-probe.js';
import type { InspectOptions, InspectReport } from './inspect.js';

/** The context profile `none` (context-profiles' NONE), spelled here so that starting DSH waits for no plugin module. */
const NO_CONTEXT_PROFILE = 'none';

/** The options of either mode. */
export interface InspectCommandOptions extends Omit<InspectOptions, 'profile'> {
  /** `--dsh`: the `dsh` to run; otherwise the one on PATH. */
  readonly dsh?: string;
  /** `--offline`: do not run DSH. */
  readonly offline?: boolean;
  /** `--profile`: the DSH profile (default `headless`). */
  readonly dshProfile: string;
  /** `--context-profile`: the context profile the session starts under (exact: default the home's; offline: default none). */
  readonly contextProfile?: string;
  /** `--prompt`: the user's first message. */
  readonly prompt: string;
  /** A DSH profile directory to use over the inspected home's (`--sample`: the user's own profile). */
  readonly profileDir?: string;
  /** The environment `dsh` is looked up in (PATH) and started with; its HOME is `environment.homedir`. */
  readonly launchEnv: NodeJS.ProcessEnv;
  /** The directory the user ran the command in: what a relative `--dsh` is relative to (with `--sample`, not the sample's). */
  readonly launchCwd: string;
}

/** The captured request and how it was taken. */
export interface ExactRequest {
  /** The `dsh` that ran. */
  readonly dsh: string;
  readonly profile: string;
  readonly prompt: string;
  /** The DSH home copied for the run, and what the copy held. */
  readonly home: { readonly from: string; readonly copy: HomeCopy };
  /** The request body exactly as DSH sent it (JSON text). */
  readonly body: string;
  readonly breakdown: RequestBreakdown;
  /**
   * Milliseconds. `start`: this process's start to the command's; `copy`: the home copy; from DSH's
   * process start: `plugins` loaded, `agent` created, first `assemble`, `request` built; `dsh`: from
   * starting DSH to holding its request with DSH ended; `pluginsPart`: the plugins' own account (run
   * beside DSH); `breakdown`: the token breakdown; `total`: this process's start to the report.
   */
  readonly timings: Readonly<Record<'start' | 'copy' | 'plugins' | 'agent' | 'assemble' | 'request' | 'dsh' | 'pluginsPart' | 'breakdown' | 'total', number>>;
}

/** The report of either mode. */
export type InspectResult =
  | (InspectReport & { readonly mode: 'offline'; readonly reason: string })
  | (Omit<InspectReport, 'messages' | 'tokens'> & { readonly mode: 'exact'; readonly request: ExactRequest });


/**
 * Runs inspect in exact mode when a `dsh` is found (and `--offline` is not given), else offline.
 * @param options - the command's options.
 * @returns the report.
 * @throws CliError when DSH is found but fails before its first request.
 */
export async function inspectCommand(options: InspectCommandOptions): Promise<InspectResult> {
  // performance.now() counts from this process's start.
  const started = performance.now();
  const { environment } = options;
  const dsh = options.offline === true ? undefined : findDsh(options.dsh, options.launchEnv, options.launchCwd);
  if (dsh === undefined) {
    const reason = options.offline === true ? '--offline was given' : 'no `dsh` command was found on PATH (pass --dsh <path>)';
    const contextProfile = options.contextProfile ?? NO_CONTEXT_PROFILE;
    const [{ inspect }, { PROFILE_IDS }] = await Promise.all([import('./inspect.js'), import('./offline-request.js')]);
    if (!PROFILE_IDS.includes(contextProfile)) throw new CliError(`--context-profile ${contextProfile}: offline, inspect knows the built-in profiles only (${PROFILE_IDS.join(', ')})`, 'run it with a dsh to use the profiles of your DSH home');
    return { mode: 'offline', reason, ...(await inspect({ ...options, profile: contextProfile })) };
  }
  const homeEnv = options.dshHome === undefined ? environment : { ...environment, env: { ...environment.env, DSH_HOME: options.dshHome } };
  const resolved = resolveDshHome(options.dshHome, homeEnv);
  const dshHome = resolved.path;
  // DSH starts first; the plugins' own account (files, memory index, rules, and the names of what they
  // register, from their session without a context profile) loads and runs beside its boot.
  const capturing = captureFirstRequest({
    dsh, dshHome: { path: dshHome, isDefault: resolved.display === DEFAULT_HOME_DISPLAY }, profile: options.dshProfile, cwd: options.cwd, prompt: options.prompt,
    environment: { ...environment, env: options.dshHome !== undefined ? { ...options.launchEnv, DSH_HOME: options.dshHome } : options.launchEnv },
    ...(options.contextProfile !== undefined ? { contextProfile: options.contextProfile } : {}),
    ...(options.profileDir !== undefined ? { profileDir: options.profileDir } : {}),
  });
  capturing.catch(() => undefined);
  const pluginsStarted = performance.now();
  let pluginsPart = 0;
  const { inspect } = await import('./inspect.js');
  const plugins = inspect({ ...options, profile: NO_CONTEXT_PROFILE }).finally(() => (pluginsPart = performance.now() - pluginsStarted));
  plugins.catch(() => undefined);
  const capture = await capturing;
  let report = await plugins;
  // The instruction files as the mounted workspace-context is configured, when that differs from the default.
  const mounted = mountedWorkspace(capture.probe.rows, options);
  if (mounted !== undefined) report = await inspect({ ...options, ...mounted, profile: NO_CONTEXT_PROFILE });
  const body = capture.body.toString('utf8');
  const breakdownStarted = performance.now();
  const { breakDown } = await import('./breakdown.js');
  let breakdown: RequestBreakdown;
  try {
    breakdown = breakDown(body, capture.probe, await pluginNames(report), options.contextWindow ?? report.tokens.contextWindow);
  } catch (error) {
    throw new CliError(`the request DSH sent is not one inspect can read: ${(error as Error).message}`);
  }
  const breakdownMs = performance.now() - breakdownStarted;
  const { messages: _messages, tokens: _tokens, ...plugin } = report;
  const marks = capture.probe.marks;
  return {
    mode: 'exact',
    ...plugin,
    request: {
      dsh, profile: options.dshProfile, prompt: options.prompt, home: { from: dshHome, copy: capture.home }, body, breakdown,
      timings: {
        start: started, copy: capture.timings.copy, plugins: marks.apply, agent: marks.agent ?? 0, assemble: marks.assemble ?? 0, request: marks.request ?? 0,
        dsh: capture.timings.dsh, pluginsPart, breakdown: breakdownMs, total: performance.now(),
      },
    },
  };
}

/**
 * The mounted workspace-context row's `maxBytes` and `allowedLinkTargets`, when they are not what the
 * plugins' account ran with. A relative allowed path is made absolute from the session cwd, since
 * DSH, which resolves it from its process cwd, runs there.
 * @param rows - the probe's mounted rows.
 * @param options - the options the plugins' account ran with.
 * @returns the options to run it again with, or `undefined` when it ran as mounted.
 */
function mountedWorkspace(rows: ProbeReport['rows'], options: InspectCommandOptions): Pick<InspectOptions, 'maxBytes' | 'allowedLinkTargets'> | undefined {
  const config = rows?.find((r) => r.name === WORKSPACE_CONTEXT_MODULE)?.config as { maxBytes?: unknown; allowedLinkTargets?: unknown } | undefined;
  const maxBytes = typeof config?.maxBytes === 'number' ? config.maxBytes : options.maxBytes;
  const listed = config?.allowedLinkTargets;
  const allowedLinkTargets = Array.isArray(listed)
    ? listed.filter((path): path is string => typeof path === 'string').map((path) => (path.startsWith('~') ? path : resolve(options.cwd, path)))
    : [];
  if (maxBytes === options.maxBytes && allowedLinkTargets.length === 0) return undefined;
  return { maxBytes, allowedLinkTargets };
}

/** The names our plugins register, from their run on the offline host (the CLI asks the plugins). */
async function pluginNames(report: InspectReport): Promise<PluginNames> {
  const [{ SOURCE_KIND: MEMORY_SOURCE }, { ENVIRONMENT_CONTEXT }, { TOOL_SEARCH }] = await Promise.all([
    import('../plugins/auto-memory/inject.js'), import('../plugins/context-profiles/model.js'), import('../plugins/context-profiles/placeholders.js'),
  ]);
  return {
    sections: new Set(report.tokens.systemPrompt.sections.map((s) => s.name)),
    // The offline report lists the plugins' tools only; tool_search is there only under a profile that defers.
    tools: new Set([...report.tokens.tools.tools.map((t) => t.name), TOOL_SEARCH]),
    contexts: new Set([ENVIRONMENT_CONTEXT]),
    kinds: new Set([`${MEMORY_SOURCE}/index`, `${MEMORY_SOURCE}/rules`]),
  };
}

/**
 * For `--sample`: the user's own profile directory, so the sample runs with the user's plugins.
 * @param environment - the user's environment.
 * @param dshHome - `--dsh-home`, if given.
 * @param profile - the DSH profile.
 * @returns the directory, or undefined when the user has no such profile.
 */
export function userProfileDir(environment: HomeEnvironment, dshHome: string | undefined, profile: string): string | undefined {
  const dir = join(resolveDshHome(dshHome, environment).path, 'profiles', profile);
  return existsSync(join(dir, 'package.json')) ? dir : undefined;
}
