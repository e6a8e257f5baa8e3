// Claude-Code-compatible rules (spec AM-31..AM-37): discovery of `**/*.md` under the user and project
// rule directories through the DSH fs provider, `paths:` frontmatter, the ordered and limited
// collection, and activation by file touches. Every rule glob of a collection is compiled into ONE
// engine GlobSet (compiled again only when the globs change), and all touches since the previous
// step are matched against it in one call. Rules are repository and user text, i.e. untrusted
// context: their bodies are escaped when rendered and nothing in them is ever followed or run.

import { posix, relative as relativePath, resolve as resolvePath, sep } from 'node:path';
import { compileGlobs, readBounded, utf8Length, type GlobSet } from '../../engine/index.js';
import { escapeReminder } from '../../host/framing.js';
import type { FileSystem, FsDirEntry, FsTarget, FsVersion } from '../../host/fs.js';
import type { RuleDir } from './config.js';
import { compareCodePoints } from './content.js';
import { rulePaths, splitFrontmatter } from './frontmatter.js';
import { RuleListings } from './listings.js';
import { MARKDOWN_SUFFIX } from './paths.js';

/** One rule file as read. */
export interface Rule {
  readonly level: 'user' | 'project';
  /** `~/.claude/rules/x.md` for user rules, project-root-relative for project rules (AM-36). */
  readonly displayPath: string;
  /** The `paths` globs; empty for an unconditional rule (AM-33). */
  readonly paths: readonly string[];
  /** The body without frontmatter, line endings as `\n`, leading blank lines and trailing space removed. */
  readonly body: string;
  /** UTF-8 bytes of the escaped body, what the limits count (AM-35, X-08). */
  readonly bytes: number;
}

/** Collection limits (AM-35). */
export interface RuleLimits {
  readonly maxRuleBytes: number;
  readonly maxRulesBytes: number;
  readonly maxRules: number;
}

/** Where rules come from for one project. */
export interface RuleSources {
  readonly userRuleDirs: readonly RuleDir[];
  readonly projectRuleDirs: readonly string[];
  readonly projectRoot: string;
}

/**
 * Bytes a rule file may have beyond `maxRuleBytes` for its frontmatter; a larger file is skipped
 * without being read to the end, since its body could not fit anyway (bounded read, X-04).
 */
export const RULE_FRONTMATTER_ALLOWANCE = 65536;
/** Most `.md` files one collection looks at, so a repository with a huge rule tree cannot stall a step. */
export const MAX_RULE_FILES_SCANNED = 10000;
/** Most directory entries (of any kind) one collection looks at. */
export const MAX_RULE_ENTRIES_VISITED = 20000;
/** Most directories one collection lists. */
export const MAX_RULE_DIRS_VISITED = 2000;

/** What one collection may still visit (AM-31): every walk of every rule dir draws on it. */
interface WalkBudget {
  files: number;
  entries: number;
  dirs: number;
}

/**
 * Parses a rule file's text (AM-33): the `paths` globs of its frontmatter and its body with the
 * frontmatter removed.
 */
export function parseRule(level: Rule['level'], displayPath: string, text: string): Rule {
  const { lines, body } = splitFrontmatter(text.replace(/\r\n/g, '\n'));
  const cleaned = body.replace(/^(?:[ \t]*\n)+/, '').trimEnd();
  return { level, displayPath, paths: rulePaths(lines), body: cleaned, bytes: utf8Length(escapeReminder(cleaned)) };
}

/** Why a due rule is not rendered (AM-35): an empty body, a body over `maxRuleBytes`, or the collection limits. */
export type RuleSkip = 'empty' | 'over-rule-bytes' | 'over-limits';

/** What this step does with one rule: due (unconditional or activated) or not, and why a due one is left out. */
export interface RuleDecision {
  readonly rule: Rule;
  /** Unconditional, or path-scoped and in `active`. */
  readonly due: boolean;
  /** Set for a due rule that is not rendered. */
  readonly skip?: RuleSkip;
}

/**
 * The decision for every rule of a collection this step (AM-34, AM-35), in order: every
 * unconditional rule and every rule whose display path is in `active` is due; an empty body is
 * skipped, a body over `maxRuleBytes` is skipped, and the collection is cut before the first rule
 * that would exceed `maxRules` or `maxRulesBytes` (every due rule from there on is `over-limits`).
 * `selectRules` is its rendered part, so a tool that explains the choice cannot disagree with it.
 * @param rules the collection, in AM-31 order
 * @param active display paths of the activated path-scoped rules
 * @param limits the collection limits
 * @returns one decision per rule, in the order of `rules`
 */
