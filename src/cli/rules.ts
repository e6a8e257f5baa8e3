// `dsh-context rules --path <file>...`: which path-scoped rules a successful read, write or edit of
// those files would inject at the next step, with auto-memory's own discovery and matcher (one
// GlobSet for every rule glob, user rules matched relative to the cwd, project rules to the root).

import { isAbsolute, resolve } from 'node:path';
import { createNodeFileSystem } from '../fs/index.js';
import { locateProjectRoot, type HomeEnvironment } from '../host/index.js';
import { resolveConfig, type Config } from '../plugins/auto-memory/config.js';
import * as autoMemory from '../plugins/auto-memory/index.js';
import { below, RuleMatcher, RuleReader, selectRules } from '../plugins/auto-memory/rules.js';
import { homeEnvironment, noRootWarning } from './inspect.js';

export interface RulesOptions {
  readonly cwd: string;
  readonly environment: HomeEnvironment;
  readonly dshHome?: string;
  /** Touched files, absolute or relative to the cwd. */
  readonly paths: readonly string[];
}

export interface RulesReport {
  readonly projectRoot: string;
  readonly touches: readonly { readonly path: string; readonly rules: readonly string[] }[];
  /** What the next step would inject: the activated rules that pass the collection limits, in order. */
  readonly injected: readonly string[];
  /** Activated rules the limits keep out. */
  readonly cut: readonly string[];
  readonly ruleCount: number;
  readonly warnings: readonly string[];
}

/** Builds the report; see the module comment. */
export async function rulesFor(options: RulesOptions): Promise<RulesReport> {
  const fs = createNodeFileSystem({ cwd: options.cwd });
  const config = resolveConfig(autoMemory.Config({}) as Config, homeEnvironment(options.environment, options.dshHome));
  const { root, marker } = await locateProjectRoot(options.cwd, config.projectRootMarkers, fs);
  const warnings: string[] = marker === undefined ? [noRootWarning(config.projectRootMarkers)] : [];
  const rules = await new RuleReader(fs, config, (m) => warnings.push(m)).collect({ userRuleDirs: config.userRuleDirs, projectRuleDirs: config.projectRuleDirs, projectRoot: root });
  const matcher = new RuleMatcher();
  matcher.update(rules);
  for (const r of matcher.rejected) warnings.push(`rule ${r.displayPath}: glob ${JSON.stringify(r.pattern)} ignored: ${r.reason}`);
  const touches = options.paths.map((path) => {
    const absolute = isAbsolute(path) ? resolve(path) : resolve(options.cwd, path);
    return { path, rules: matcher.activated([{ fromCwd: below(options.cwd, absolute), fromRoot: below(root, absolute) }]) };
  });
  const active = new Set(touches.flatMap((t) => t.rules));
  // The limits count the whole collection of the step (AM-35): unconditional rules come first.
  const injected = selectRules(rules, active, config).filter((r) => r.paths.length > 0).map((r) => r.displayPath);
  return {
    projectRoot: root,
    touches,
    injected,
    cut: [...active].filter((p) => !injected.includes(p)),
    ruleCount: rules.length,
    warnings,
  };
}
