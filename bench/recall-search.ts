// npm run bench:recall: recall_search over 9.8 MB of logged tool output with the model's worst
// queries (issue 32 item 14): 30,000 terms that are not in the log, and 30,000 terms that share
// the log's prefix and digits (`token01234x` against `token01234 `), so that every position where
// the log has `token` is a partial match to verify. Each query is timed (best of `--rounds`,
// default 3) on this build's search and, with `--before <lib>`, once on another build's (a build
// of the package before issue 32 item 14: its uncapped search took minutes on the second query).
// Options: --rounds N, --before <path of another build's lib/ directory>.

import { cpus, loadavg } from 'node:os';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { SessionEvent } from '#lib/host/index.js';
import { search, type SearchOutcome } from '#lib/plugins/slice-tape/search.js';
import { engineText } from '#lib/plugins/slice-tape/text.js';

const DOCUMENTS = 100;
const DOCUMENT_CHARS = 98_000;
const TERMS = 30_000;

const args = process.argv.slice(2);
const rounds = Number(args[args.indexOf('--rounds') + 1] ?? 3) || 3;
const before = args.includes('--before') ? args[args.indexOf('--before') + 1] : undefined;

/** One turn of DOCUMENTS `read` results, each DOCUMENT_CHARS characters of `token00000 token00001 …`. */
function log(): SessionEvent[] {
  const events: unknown[] = [
    { seq: 0, type: 'turn/start', data: { turn: 1 } },
    { seq: 1, type: 'user/message', data: { id: 'u', role: 'user', content: [{ type: 'text', text: 'go' }], source: { kind: 'user' } } },
  ];
  let word = 0;
  for (let d = 0; d < DOCUMENTS; d++) {
    let text = '';
    while (text.length < DOCUMENT_CHARS) text += `token${String(word++ % 100_000).padStart(5, '0')} `;
    const callId = `c${d}`;
    events.push(
      { seq: events.length, type: 'tool/call', data: { turn: 1, step: 1, callId, name: 'read', arguments: '{}' } },
      {
        seq: events.length + 1, type: 'tool/result',
        data: { turn: 1, step: 1, message: { id: `m${d}`, role: 'user', content: [{ type: 'tool-result', toolCallId: callId, content: [{ type: 'text', text: text.slice(0, DOCUMENT_CHARS) }] }], source: { kind: 'tool', callId } } },
      },
    );
  }
  return events as SessionEvent[];
}

const QUERIES: readonly (readonly [string, string])[] = [
  ['30,000 terms not in the log', Array.from({ length: TERMS }, (_, i) => `w${i}q`).join(' ')],
  ['30,000 terms sharing the log\'s prefixes', Array.from({ length: TERMS }, (_, i) => `token${String(i).padStart(5, '0')}x`).join(' ')],
];

type Search = (events: readonly SessionEvent[], query: string, scope: 'auto', kinds: readonly string[], limit: number, ops: typeof engineText) => SearchOutcome | unknown[];

/** Best of `times` runs of `run`, in seconds. */
function best(times: number, run: () => void): number {
  let fastest = Infinity;
  for (let r = 0; r < times; r++) {
    const start = performance.now();
    run();
    fastest = Math.min(fastest, (performance.now() - start) / 1000);
  }
  return fastest;
}

const events = log();
const other = before === undefined ? undefined : ((await import(pathToFileURL(resolve(before, 'plugins/slice-tape/search.js')).href)) as { search: Search }).search;
console.log(`${new Date().toISOString().slice(0, 10)} · ${cpus()[0]?.model ?? 'unknown CPU'} · ${cpus().length} cores · Node ${process.version} · load ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
console.log(`${DOCUMENTS} tool results of ${DOCUMENT_CHARS.toLocaleString('en-US')} characters (${((DOCUMENTS * DOCUMENT_CHARS) / 1e6).toFixed(1)} MB); now: best of ${rounds}${other === undefined ? '' : `; before: ${before}, once`}\n`);
console.log(`| query | now: s | terms searched | documents left out |${other === undefined ? '' : ' before: s |'}`);
console.log(`|---|---:|---:|---:|${other === undefined ? '' : '---:|'}`);
for (const [name, query] of QUERIES) {
  let outcome: SearchOutcome | undefined;
  const now = best(rounds, () => (outcome = search(events, query, 'auto', ['tool_output'], 5, engineText)));
  const then = other === undefined ? undefined : best(1, () => other(events, query, 'auto', ['tool_output'], 5, engineText));
  const { searchedTerms, skippedDocuments } = outcome!.bounds;
  console.log(`| ${name} | ${now.toFixed(2)} | ${searchedTerms} | ${skippedDocuments} of ${DOCUMENTS} |${then === undefined ? '' : ` ${then.toFixed(1)} |`}`);
}
