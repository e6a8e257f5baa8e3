// auto-memory rules (issue 6): the step after file touches, when every path-scoped rule is checked
// against every touched path. Ours: the plugin's RuleMatcher, all 200 rules' globs compiled once into
// one engine GlobSet and all 1,000 touches matched in one call. Baseline: picomatch compiled once per
// rule (outside the timing), each touch tested against each rule. A second group includes the
// compile, as after a rule file changed. Both must name the same activated rules.

import picomatch from 'picomatch';
import { RuleMatcher, type Rule } from 'dsh-context-engine/auto-memory';
import type { Comparison } from './harness.js';
import { monorepoPaths, RULE_PATTERNS } from './glob-inputs.js';

const RULES = 200;
const TOUCHES = 1000;
const SCOPES = ['api', 'web', 'core', 'ui'];

/**
 * 200 rules as projects write them: the 50 rule patterns as they are, then the same patterns
 * scoped to four packages (`packages/api/<pattern>`, …), two globs for every fourth rule.
 */
export function ruleSet(): Rule[] {
  return Array.from({ length: RULES }, (_, i) => {
    const base = RULE_PATTERNS[i % RULE_PATTERNS.length]!;
    const scope = i < RULE_PATTERNS.length ? '' : `packages/${SCOPES[Math.floor(i / RULE_PATTERNS.length) - 1]}/`;
    const paths = i % 4 === 3 ? [`${scope}${base}`, `${scope}**/*.sh`] : [`${scope}${base}`];
    return { level: 'project', displayPath: `.claude/rules/r${String(i).padStart(3, '0')}.md`, paths, body: 'x', bytes: 1 };
  });
}

type Matcher = (path: string) => boolean;

/** Display paths of the rules any of `paths` activates, with picomatch matchers per rule. */
function picomatchActivated(rules: readonly Rule[], matchers: readonly Matcher[], paths: readonly string[]): string[] {
  const hits: string[] = [];
  rules.forEach((rule, i) => {
    if (paths.some((p) => matchers[i]!(p))) hits.push(rule.displayPath);
  });
  return hits;
}

/** The timed comparisons. */
export function autoMemoryComparisons(): Comparison[] {
  const rules = ruleSet();
  const paths = monorepoPaths(TOUCHES);
  const touches = paths.map((fromRoot) => ({ fromCwd: undefined, fromRoot }));
  const matcher = new RuleMatcher();
  matcher.update(rules);
  const matchers = rules.map((r) => picomatch([...r.paths]));
  const sorted = (v: unknown) => [...(v as string[])].sort();
  const name = `${RULES} rules with paths: × ${TOUCHES.toLocaleString('en-US')} touched paths`;
  return [
    {
      group: `auto-memory activation, ${name}`,
      ours: { name: 'RuleMatcher.activated (one GlobSet, one call)', fn: () => matcher.activated(touches) },
      baselines: [{ name: 'picomatch compiled per rule', fn: () => picomatchActivated(rules, matchers, paths) }],
      same: sorted,
    },
    {
      group: `auto-memory compile + activation, ${name}`,
      ours: {
        name: 'RuleMatcher.update + activated',
        fn: () => {
          const fresh = new RuleMatcher();
          fresh.update(rules);
          return fresh.activated(touches);
        },
      },
      baselines: [{ name: 'picomatch per rule, compiled and matched', fn: () => picomatchActivated(rules, rules.map((r) => picomatch([...r.paths])), paths) }],
      same: sorted,
    },
  ];
}
