// Configuration (spec CP-31, X-10, X-16): where the state file lives, which profile new sessions start
// on while there is no state file, and which profiles besides the built-ins a fresh state holds
// (issue 30: the bundle ships its own). Once the state file exists, profiles are user data in it,
// edited through the panel and the API; the config never changes an existing file.

import Schema from 'schemastery';
import { resolveDshHome, type DshHome, type HomeEnvironment } from '../../host/index.js';
import { builtinProfiles, GROUP_IDS, NONE, STATE_LIMITS, type Profile } from './model.js';
import { isRecord, normalizeProfile, PROFILE_KEYS, shown, StateError } from './normalize.js';

/** The config a DSH plugin row carries. */
export interface Config {
  /** Harness home holding `session-context-config.json`; default `$DSH_HOME`, else `~/.dsh`. */
  dshHome?: string;
  /**
   * Peer addresses besides loopback that may reach the panel and its API (DSH's web profile served
   * to a LAN with `--host 0.0.0.0`); each also needs its Host authority in `panelHosts`. Default: none.
   */
  panelPeers?: string[];
  /** Host authorities (`host` or `host:port`) besides loopback the panel's fence accepts. Default: none. */
  panelHosts?: string[];
  /**
   * The profile new sessions start with while there is no state file (nobody has chosen one yet):
   * `none` (the default, spec CP-31: leave sessions alone), a built-in profile, or one of `profiles`.
   * The bundle's row names its `frugal` (issue 30). Once the file exists, its `lastUsedId` decides,
   * `none` included.
   */
  defaultProfile?: string;
  /**
   * Profiles a fresh state starts with besides the three built-ins (in the state file's profile
   * shape, CP-03), each held to the file's normalization and caps; ids unique, not `none`, not a
   * built-in's. Default: none. An existing state file is never changed by them.
   */
  profiles?: unknown[];
}

/** The built-in profiles' ids (CP-05): `full`, `lean`, `minimal`. */
export const BUILTIN_IDS: readonly string[] = builtinProfiles().map((p) => p.id);
/** How many profiles `profiles` may hold: the state file's cap less the built-ins it always has. */
export const CONFIG_PROFILES_MAX = STATE_LIMITS.profiles - BUILTIN_IDS.length;

/** A config that cannot load: DSH's loader reports the message (it names the key, the value and the limit). */
function invalid(message: string): never {
  throw new Schema.ValidationError(message, { path: [] });
}

/** A read problem's fault without what a read would do about it (`…; it was dropped`): the config is refused instead. */
function fault(problem: string): string {
  const at = problem.lastIndexOf('; ');
  return at < 0 ? problem : problem.slice(0, at);
}

/**
 * The config's `profiles`, normalized as a panel save is (CP-32, strict: the STATE_LIMITS caps) and
 * stricter still, since a config has no reader to keep anything for: a key a profile does not
 * define, a group id CP-04 does not list, or a value a read would drop is a load error too.
 * @param raw - the config's `profiles` (absent: none).
 * @returns the profiles, in order.
 * @throws Schema.ValidationError naming the key, the value and the limit.
 */
