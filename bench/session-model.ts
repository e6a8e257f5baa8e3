// The scripted models of `npm run bench:session` (issue 30). Both follow the seeded plan
// (session-workload.ts) step by step; they differ in what they do with what they are shown:
//
//   blind    — does the plan whatever the request holds (a scripted model's usual behaviour);
//   needs    — each turn from the second on needs the full text of one result of the previous turn
//              and of one older result (needs3: three older ones), chosen by a fixed seed. At the
//              turn's first step the model looks for each needed text in its request; what is not
//              there it recalls, the way a model reads what it is shown: `expand_result` with the
//              locator the request shows for that result (every page the locator names, in one
//              step), else `recall_search` with a phrase of the text and then the hit's locator, else
//              the same call again (a fresh read). Each recall step is a model request, billed like
//              any other; then the planned steps follow.
//
// A locator "shows" a result when the request names it unambiguously: a condensed view in place of
// the model's own call, a tape line or read-index entry of that turn naming the call's path, pattern or
// command, or the only tape line of that turn with that tool's name. Turn numbers are what the model
// remembers; step numbers are not (they shift when a turn gains steps).

import type { ChatRequest, ChatResponder } from 'dsh-context-engine/testing';
import { random } from './inputs.js';
import type { Normalization, SessionBill } from './session-bill.js';
import type { PlannedCall, PlannedTurn } from './session-workload.js';

export type Policy = 'blind' | 'needs' | 'needs3';
export const POLICIES: readonly Policy[] = ['blind', 'needs', 'needs3'];

/** One tool call as the model sends it. */
interface Call {
  readonly name: string;
  readonly input: Readonly<Record<string, unknown>>;
  readonly id: string;
}

/** A result the model needs at some turn: a planned call of an earlier turn. */
export interface Need {
  readonly turn: number;
  readonly call: PlannedCall;
  readonly id: string;
}

/** What happened to one need. */
export interface NeedOutcome {
  readonly at: number;
  readonly need: { readonly turn: number; readonly id: string; readonly tool: string };
  /** `previous` turn's result or an `older` one. */
  readonly age: 'previous' | 'older';
  /** How it was first recalled: `present` (in the request already), `expand`, `search`, `rerun`. */
  readonly first: 'present' | 'expand' | 'search' | 'rerun';
  /** Recall steps it took until the text was in a request (0 when present). */
  readonly steps: number;
  readonly satisfied: boolean;
}

/** The original result of a call, as DSH logged it. */
export interface Original {
  readonly text: string;
  readonly seq: number;
  readonly turn: number;
  /** The block, when the logged result holds several. */
  readonly block?: number;
}

/** The planned call id of turn `t`, step `s`, call `c` (0-based step and call). */
export const callId = (turn: number, step: number, call: number): string => `t${turn}s${step}c${call}`;

/** Calls whose results hold information a later turn can need. */
const NEEDABLE = new Set(['read', 'grep', 'glob', 'bash']);

/**
 * The needs of every turn under a policy (none for `blind`): one result of the previous turn and
 * one (`needs3`: three) of the older turns, drawn by a fixed seed among the planned calls that
 * return information.
 * @param plan - the session plan.
 * @param policy - the model's policy.
 * @param seed - the draw's seed.
 * @returns per turn (index t-1), its needs.
 */
export function planNeeds(plan: readonly PlannedTurn[], policy: Policy, seed: number): Need[][] {
  const next = random(seed);
  const calls = plan.map((turn, t) => turn.steps.flatMap((calls, s) => calls.map((call, c) => ({ turn: t + 1, call, id: callId(t + 1, s, c) }))).filter((n) => NEEDABLE.has(n.call.name)));
  const older = policy === 'needs3' ? 3 : 1;
  return plan.map((_, t) => {
    if (policy === 'blind' || t === 0) return [];
    const needs: Need[] = [];
    const previous = calls[t - 1]!;
    if (previous.length > 0) needs.push(previous[Math.floor(next() * previous.length)]!);
    const earlier = calls.slice(0, t - 1).flat();
    for (let i = 0; i < older && earlier.length > 0; i++) needs.push(earlier[Math.floor(next() * earlier.length)]!);
    return needs;
  });
}

