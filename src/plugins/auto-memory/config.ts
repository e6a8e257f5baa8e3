// auto-memory configuration (spec AM-03): the schemastery `Config` DSH validates before `apply`, its
// documented defaults, and `resolveConfig`, which turns the validated value into absolute paths
// once, so nothing later has to know about `~` or `$DSH_HOME`.

import Schema from 'schemastery';
import { expandHome, resolveDshHome, type HomeEnvironment } from '../../host/dsh-home.js';
import { DEFAULT_PROJECT_ROOT_MARKERS } from '../../host/project-root.js';
import { isAbsolute, join } from 'node:path';

export const DEFAULT_ROOT = 'auto-memory';
export const DEFAULT_MAX_INDEX_BYTES = 25600;
export const DEFAULT_MAX_INDEX_LINES = 200;
export const DEFAULT_MAX_FILE_BYTES = 65536;
export const DEFAULT_MAX_FILES = 200;
export const DEFAULT_USER_RULE_DIRS: readonly string[] = ['~/.dsh/rules', '~/.claude/rules'];
export const DEFAULT_PROJECT_RULE_DIRS: readonly string[] = ['.dsh/rules', '.claude/rules'];
export const DEFAULT_MAX_RULE_BYTES = 65536;
export const DEFAULT_MAX_RULES_BYTES = 131072;
export const DEFAULT_MAX_RULES = 100;

/** The validated configuration (every key filled). */
export interface Config {
  root: string;
  maxIndexBytes: number;
  maxIndexLines: number;
  maxFileBytes: number;
  maxFiles: number;
  projectRootMarkers: string[];
  inject: boolean;
  injectInSubagents: boolean;
  guidance: boolean;
  rules: boolean;
  userRuleDirs: string[];
  projectRuleDirs: string[];
  maxRuleBytes: number;
  maxRulesBytes: number;
  maxRules: number;
}

/** A positive safe integer with a default (AM-03 [R]). */
const positive = (value: number) => Schema.natural().min(1).max(Number.MAX_SAFE_INTEGER).default(value);
const strings = (value: readonly string[]) => Schema.array(Schema.string()).default([...value]);

/** The plugin's config schema; an invalid value is a load error naming the key. */
export const Config: Schema<Partial<Config> | undefined, Config> = Schema.object({
  root: Schema.string().min(1).default(DEFAULT_ROOT).description('Memory root; relative paths resolve against $DSH_HOME.'),
  maxIndexBytes: positive(DEFAULT_MAX_INDEX_BYTES).description('Most UTF-8 bytes of MEMORY.md injected.'),
  maxIndexLines: positive(DEFAULT_MAX_INDEX_LINES).description('Most MEMORY.md lines injected.'),
  maxFileBytes: positive(DEFAULT_MAX_FILE_BYTES).description('Most UTF-8 bytes of any file the memory tool writes.'),
  maxFiles: positive(DEFAULT_MAX_FILES).description('Most .md files per project, MEMORY.md included.'),
  projectRootMarkers: strings(DEFAULT_PROJECT_ROOT_MARKERS).description('Project root markers; [] means the cwd.'),
  inject: Schema.boolean().default(true).description('Inject the MEMORY.md index.'),
  injectInSubagents: Schema.boolean().default(false).description('Also inject the index and rules into sub-agents.'),
  guidance: Schema.boolean().default(true).description('Register the tool:memory system-prompt section.'),
  rules: Schema.boolean().default(true).description('Load user and project rules.'),
  userRuleDirs: strings(DEFAULT_USER_RULE_DIRS).description('User rule directories; ~ is expanded.'),
  projectRuleDirs: strings(DEFAULT_PROJECT_RULE_DIRS).description('Project rule directories, relative to the project root.'),
  maxRuleBytes: positive(DEFAULT_MAX_RULE_BYTES).description('Most UTF-8 bytes of one rule body.'),
  maxRulesBytes: positive(DEFAULT_MAX_RULES_BYTES).description('Most UTF-8 bytes of rule bodies per collection.'),
  maxRules: positive(DEFAULT_MAX_RULES).description('Most rules per collection.'),
}) as unknown as Schema<Partial<Config> | undefined, Config>;

/** A user rule directory: the configured text (used in display paths) and its absolute path. */
export interface RuleDir {
  readonly configured: string;
  readonly path: string;
}

/** The configuration with every path made absolute. */
export interface ResolvedConfig extends Readonly<Omit<Config, 'root' | 'userRuleDirs'>> {
  /** The absolute memory root; project folders live directly under it. */
  readonly root: string;
  readonly userRuleDirs: readonly RuleDir[];
}

/**
 * Resolves `root` and `userRuleDirs` to absolute paths: `root` relative to `$DSH_HOME` unless
 * it is absolute or starts with `~`, rule dirs with `expandHome` (relative ones against the process
 * cwd, as X-10 resolves every configured path). The rest is copied.
 */
export function resolveConfig(config: Config, environment: HomeEnvironment): ResolvedConfig {
  const expand = (path: string) => expandHome(path, environment.homedir, environment.processCwd);
  const root = isAbsolute(config.root) || config.root === '~' || config.root.startsWith('~/') || config.root.startsWith('~\\')
    ? expand(config.root)
    : expand(join(resolveDshHome(undefined, environment).path, config.root));
  return {
    ...config,
    root,
    userRuleDirs: config.userRuleDirs.map((configured) => ({ configured, path: expand(configured) })),
  };
}