export function decideRules(rules: readonly Rule[], active: ReadonlySet<string>, limits: RuleLimits): RuleDecision[] {
  let count = 0;
  let total = 0;
  let cut = false;
  return rules.map((rule): RuleDecision => {
    if (rule.paths.length > 0 && !active.has(rule.displayPath)) return { rule, due: false };
    if (cut) return { rule, due: true, skip: 'over-limits' };
    if (rule.body === '') return { rule, due: true, skip: 'empty' };
    if (rule.bytes > limits.maxRuleBytes) return { rule, due: true, skip: 'over-rule-bytes' };
    if (count + 1 > limits.maxRules || total + rule.bytes > limits.maxRulesBytes) {
      cut = true;
      return { rule, due: true, skip: 'over-limits' };
    }
    count++;
    total += rule.bytes;
    return { rule, due: true };
  });
}

/**
 * The rules to render this step (AM-34, AM-35), in order: the due rules `decideRules` does not skip.
 * @param rules the collection, in AM-31 order
 * @param active display paths of the activated path-scoped rules
 * @param limits the collection limits
 * @returns the rules to render
 */
export function selectRules(rules: readonly Rule[], active: ReadonlySet<string>, limits: RuleLimits): Rule[] {
  return decideRules(rules, active, limits).flatMap((d) => (d.due && d.skip === undefined ? [d.rule] : []));
}

/** A touched path as the two rule levels see it (AM-34): relative to the cwd and to the project root. */
export interface Touch {
  /** For user rules; `undefined` when the file is outside the cwd. */
  readonly fromCwd: string | undefined;
  /** For project rules; `undefined` when the file is outside the project root. */
  readonly fromRoot: string | undefined;
}

/** The path of `absolute` below `base` with `/` separators, or `undefined` when it is not below it. */
export function below(base: string, absolute: string): string | undefined {
  const rel = relativePath(base, absolute);
  if (rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || resolvePath(base, rel) !== resolvePath(absolute)) return undefined;
  return sep === '/' ? rel : rel.split(sep).join('/');
}

/** Most UTF-8 bytes of `paths:` globs one rule may have; a rule with more is skipped, alone. */
export const MAX_RULE_GLOB_BYTES = 16384;
/** Most UTF-8 bytes of globs compiled for one collection; path rules past it stay inactive, with a warning. */
export const MAX_GLOB_BYTES = 262144;
/** The limits `RuleMatcher.update` assumes when given none: AM-03's defaults. */
const DEFAULT_RULE_LIMITS: RuleLimits = { maxRuleBytes: 65536, maxRulesBytes: 131072, maxRules: 100 };

/** A glob (or a whole rule's globs) that is not compiled, and why. */
export interface RejectedGlob {
  readonly displayPath: string;
  readonly pattern: string;
  readonly reason: string;
}

/**
 * Which path-scoped rules could ever be injected (AM-35): a rule is chosen only after every
 * unconditional rule before it, so one that would not fit after them (by `maxRules` or
 * `maxRulesBytes`), or that `selectRules` always skips (empty, over `maxRuleBytes`), never is.
 */
export function injectablePathRules(rules: readonly Rule[], limits: RuleLimits): boolean[] {
  let count = 0;
  let bytes = 0;
  let open = true;
  return rules.map((rule) => {
    const usable = rule.body !== '' && rule.bytes <= limits.maxRuleBytes;
    const fits = open && usable && count + 1 <= limits.maxRules && bytes + rule.bytes <= limits.maxRulesBytes;
    if (rule.paths.length > 0) return fits;
    if (usable && open) {
      if (fits) (count++, (bytes += rule.bytes));
      else open = false; // selectRules stops here, whatever follows
    }
    return false;
  });
}

/**
 * The compiled globs of a rule list; rebuilt only when the list of globs changes. Only rules that
 * can be injected are compiled, each rule's globs are bounded (MAX_RULE_GLOB_BYTES) and so is the
 * total (MAX_GLOB_BYTES), and a glob the engine refuses is dropped alone: one repository's rules can
 * neither make compiling slow nor switch the other rules off.
 */