/** The text of every message, in order (tool calls as their JSON arguments). */
function messageTexts(request: ChatRequest): string[] {
  return request.messages.map((m) => m.content ?? '');
}

/** The argument a locator line must name to identify a call of this tool. */
function keyArguments(call: PlannedCall): string[] {
  const input = call.input as Record<string, unknown>;
  const keys = call.name === 'read' ? ['file_path'] : call.name === 'grep' ? ['pattern', 'path'] : call.name === 'glob' ? ['pattern'] : call.name === 'bash' ? ['command'] : [];
  return keys.map((k) => input[k]).filter((v): v is string => typeof v === 'string');
}

/** What a tape line says a call was about, as the model wrote it (a grep: `pattern in path`). */
function subjectOf(call: PlannedCall): string | undefined {
  const input = call.input as Record<string, unknown>;
  if (call.name === 'grep') return typeof input.path === 'string' ? `${String(input.pattern)} in ${input.path}` : String(input.pattern);
  const key = ['file_path', 'path', 'filePath', 'pattern', 'command', 'query', 'url'].find((k) => typeof input[k] === 'string' && input[k] !== '');
  return key === undefined ? undefined : (input[key] as string);
}

/**
 * A tape line locating one result: `[tool seq Q[ block B] · <name>[ "<subject>"] · …]` in the turn its
 * entry or `[turn N]` line names (earlier builds: `[tool turn N[ step S] seq Q …]`, with the call).
 */
const TOOL_LINE = /^\[tool (?:turn (\d+) )?(?:step \d+ )?seq (\d+)(?: block (\d+))? · ([^\s·]+)(?: ("(?:[^"\\]|\\.)*"))? · (.*)\]$/;
/** An entry's header: `[slice tape v1 · turns N-M · …]`. */
const ENTRY_HEADER = /^\[slice tape v1 · turns? (\d+)(?:-(\d+))?[ \]]/;

/** Every `expand_result({...})` call written on a line, parsed. */
function expandCalls(line: string): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const match of line.matchAll(/expand_result\((\{[^()]*\})\)/g)) {
    try {
      const args = JSON.parse(match[1]!) as unknown;
      if (args !== null && typeof args === 'object' && typeof (args as { seq?: unknown }).seq === 'number') out.push(args as Record<string, unknown>);
    } catch {
      // A template such as {"seq":<q>,…} is not a locator.
    }
  }
  return out;
}

/** A page of an `expand_result` answer: `[expand_result … · page P of N …]` then the slice. */
const PAGE_HEADER = /^\[expand_result\((\{[^()]*\})\) · page (\d+) of (\d+)[^\n]*\]\n/;

/**
 * Whether `text` is in the request: inside one message, or in the pages of one result that
 * `expand_result` returned across messages (their slices joined in page order).
 */
export function present(request: ChatRequest, text: string): boolean {
  const texts = messageTexts(request);
  if (texts.some((t) => t.includes(text))) return true;
  const pages = new Map<string, Map<number, string>>();
  const counts = new Map<string, number>();
  for (const t of texts) {
    const m = PAGE_HEADER.exec(t);
    if (m === null) continue;
    let args: Record<string, unknown>;
    try {
      args = JSON.parse(m[1]!) as Record<string, unknown>;
    } catch {
      continue;
    }
    const key = JSON.stringify([args.seq, args.block ?? 1]);
    if (!pages.has(key)) pages.set(key, new Map());
    pages.get(key)!.set(Number(m[2]), t.slice(m[0].length));
    counts.set(key, Number(m[3]));
  }
  for (const [key, byPage] of pages) {
    const n = counts.get(key)!;
    if (byPage.size !== n) continue;
    let whole = '';
    for (let p = 1; p <= n; p++) whole += byPage.get(p) ?? '';
    if (whole.includes(text)) return true;
  }
  return false;
}

