// Hostile repositories and model text against auto-memory (issue 18 items 1, 8, 9): a rule file or a
// memory written to make the frontmatter reader backtrack, rule globs meant to switch every path
// rule off, and a link that makes the rule walk cover a whole repository. Timing items are checked
// as "finishes" in a child process with a generous deadline (a hang guard, not a speed figure).

import { describe, expect, it } from 'vitest';
import { built, runScript } from '../../support/processes.js';

/** Long enough to tell a linear reader (well under a second) from the old cubic one (hours). */
const HANG_GUARD_MS = 30_000;

describe('item 1: frontmatter that made the old reader backtrack', () => {
  it('AM-14 AM-33 item 1: 128 KiB rule and memory files of the reported shapes are read, with the right answers, before the deadline', async () => {
    const script = `
      const { parseRule } = await import(${JSON.stringify(built('plugins/auto-memory/rules.js'))});
      const { deriveEntry, memoryIssues } = await import(${JSON.stringify(built('plugins/auto-memory/memory-file.js'))});
      const spaces = ' '.repeat(131072);
      const out = {
        rule: parseRule('project', 'r.md', '---\\npaths:' + spaces + '\\u2028\\n---\\nBody.\\n').paths,
        list: parseRule('project', 'r.md', '---\\npaths:\\n  - "b"\\n  - a' + spaces + '\\u2028\\n  - c\\n---\\nBody.\\n').paths,
        flow: parseRule('project', 'r.md', '---\\npaths: [' + '? '.repeat(65536) + ']\\n---\\nBody.\\n').paths.length,
        memory: deriveEntry('---\\ndescription:' + spaces + '\\u2028\\n---\\nfirst line\\n', 'm.md'),
        issues: memoryIssues('---\\nname:' + spaces + '\\u2029\\n---\\n', 'm.md').map((i) => i.type),
      };
      process.stdout.write(JSON.stringify(out));
    `;
    const run = await runScript(script, [], HANG_GUARD_MS);
    expect({ timedOut: run.timedOut, status: run.status, stderr: run.stderr }).toEqual({ timedOut: false, status: 0, stderr: '' });
    expect(JSON.parse(run.stdout)).toEqual({
      rule: [], list: ['b'], flow: 1, memory: { title: 'm', description: 'first line' }, issues: ['missing-name', 'missing-description', 'missing-type'],
    });
  });
});
