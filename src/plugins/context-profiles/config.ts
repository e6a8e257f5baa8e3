// Configuration (spec CP-31, X-10, X-16): where the state file lives. Profiles themselves are not
// plugin config: they are user data in the state file, edited through the panel and the API.

import Schema from 'schemastery';
import { resolveDshHome, type DshHome, type HomeEnvironment } from '../../host/index.js';

/** The config a DSH plugin row carries. */
export interface Config {
  /** Harness home holding `session-context-config.json`; default `$DSH_HOME`, else `~/.dsh`. */
  dshHome?: string;
}

export const Config: Schema<Config> = Schema.object({
  dshHome: Schema.string().description('Harness home holding session-context-config.json; `~` expands to the OS home. Default: $DSH_HOME, else ~/.dsh.'),
}) as unknown as Schema<Config>;

/** The config after normalization. */
export interface ResolvedConfig {
  readonly dshHome: DshHome;
}

/** Resolves the home once per mount. */
export function resolveConfig(config: Config, environment: HomeEnvironment): ResolvedConfig {
  return { dshHome: resolveDshHome(config?.dshHome, environment) };
}
