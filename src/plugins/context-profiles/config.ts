// Configuration (spec CP-31, X-10, X-16): where the state file lives. Profiles themselves are not
// plugin config: they are user data in the state file, edited through the panel and the API.

import Schema from 'schemastery';
import { resolveDshHome, type DshHome, type HomeEnvironment } from '../../host/index.js';
import { builtinProfiles, NONE } from './model.js';

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
   * `none` (the default, spec CP-31: leave sessions alone) or a built-in profile. The bundle's row
   * sets `full` (issue 30). Once the file exists, its `lastUsedId` decides, `none` included.
   */
  defaultProfile?: DefaultProfile;
}

/** What `defaultProfile` may name: `none` or a built-in profile (a missing state file holds only those). */
export const DEFAULT_PROFILES = [NONE, ...builtinProfiles().map((p) => p.id)] as const;
export type DefaultProfile = (typeof DEFAULT_PROFILES)[number];

export const Config: Schema<Config> = Schema.object({
  dshHome: Schema.string().description('Harness home holding session-context-config.json; `~` expands to the OS home. Default: $DSH_HOME, else ~/.dsh.'),
  panelPeers: Schema.array(String).description('Peer IP addresses besides loopback that may reach the panel (e.g. a LAN browser of DSH\'s web profile). Default: none.'),
  panelHosts: Schema.array(String).description('Host authorities (host or host:port) besides loopback the panel accepts. Default: none.'),
  defaultProfile: Schema.union(DEFAULT_PROFILES).description('The profile new sessions start with while there is no state file: none (leave sessions alone) or a built-in profile (full, lean, minimal). Default: none.'),
}) as unknown as Schema<Config>;

/** The config after normalization. */
export interface ResolvedConfig {
  readonly dshHome: DshHome;
  readonly panelPeers: readonly string[];
  readonly panelHosts: readonly string[];
  readonly defaultProfile: DefaultProfile;
}

/** Resolves the home once per mount. */
export function resolveConfig(config: Config, environment: HomeEnvironment): ResolvedConfig {
  return { dshHome: resolveDshHome(config?.dshHome, environment), panelPeers: config?.panelPeers ?? [], panelHosts: config?.panelHosts ?? [], defaultProfile: config?.defaultProfile ?? NONE };
}