export class RuleMatcher {
  #key = '';
  #set: GlobSet | undefined;
  /** Which of the patterns (by position in the rules' glob list) the set holds, in set order. */
  #kept: number[] = [];
  /** Rule index of each pattern of `#set`. */
  #owners: number[] = [];
  #rules: readonly Rule[] = [];
  /** Globs not compiled, with the reason (a new array at each compile, so a caller can report once). */
  rejected: RejectedGlob[] = [];

  /**
   * A matcher with no rules yet.
   * @param bounds the per-rule and total glob bytes (MAX_RULE_GLOB_BYTES, MAX_GLOB_BYTES unless a
   *   test needs others)
   */
  constructor(readonly bounds: { readonly ruleGlobBytes: number; readonly globBytes: number } = { ruleGlobBytes: MAX_RULE_GLOB_BYTES, globBytes: MAX_GLOB_BYTES }) {}

  /** The patterns the compiled set holds, in order. */
  get compiled(): readonly string[] {
    return this.#set?.patterns ?? [];
  }

  /**
   * Points the matcher at `rules`, compiling the globs of the rules that can be injected under
   * `limits` into one GlobSet if those globs changed. Rules without globs may come and go without a
   * compile: only the pattern-to-rule map is rebuilt. Never throws for what the rules contain;
   * what it leaves out is in `rejected`.
   * @param rules the collection, in AM-31 order
   * @param limits AM-35's limits (default: AM-03's defaults), which decide what can be injected
   * @returns nothing; `activated` answers from the new set
   */
  update(rules: readonly Rule[], limits: RuleLimits = DEFAULT_RULE_LIMITS): void {
    this.#rules = rules;
    const patterns: string[] = [];
    const owners: number[] = [];
    const skipped: RejectedGlob[] = [];
    const injectable = injectablePathRules(rules, limits);
    let total = 0;
    rules.forEach((rule, i) => {
      if (!injectable[i]) return;
      const bytes = rule.paths.reduce((sum, p) => sum + utf8Length(p), 0);
      const more = rule.paths.length > 1 ? ` (and ${rule.paths.length - 1} more)` : '';
      if (bytes > this.bounds.ruleGlobBytes) {
        skipped.push({ displayPath: rule.displayPath, pattern: rule.paths[0]!, reason: `the rule's paths globs${more} are ${bytes} bytes; the limit is ${this.bounds.ruleGlobBytes} per rule` });
      } else if (total + bytes > this.bounds.globBytes) {
        skipped.push({ displayPath: rule.displayPath, pattern: rule.paths[0]!, reason: `the globs of the rules before it take ${total} bytes; with this rule's ${bytes}${more} they would pass the limit of ${this.bounds.globBytes}` });
      } else {
        total += bytes;
        rule.paths.forEach((p) => (patterns.push(p), owners.push(i)));
      }
    });
    const key = JSON.stringify(patterns);
    if (key !== this.#key) {
      this.#key = key;
      this.rejected = skipped;
      this.#compile(patterns, owners);
    }
    this.#owners = this.#kept.map((i) => owners[i]!);
  }

