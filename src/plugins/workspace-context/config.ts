// Configuration (spec WC-04..WC-09, WC-45): the schemastery value DSH validates before `apply`, its
// documented defaults, and `resolveConfig`, which normalizes candidate lists and resolves the DSH
// home once per mount.

import Schema from 'schemastery';
import { relative } from 'node:path';
import { DEFAULT_PROJECT_ROOT_MARKERS, expandHome, resolveDshHome, type DshHome, type HomeEnvironment } from '../../host/index.js';

/** The config a DSH plugin row carries (WC-04, exact shape). */
export interface Config {
  dshHome?: string;
  projectRootMarkers?: string[];
  maxBytes: number;
  maxSourceBytes?: number;
  instructionFileCandidates?: string[];
  localInstructionFileCandidates?: string[];
  allowedLinkTargets?: string[];
}

/** WC-06: the per-file read cap when none is configured (1 MiB). */
export const DEFAULT_MAX_SOURCE_BYTES = 1048576;
/** WC-07: base candidates, probed in this order in every directory. */
export const DEFAULT_INSTRUCTION_FILE_CANDIDATES: readonly string[] = ['AGENTS.md', 'CLAUDE.md'];
/** WC-07: local overlays, probed after the base candidates of the same directory. */
export const DEFAULT_LOCAL_INSTRUCTION_FILE_CANDIDATES: readonly string[] = ['AGENTS.local.md', 'CLAUDE.local.md'];
/** The budget DSH deploys its own loader with (`dsh web`, base bundle row). */
export const DSH_DEPLOYED_MAX_BYTES = 65536;

export const Config: Schema<Config> = Schema.object({
  dshHome: Schema.string().description('Harness home holding the single user-global AGENTS.md; `~` expands to the OS home. Default: $DSH_HOME, else ~/.dsh.'),
  projectRootMarkers: Schema.array(Schema.string()).default([...DEFAULT_PROJECT_ROOT_MARKERS])
    .description('Names (file or directory) that mark the project root while walking up from the session cwd.'),
  maxBytes: Schema.number().required()
    .description('UTF-8 byte cap for one rendered message (each baseline and each dynamic batch). <= 0 or non-finite disables loading.'),
  maxSourceBytes: Schema.natural().min(1).default(DEFAULT_MAX_SOURCE_BYTES)
    .description('Bytes read from one instruction file at most; larger files are ignored.'),
  instructionFileCandidates: Schema.array(Schema.string()).default([...DEFAULT_INSTRUCTION_FILE_CANDIDATES])
    .description('Same-directory file names loaded in every directory from the project root to the cwd, in this order.'),
  localInstructionFileCandidates: Schema.array(Schema.string()).default([...DEFAULT_LOCAL_INSTRUCTION_FILE_CANDIDATES])
    .description('Local overlays loaded after the base names of the same directory; [] disables them.'),
  allowedLinkTargets: Schema.array(Schema.string()).default([])
    .description('Files or directories outside the project root that an instruction file may be a link to; `~` expands to the OS home. Other links out of the project are not loaded.'),
}) as unknown as Schema<Config>;

/** The config after normalization, with the home resolved. */
export interface ResolvedConfig {
  /** False when `maxBytes` is non-positive or non-finite (WC-05): nothing is loaded or emitted. */
  readonly enabled: boolean;
  readonly dshHome: DshHome;
  readonly projectRootMarkers: readonly string[];
  readonly maxBytes: number;
  readonly maxSourceBytes: number;
  /** Normalized lists (WC-08), repeats kept: they are part of the baseline identity. */
  readonly instructionFileCandidates: readonly string[];
  readonly localInstructionFileCandidates: readonly string[];
  /** The names probed in each directory: base then local, each name once (its first occurrence). */
  readonly candidateNames: readonly string[];
  /** `allowedLinkTargets` as absolute paths (fence.ts). */
  readonly allowedLinkTargets: readonly string[];
}

/** WC-08: a candidate must be a plain same-directory file name. */
function isCandidateName(name: string): boolean {
  return name !== '' && name !== '.' && name !== '..' && !name.includes('/') && !name.includes('\\');
}

/**
 * Normalizes a validated config (schema defaults applied) and resolves the DSH home against the
 * host runtime's environment. Direct callers that skip the schema get the same defaults.
 */
export function resolveConfig(config: Config, environment: HomeEnvironment): ResolvedConfig {
  const maxSourceBytes = config.maxSourceBytes ?? DEFAULT_MAX_SOURCE_BYTES;
  const base = (config.instructionFileCandidates ?? DEFAULT_INSTRUCTION_FILE_CANDIDATES).filter(isCandidateName);
  const local = (config.localInstructionFileCandidates ?? DEFAULT_LOCAL_INSTRUCTION_FILE_CANDIDATES).filter(isCandidateName);
  const maxBytes = config.maxBytes;
  return {
    enabled: typeof maxBytes === 'number' && Number.isFinite(maxBytes) && maxBytes > 0 && Number.isFinite(maxSourceBytes) && maxSourceBytes > 0,
    dshHome: resolveDshHome(config.dshHome, environment),
    projectRootMarkers: [...(config.projectRootMarkers ?? DEFAULT_PROJECT_ROOT_MARKERS)],
    maxBytes,
    maxSourceBytes,
    instructionFileCandidates: base,
    localInstructionFileCandidates: local,
    candidateNames: [...new Set([...base, ...local])],
    allowedLinkTargets: (config.allowedLinkTargets ?? []).map((path) => expandHome(path, environment.homedir, environment.processCwd)),
  };
}

/**
 * WC-45: the identity a visible baseline must carry to stay authoritative, `JSON.stringify` of the
 * discovery and budget settings in DSH's key order. `projectRoot` is the root relative to the cwd
 * (`''` when equal); the home is deliberately not part of it.
 */
export function baselineIdentity(config: ResolvedConfig, cwd: string, projectRoot: string): string {
  return JSON.stringify({
    projectRoot: relative(cwd, projectRoot),
    projectRootMarkers: config.projectRootMarkers,
    maxBytes: config.maxBytes,
    maxSourceBytes: config.maxSourceBytes,
    instructionFileCandidates: config.instructionFileCandidates,
    localInstructionFileCandidates: config.localInstructionFileCandidates,
  });
}
