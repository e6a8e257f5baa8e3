// Sealing a 200-turn session with large tool outputs and CJK text: the tape's planner (ledger, read
// index with SHA-256 fingerprints, entry rendering with code-point budgets), with the engine's
// codePointLength/capCodePoints/sha256Hex against plain-JS text operations in the same run. Two
// cases: the whole 200-turn log sealed at once (cold: every read hashed), and the last turn of a
// session the mounted tape sealed turn by turn (what one first step costs). The planner is the same
// code in every case; only its TextOps differ.

import { createHash } from 'node:crypto';
import type { PluginModule } from 'dsh-context-engine/host';
import * as sliceTape from 'dsh-context-engine/slice-tape';
import { engineText, planSeal, type FingerprintCache, type TextOps } from 'dsh-context-engine/slice-tape';
import { createTestHost, type TestHost } from 'dsh-context-engine/testing';
import type { Comparison } from './harness.js';
import { mixedText } from './inputs.js';

export const SEALED_TURNS = 200;

const sha256Js = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/** What a plugin written without the engine would do: `Array.from` for code points, node:crypto. */
export const arrayFromText: TextOps = {
  codePointLength: (text) => Array.from(text).length,
  capCodePoints: (text, max) => Array.from(text).slice(0, max).join(''),
  sha256Hex: sha256Js,
};

/** The tighter plain-JS way: one charCodeAt loop per operation, node:crypto. */
export const loopText: TextOps = {
  codePointLength(text) {
    let n = 0;
    for (let i = 0; i < text.length; i++, n++) {
      const c = text.charCodeAt(i);
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
        const d = text.charCodeAt(i + 1);
        if (d >= 0xdc00 && d <= 0xdfff) i++;
      }
    }
    return n;
  },
  capCodePoints(text, max) {
    let i = 0;
    for (let n = 0; i < text.length && n < max; i++, n++) {
      const c = text.charCodeAt(i);
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
        const d = text.charCodeAt(i + 1);
        if (d >= 0xdc00 && d <= 0xdfff) i++;
      }
    }
    return text.slice(0, i);
  },
  sha256Hex: sha256Js,
};

/** The engine's code points with node:crypto's SHA-256: separates the two costs in the table. */
export const engineCodePointsNodeSha: TextOps = { ...engineText, sha256Hex: sha256Js };

/** A note after every tool call, as an instruction plugin adds: it is protected and splits runs, so each turn seals on its own. */
const notes: PluginModule = {
  name: 'bench-notes',
  apply(ctx) {
    let n = 0;
    ctx.on('tools/post-execute', async (_exec: unknown, _result: unknown, next: () => Promise<object>) => ({
      ...(await next()),
      additionalContexts: [{ id: `note-${++n}`, role: 'user', content: [{ type: 'text', text: 'note' }], source: { kind: 'bench-notes' } }],
    }));
  },
};

/**
 * 200 completed turns, none sealed yet: each turn's user message is 2,000 code points of mixed
 * CJK/ASCII (longer than pinUserChars), step 1 reads two files of about 24 KiB and 8 KiB of mixed
 * text (read index, fingerprints, tool sizes), step 2 answers with a 3,000-code-point reply. The
 * notes split every turn, so the plan has about one entry per turn boundary.
 */
export async function longSession(tape?: { readonly module: PluginModule; readonly config: object }): Promise<TestHost> {
  const files: Record<string, string> = {};
  for (let i = 0; i < 20; i++) files[`/repo/src/file${i}.ts`] = mixedText(24 * 1024, 100 + i);
  for (let i = 0; i < 20; i++) files[`/repo/docs/page${i}.md`] = `${mixedText(8 * 1024, 200 + i)}😀`;
  const host = createTestHost({ cwd: '/repo', files });
  host.use(notes);
  if (tape !== undefined) host.use(tape.module, tape.config);
  const prompt = mixedText(6000, 3).slice(0, 2000);
  const answer = `${mixedText(9000, 5).slice(0, 2990)}😀😀`;
  for (let t = 1; t <= SEALED_TURNS; t++) {
    await host.run(`${t}: ${prompt}`, [
      { text: 'Reading.', tools: [{ name: 'read', input: { file_path: `src/file${t % 20}.ts` } }, { name: 'read', input: { file_path: `docs/page${(t * 7) % 20}.md` } }] },
      { text: answer },
    ]);
    // The simulated host keeps a copy of every request; a 200-turn log would hold them all.
    host.requests.length = 0;
  }
  return host;
}

const history = { keepRecentTurns: 0, pinFirstTurn: false, pinUserChars: 1200, entryMaxChars: 8000, pinReplyChars: 0, startAfterChars: 0 };

/**
 * The per-turn case as the plugin meets it: turns 1-199 already sealed turn by turn by the mounted
 * tape, turn 200 left to seal, fingerprints of earlier reads cached (each case warms its own cache).
 */
async function steadyStateComparison(): Promise<Comparison> {
  const host = await longSession({ module: sliceTape as unknown as PluginModule, config: { history } });
  const seal = (ops: TextOps) => {
    const fingerprints: FingerprintCache = new Map();
    planSeal(host.session, [], { history, ops, warn: () => {}, warned: new Set(), fingerprints });
    return () => planSeal(host.session, [], { history, ops, warn: () => {}, warned: new Set(), fingerprints });
  };
  const check = seal(engineText)();
  if (check.length === 0) throw new Error('slice-tape bench: nothing left to seal in the last turn');
  return {
    group: `slice-tape: seal turn ${SEALED_TURNS} after ${SEALED_TURNS - 1} sealed turns (warm fingerprint cache)`,
    ours: { name: 'engine TextOps', fn: seal(engineText) },
    baselines: [
      { name: 'Array.from + node:crypto', fn: seal(arrayFromText) },
      { name: 'charCodeAt loops + node:crypto', fn: seal(loopText) },
    ],
  };
}

export async function sliceTapeComparisons(): Promise<Comparison[]> {
  const host = await longSession();
  const seal = (ops: TextOps) => () => planSeal(host.session, [], { history, ops, warn: () => {}, warned: new Set() });
  const check = seal(engineText)();
  if (check.length < SEALED_TURNS) throw new Error(`slice-tape bench: expected at least ${SEALED_TURNS} entries, planned ${check.length}`);
  return [await steadyStateComparison(), {
    group: `slice-tape: seal a ${SEALED_TURNS}-turn CJK session at once, cold (${check.length} entries)`,
    ours: { name: 'engine TextOps', fn: seal(engineText) },
    baselines: [
      { name: 'Array.from + node:crypto', fn: seal(arrayFromText) },
      { name: 'charCodeAt loops + node:crypto', fn: seal(loopText) },
      { name: 'engine code points + node:crypto', fn: seal(engineCodePointsNodeSha) },
    ],
  }];
}