/**
 * The `expand_result` calls (every page the locator names) for a needed result, from what the
 * request shows; undefined when it shows no locator that names this result unambiguously.
 */
export function locate(request: ChatRequest, need: Need): Record<string, unknown>[] | undefined {
  // The condensed view in place of the model's own call.
  const own = request.messages.find((m) => m.role === 'tool' && m.tool_call_id === need.id);
  if (own?.content?.startsWith('[condensed tool result')) {
    const calls = expandCalls(own.content.split('\n', 1)[0]!);
    if (calls.length > 0) return calls;
  }
  const keys = keyArguments(need.call);
  const strong: Record<string, unknown>[][] = [];
  const byName: Record<string, unknown>[][] = [];
  for (const message of request.messages) {
    if (message.role !== 'user' || message.content === null) continue;
    let context: number | undefined;
    for (const line of message.content.split('\n')) {
      const header = ENTRY_HEADER.exec(line);
      if (header !== null) context = header[2] === undefined || header[1] === header[2] ? Number(header[1]) : undefined;
      const turnMark = /^\[turn (\d+)\]$/.exec(line);
      if (turnMark !== null) context = Number(turnMark[1]);
      const tool = TOOL_LINE.exec(line);
      if (tool !== null) {
        if ((tool[1] !== undefined ? Number(tool[1]) : context) !== need.turn || tool[4] !== need.call.name) continue;
        // Every page's call when the line spells them out, else the line's seq (and block) as the tool's description says.
        const spelled = expandCalls(line);
        const calls = spelled.length > 0 ? spelled : [{ seq: Number(tool[2]), formatVersion: 3, ...(tool[3] !== undefined ? { block: Number(tool[3]) } : {}) }];
        const shown = tool[5] === undefined ? undefined : (JSON.parse(tool[5]) as string);
        const wanted = subjectOf(need.call);
        const named = shown !== undefined && wanted !== undefined && (shown === wanted || (shown.endsWith('…') && wanted.startsWith(shown.slice(0, -1))));
        if (named || (keys.length > 0 && keys.every((k) => line.includes(JSON.stringify(k))))) strong.push(calls);
        else if (shown === undefined) byName.push(calls);
        continue;
      }
      if (need.call.name === 'read' && context === need.turn && line.startsWith('[files read this turn: ')) {
        const path = keys[0]!;
        const at = line.indexOf(`${path} (`);
        if (at < 0) continue;
        const seq = /seq (\d+) block (\d+)/.exec(line.slice(at));
        if (seq !== null) strong.push([{ seq: Number(seq[1]), formatVersion: 3 }]);
      }
    }
  }
  if (strong.length > 0) return strong.at(-1);
  if (byName.length === 1) return byName[0];
  return undefined;
}

/** A phrase a model would search for: one line of the text, from its middle, without DSH's line number. */
export function searchPhrase(text: string): string {
  const lines = text.split('\n').map((l) => l.replace(/^\s*\d+: /, '').trim()).filter((l) => l.length >= 24 && !l.startsWith('<') && !l.startsWith('('));
  const line = lines[Math.floor(lines.length / 2)] ?? text.slice(0, 80);
  return line.slice(0, 80);
}

/** The first tool-output hit of a recall_search answer for `turn` (else the first tool-output hit), as expand calls. */
function searchHit(answer: string, turn: number): Record<string, unknown>[] | undefined {
  const hits = answer.split('\n').filter((l) => l.startsWith('- turn '));
  const output = hits.filter((l) => l.includes('[tool_output]'));
  const line = output.find((l) => l.startsWith(`- turn ${turn} `)) ?? output[0];
  return line === undefined ? undefined : expandCalls(line);
}

const COMPACTION = 'You are now acting as a compaction engine';