export function configProfiles(raw: unknown): Profile[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) invalid(`profiles is ${shown(raw)}, not a list of profiles`);
  if (raw.length > CONFIG_PROFILES_MAX) invalid(`profiles has ${raw.length} entries; the limit is ${CONFIG_PROFILES_MAX} (${STATE_LIMITS.profiles} profiles in the state file, ${BUILTIN_IDS.length} of them built-in)`);
  const seen = new Set<string>();
  return raw.map((entry: unknown, i) => {
    if (!isRecord(entry)) return invalid(`profiles[${i}] is ${shown(entry)}, not a profile object`);
    const { id } = entry;
    if (typeof id !== 'string' || id === '') return invalid(`profiles[${i}].id is ${id === undefined ? 'missing' : shown(id)}, not a non-empty string`);
    if (id === NONE) invalid(`profiles[${i}].id "${NONE}" is reserved (it means: leave sessions alone)`);
    if (BUILTIN_IDS.includes(id)) invalid(`profiles[${i}].id "${id}" is a built-in profile's id (${BUILTIN_IDS.join(', ')}); choose another id`);
    if (seen.has(id)) invalid(`profiles[${i}].id "${id}" is used twice`);
    seen.add(id);
    const at = `profiles[${i}] ("${id}")`;
    for (const k of Object.keys(entry)) if (!PROFILE_KEYS.includes(k)) invalid(`${at}.${k} is not a profile key; the keys are ${PROFILE_KEYS.join(', ')}`);
    if (isRecord(entry.groups)) {
      for (const group of Object.keys(entry.groups)) if (!(GROUP_IDS as readonly string[]).includes(group)) invalid(`${at}.groups has "${group}", not a group; the groups are ${GROUP_IDS.join(', ')}`);
    }
    try {
      return normalizeProfile(entry, (place, problem) => invalid(`${place} ${fault(problem)}`), at, true);
    } catch (error) {
      if (error instanceof StateError) invalid(error.message);
      throw error;
    }
  });
}

/**
 * `defaultProfile` checked against what a fresh state holds: `none`, the built-ins and `profiles`.
 * @param config - the config (its `profiles` already checked).
 * @param extra - the config's profiles.
 * @returns the profile id new sessions start on while there is no state file.
 * @throws Schema.ValidationError naming the value and the valid ids.
 */
function checkedDefault(config: Config | undefined, extra: readonly Profile[]): string {
  const chosen = config?.defaultProfile ?? NONE;
  const valid = [NONE, ...BUILTIN_IDS, ...extra.map((p) => p.id)];
  if (!valid.includes(chosen)) invalid(`defaultProfile ${JSON.stringify(chosen)} names no profile; valid: ${valid.join(', ')}`);
  return chosen;
}

export const Config: Schema<Config> = Schema.transform(Schema.object({
  dshHome: Schema.string().description('Harness home holding session-context-config.json; `~` expands to the OS home. Default: $DSH_HOME, else ~/.dsh.'),
  panelPeers: Schema.array(String).description('Peer IP addresses besides loopback that may reach the panel (e.g. a LAN browser of DSH\'s web profile). Default: none.'),
  panelHosts: Schema.array(String).description('Host authorities (host or host:port) besides loopback the panel accepts. Default: none.'),
  defaultProfile: Schema.string().description('The profile new sessions start with while there is no state file: none (leave sessions alone), a built-in profile (full, lean, minimal) or one of `profiles`. Default: none.'),
  profiles: Schema.array(Schema.any()).description('Profiles a fresh state file starts with besides the built-ins (the state file\'s profile shape); an existing file is not changed. Default: none.'),
}), (config) => {
  // Checked when DSH validates the row, so a bad profile or default is a load error naming it.
  checkedDefault(config as Config, configProfiles(config.profiles));
  return config;
}, true) as unknown as Schema<Config>;

/** The config after normalization. */
export interface ResolvedConfig {
  readonly dshHome: DshHome;
  readonly panelPeers: readonly string[];
  readonly panelHosts: readonly string[];
  /** `none`, a built-in's id or one of `profiles`' ids. */
  readonly defaultProfile: string;
  /** The config's profiles, normalized (CP-32). */
  readonly profiles: readonly Profile[];
}

/**
 * Resolves the home once per mount and checks the profiles (also when the config did not
 * pass through `Config`, as `dsh-context profiles serve` builds its own).
 * @param config - the plugin's config.
 * @param environment - where `~` and `$DSH_HOME` come from.
 * @returns the resolved config.
 * @throws Schema.ValidationError for a bad `profiles` or `defaultProfile`.
 */
export function resolveConfig(config: Config, environment: HomeEnvironment): ResolvedConfig {
  const profiles = configProfiles(config?.profiles);
  return {
    dshHome: resolveDshHome(config?.dshHome, environment), panelPeers: config?.panelPeers ?? [], panelHosts: config?.panelHosts ?? [],
    defaultProfile: checkedDefault(config, profiles), profiles,
  };
}