  #compile(patterns: string[], owners: number[]): void {
    this.#kept = patterns.map((_, i) => i);
    this.#set = undefined;
    if (patterns.length === 0) return;
    try {
      this.#set = compileGlobs(patterns);
      return;
    } catch {
      // Only on failure: find the refused patterns one by one and drop them.
    }
    this.#kept = this.#kept.filter((i) => {
      try {
        compileGlobs([patterns[i]!]);
        return true;
      } catch (error) {
        this.rejected.push({ displayPath: this.#rules[owners[i]!]!.displayPath, pattern: patterns[i]!, reason: (error as Error).message });
        return false;
      }
    });
    // Each glob compiles alone but the set may still be too large: keep the longest prefix that compiles.
    let low = 0;
    let high = this.#kept.length;
    let best: GlobSet | undefined;
    while (low < high) {
      const mid = Math.ceil((low + high) / 2);
      try {
        best = compileGlobs(this.#kept.slice(0, mid).map((i) => patterns[i]!));
        low = mid;
      } catch {
        high = mid - 1;
      }
    }
    for (const i of this.#kept.slice(low)) {
      this.rejected.push({ displayPath: this.#rules[owners[i]!]!.displayPath, pattern: patterns[i]!, reason: 'the compiled set of the globs before it is already as large as the engine allows' });
    }
    this.#kept = this.#kept.slice(0, low);
    this.#set = best;
  }

  /**
   * Display paths of the path-scoped rules that `touches` activate (AM-34): user rules match the
   * cwd-relative path, project rules the root-relative one; paths outside a base never match. One
   * GlobSet call covers every touch.
   */
  activated(touches: readonly Touch[]): string[] {
    if (this.#set === undefined || touches.length === 0) return [];
    const paths: string[] = [];
    const levels: Rule['level'][] = [];
    for (const touch of touches) {
      if (touch.fromCwd !== undefined) (paths.push(touch.fromCwd), levels.push('user'));
      if (touch.fromRoot !== undefined) (paths.push(touch.fromRoot), levels.push('project'));
    }
    if (paths.length === 0) return [];
    const hits = new Set<string>();
    this.#set.matchAll(paths).forEach((indices, i) => {
      for (const index of indices) {
        const rule = this.#rules[this.#owners[index]!]!;
        if (rule.level === levels[i]) hits.add(rule.displayPath);
      }
    });
    return [...hits];
  }
}

interface Found {
  readonly level: Rule['level'];
  readonly displayPath: string;
  readonly target: FsTarget;
  readonly version: FsVersion | undefined;
  readonly size: number | undefined;
}

/**
 * Reads rule files through the fs provider, caching parsed rules by real path and version (a
 * changed file has a new version and is read again; a provider without versions is read each time).
 * Given a clock it also keeps each rule directory's listing while the directory and its rule files
 * are unchanged (listings.ts), for a reader that collects at every step.
 */
export class RuleReader {
  readonly #cache = new Map<string, { version: FsVersion; displayPath: string; rule: Rule | undefined }>();
  readonly #warned = new Set<string>();
  readonly #listings: RuleListings | undefined;

  /**
   * @param fs - the provider rules are read through.
   * @param limits - AM-35's limits (a file far over `maxRuleBytes` is not read to the end).
   * @param warn - where skipped files and walks cut short are reported.
   * @param now - the runtime's monotonic clock; without it every collection lists every directory.
   */
  constructor(
    readonly fs: FileSystem,
    readonly limits: RuleLimits,
    readonly warn: (message: string) => void,
    now?: () => number,
  ) {
    this.#listings = now === undefined ? undefined : new RuleListings(fs, now);
  }

  /**
   * Every rule of `sources` in AM-31 order: user dirs, then project dirs, each in configured order,
   * files by relative path in code-point order. Files that cannot be read are skipped (and
   * reported through `warn`); a file reached twice (two dirs linking the same file) counts once.
   */
  async collect(sources: RuleSources, signal?: AbortSignal): Promise<Rule[]> {
    const found: Found[] = [];
    const budget: WalkBudget = { files: MAX_RULE_FILES_SCANNED, entries: MAX_RULE_ENTRIES_VISITED, dirs: MAX_RULE_DIRS_VISITED };
    for (const dir of sources.userRuleDirs) {
      await this.#scan(dir.path, stripSlashes(dir.configured), 'user', undefined, found, budget, signal);
    }
    const rootTarget = await this.fs.resolve(sources.projectRoot, { signal });
    for (const dir of sources.projectRuleDirs) {
      const absolute = resolvePath(sources.projectRoot, dir);
      const display = below(sources.projectRoot, absolute);
      if (display === undefined) continue;
      await this.#scan(absolute, display, 'project', rootTarget, found, budget, signal);
    }
    const seen = new Set<string>();
    const rules: Rule[] = [];
    for (const file of found) {
      if (seen.has(file.target.targetKey)) continue;
      seen.add(file.target.targetKey);
      const rule = await this.#read(file, signal);
      if (rule !== undefined) rules.push(rule);
    }
    return rules;
  }