/** Whether the request is a compaction's summary request (its last message is DSH's instruction). */
export function isSummaryRequest(request: ChatRequest): boolean {
  return request.messages.at(-1)?.role === 'user' && (request.messages.at(-1)!.content ?? '').startsWith(COMPACTION);
}

/** The scripted summary a compaction gets: the same text every time. */
const SUMMARY = ['## Primary Request and Intent', '- Review the monorepo turn by turn as the user asks.', '', '## Key Technical Concepts', '- (none)', '', '## Files and Code', '- (see the session)', '', '## Errors and Fixes', '- (none)', '', '## Pending Jobs', '- (none)', '', '## Current Work', '- Answering the latest request.', '', '## Next Step', '- (none)', '', '## Critical Context', '- (none)'].join('\n');

interface Pending {
  readonly need: Need;
  readonly age: NeedOutcome['age'];
  first?: NeedOutcome['first'];
  steps: number;
  /** Tiers still to try, in order. */
  tiers: ('expand' | 'search' | 'hit' | 'rerun')[];
  /** The call ids of the last recall made for it. */
  lastIds: string[];
  done: boolean;
}

/** The responder of one session: it answers every request, bills it, and records what each need cost. */
export class SessionModel {
  readonly outcomes: NeedOutcome[] = [];
  /**
   * Per shadow policy, the needs found in the request and those that were not: a blind session that
   * also looks for another policy's needs (without acting on them) tells whether that policy's session
   * would be the very same (every need found at every turn: its model never deviates from the plan).
   */
  readonly shadow = new Map<Policy, { found: number; missing: number }>();
  #shadowNeeds = new Map<Policy, readonly (readonly Need[])[]>();
  readonly #plan: readonly PlannedTurn[];
  readonly #needs: readonly (readonly Need[])[];
  readonly #bill: SessionBill;
  readonly #originals: ReadonlyMap<string, Original>;
  readonly #normalize: Normalization;
  #recalls = 0;

  /**
   * @param plan - the session's plan.
   * @param needs - per turn, what the model needs (empty for blind).
   * @param bill - where every request is billed.
   * @param originals - every logged result so far, by call id (filled by the caller after each turn).
   * @param normalize - what the bill normalizes (the host's temporary root, the workspace).
   */
  constructor(plan: readonly PlannedTurn[], needs: readonly (readonly Need[])[], bill: SessionBill, originals: ReadonlyMap<string, Original>, normalize: Normalization) {
    this.#plan = plan;
    this.#needs = needs;
    this.#bill = bill;
    this.#originals = originals;
    this.#normalize = normalize;
  }

  /**
   * The responder for turn `turn` (1-based).
   * @param turn - the turn.
   * @returns a function that answers each of its requests.
   */
  /**
   * Also looks for `policy`'s needs at each turn's first request, without acting on them.
   * @param policy - the other policy.
   * @param needs - its needs per turn.
   */
  watch(policy: Policy, needs: readonly (readonly Need[])[]): void {
    this.#shadowNeeds.set(policy, needs);
    this.shadow.set(policy, { found: 0, missing: 0 });
  }

  turn(turn: number): ChatResponder {
    const planned = this.#plan[turn - 1]!;
    let step = 0;
    let checked = false;
    const pending: Pending[] = [];
    return (request) => {
      if (isSummaryRequest(request)) {
        const bill = this.#bill.add(request, turn, 'summary', this.#normalize);
        return { text: SUMMARY, usage: { inputTokens: bill.tokens, outputTokens: 200 } };
      }
      const bill = this.#bill.add(request, turn, 'step', this.#normalize);
      const usage = { inputTokens: bill.tokens, outputTokens: 100 };
      const tools = new Set((request.tools ?? []).map((t) => t.function.name));
      if (!checked) {
        checked = true;
        for (const [policy, needs] of this.#shadowNeeds) {
          const tally = this.shadow.get(policy)!;
          for (const need of needs[turn - 1] ?? []) {
            const original = this.#originals.get(need.id);
            if (original !== undefined && present(request, original.text)) tally.found++;
            else tally.missing++;
          }
        }
        for (const need of this.#needs[turn - 1] ?? []) {
          const original = this.#originals.get(need.id);
          if (original === undefined) continue;
          const age = need.turn === turn - 1 ? 'previous' : 'older';
          if (present(request, original.text)) {
            this.outcomes.push({ at: turn, need: { turn: need.turn, id: need.id, tool: need.call.name }, age, first: 'present', steps: 0, satisfied: true });
            continue;
          }
          const tiers: Pending['tiers'] = [];
          if (tools.has('expand_result')) tiers.push('expand');
          if (tools.has('recall_search')) tiers.push('search', 'hit');
          tiers.push('rerun');
          pending.push({ need, age, steps: 0, tiers, lastIds: [], done: false });
        }
      } else {
        for (const p of pending.filter((p) => !p.done)) {
          if (present(request, this.#originals.get(p.need.id)!.text)) this.#finish(turn, p, true);
        }
      }
      const open = pending.filter((p) => !p.done);
      if (open.length > 0) {
        const calls: Call[] = [];
        for (const p of open) {
          const call = this.#recall(request, p);
          if (call === undefined) this.#finish(turn, p, false);
          else calls.push(...call);
        }
        if (calls.length > 0) return { tools: calls, usage };
      }
      if (step < planned.steps.length) {
        const s = step++;
        return { tools: planned.steps[s]!.map((call, c) => ({ name: call.name, input: call.input, id: callId(turn, s, c) })), usage };
      }
      return { text: planned.answer, usage };
    };
  }

  #finish(turn: number, p: Pending, satisfied: boolean): void {
    p.done = true;
    this.outcomes.push({ at: turn, need: { turn: p.need.turn, id: p.need.id, tool: p.need.call.name }, age: p.age, first: p.first ?? 'rerun', steps: p.steps, satisfied });
  }

  /** The next recall for a need, trying tiers in order; undefined when none is left. */
  #recall(request: ChatRequest, p: Pending): Call[] | undefined {
    // A paged answer whose other pages were not asked for: the pages it names come next.
    const pages = request.messages.filter((m) => m.role === 'tool' && p.lastIds.includes(m.tool_call_id ?? '')).flatMap((m) => {
      const header = PAGE_HEADER.exec(m.content ?? '');
      return header === null ? [] : expandCalls(header[0]);
    });
    const asked = new Set(request.messages.flatMap((m) => (m.tool_calls ?? []).filter((c) => c.function.name === 'expand_result').map((c) => c.function.arguments)));
    const more = pages.filter((args) => !asked.has(JSON.stringify(args)));
    if (more.length > 0) {
      p.steps++;
      p.lastIds = more.map(() => `recall-${++this.#recalls}`);
      return more.map((input, i) => ({ name: 'expand_result', input, id: p.lastIds[i]! }));
    }
    while (p.tiers.length > 0) {
      const tier = p.tiers.shift()!;
      let calls: Record<string, unknown>[] | undefined;
      let name = 'expand_result';
      if (tier === 'expand') calls = locate(request, p.need);
      else if (tier === 'search') {
        name = 'recall_search';
        calls = [{ query: searchPhrase(this.#originals.get(p.need.id)!.text) }];
      } else if (tier === 'hit') {
        const answer = request.messages.find((m) => m.role === 'tool' && p.lastIds.includes(m.tool_call_id ?? ''))?.content ?? '';
        calls = searchHit(answer, p.need.turn);
      } else {
        name = p.need.call.name;
        calls = [p.need.call.input as Record<string, unknown>];
      }
      if (calls === undefined || calls.length === 0) continue;
      if (tier !== 'hit') p.first ??= tier;
      p.steps++;
      p.lastIds = calls.map(() => `recall-${++this.#recalls}`);
      return calls.map((input, i) => ({ name, input, id: p.lastIds[i]! }));
    }
    return undefined;
  }
}