  /**
   * Collects the `.md` files below one rule dir (`**\/*.md`: hidden names are skipped, as the glob's
   * default would). User dirs follow every link, with directory cycles broken by real path; project
   * dirs skip anything whose real path leaves the project root (AM-32). No walk enters a directory
   * that contains the rule dir itself (a link back to the project root or the home directory would
   * make every step walk all of it), and every walk draws on the collection's budget of files,
   * entries and directories; running out stops the collection, with a warning.
   */
  async #scan(
    absolute: string, display: string, level: Rule['level'], root: FsTarget | undefined, out: Found[], budget: WalkBudget, signal: AbortSignal | undefined,
  ): Promise<void> {
    const start = await this.fs.resolve(absolute, { signal });
    const info = await this.fs.stat(start, signal).catch(() => undefined);
    if (info?.type !== 'directory' || (root !== undefined && !this.fs.contains(root, start))) return;
    const files: Found[] = [];
    const visited = new Set<string>([start.targetKey]);
    const shown = (rel: string) => (rel === '' ? display : `${display}/${rel}`);
    const walk = async (dir: FsTarget, rel: string): Promise<void> => {
      if (budget.dirs <= 0 || budget.entries <= 0 || budget.files <= 0) return;
      budget.dirs--;
      let entries: readonly FsDirEntry[];
      try {
        entries = this.#listings === undefined ? await this.fs.listDir(dir, signal) : await this.#listings.list(dir, signal);
      } catch (error) {
        if (signal?.aborted) throw error;
        this.warn(`auto-memory: cannot list rule directory ${shown(rel)}: ${(error as Error).message}`);
        return;
      }
      for (const entry of entries) {
        if (budget.entries <= 0 || budget.files <= 0) return;
        budget.entries--;
        if (entry.name.startsWith('.')) continue;
        if (root !== undefined && !this.fs.contains(root, entry.target)) continue;
        const child = rel === '' ? entry.name : `${rel}/${entry.name}`;
        if (entry.type === 'directory') {
          if (visited.has(entry.target.targetKey)) continue;
          visited.add(entry.target.targetKey);
          if (this.fs.contains(entry.target, start)) {
            this.#warnOnce(`auto-memory: not following rule directory ${shown(child)}: it leads back to a directory that contains ${display}`);
            continue;
          }
          if (budget.dirs <= 0) continue;
          await walk(entry.target, child);
        } else if (entry.type === 'file' && entry.name.endsWith(MARKDOWN_SUFFIX)) {
          budget.files--;
          files.push({ level, displayPath: posix.join(display, child), target: entry.target, version: entry.version, size: entry.size });
        }
      }
    };
    await walk(start, '');
    if (budget.files <= 0 || budget.entries <= 0 || budget.dirs <= 0) {
      this.#warnOnce(`auto-memory: stopped reading rule directories at ${display}: the limits are ${MAX_RULE_FILES_SCANNED} .md files, ${MAX_RULE_ENTRIES_VISITED} entries and ${MAX_RULE_DIRS_VISITED} directories per step; rules past them are not loaded`);
    }
    out.push(...files.sort((a, b) => compareCodePoints(a.displayPath, b.displayPath)));
  }

  /** Warns once per distinct message (the walk runs at every step). */
  #warnOnce(message: string): void {
    if (this.#warned.has(message)) return;
    this.#warned.add(message);
    this.warn(message);
  }

  async #read(file: Found, signal: AbortSignal | undefined): Promise<Rule | undefined> {
    const cached = this.#cache.get(file.target.targetKey);
    // A skipped file is cached too, so it is reported once per version, not at every step.
    if (cached !== undefined && file.version !== undefined && cached.version === file.version && cached.displayPath === file.displayPath) return cached.rule;
    const maxBytes = this.limits.maxRuleBytes + RULE_FRONTMATTER_ALLOWANCE;
    let result;
    try {
      result = await readBounded(await this.fs.streamText(file.target, signal), { maxBytes, reportedSize: file.size, signal });
    } catch (error) {
      result = { status: 'unavailable' as const, error };
    }
    if (result.status === 'cancelled') signal?.throwIfAborted();
    const remember = (rule: Rule | undefined) => {
      if (file.version !== undefined) this.#cache.set(file.target.targetKey, { version: file.version, displayPath: file.displayPath, rule });
      return rule;
    };
    if (result.status !== 'ok') {
      const why = result.status === 'oversize' ? `it is over ${maxBytes} bytes` : result.status === 'unavailable' ? String((result.error as Error)?.message ?? result.error) : result.status;
      this.warn(`auto-memory: skipped rule ${file.displayPath}: ${why}`);
      // A read failure may be passing, so it is tried again next step; size and encoding are not.
      return result.status === 'unavailable' ? undefined : remember(undefined);
    }
    return remember(parseRule(file.level, file.displayPath, result.text));
  }
}

function stripSlashes(dir: string): string {
  return dir.length > 1 ? dir.replace(/[\\/]+$/, '') : dir;
}
