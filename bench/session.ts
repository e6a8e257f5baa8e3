// `npm run bench:session` (issue 30): what a DSH user pays for the prompts of a long session, with and
// without this package, in real DSH 0.1.0-rc.8 driven by a scripted model through createDshHost. One
// seeded plan of turns (session-workload.ts) is run once per (policy, configuration):
//
//   policies (session-model.ts): blind; needs (one result of the previous turn and one older one
//   needed per turn, recalled when the request does not hold it); needs3 (three older ones);
//   configurations: stock (DSH as installed), bundle (our package as `dsh plugin add` mounts it), one
//   plugin alone (wc, am, st, cp: that row chosen, DSH as without our bundle for the rest), and
//   st-nofold (slice-tape with folding off).
//
// Every request is billed as it arrives (session-bill.ts): tokens of tools and messages, cache hit and
// miss by the 64-token prefix rule, cost = miss + hit / 10; and the cost through every turn k.
// Then, for every configuration with slice-tape, a fidelity turn asks `expand_result` for sampled
// results that were sealed or folded and `recall_turn` for sampled turns, and compares what came back
// with the originals DSH logged, byte for byte. The counts are token-based, so the same seed gives the
// same numbers on a busy host. Results: a table on stdout, everything in --json.
//
//   node build/bench/session.js [--turns 120] [--files 5000] [--workspace DIR | --workspace-dir DIR] [--seed 42]
//     [--configs stock,bundle,wc,am,st,cp,st-nofold] [--policies blind,needs,needs3] [--fidelity 24]
//     [--row-config <row>=<json>]... [--json out.json] [--dump DIR]
//
// --workspace-dir puts the generated monorepo elsewhere than .test-tools/ (two runs at once must not
// share one: each session resets it). --row-config replaces a bundle row's config in every configuration that mounts the row (to measure
// a setting before making it a default), e.g. --row-config 'slice-tape={"history":{"keepRecentTurns":1}}'.
// --dump writes every request of each session to DIR/<policy>-<config>.jsonl (what the model saw).

import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { parse } from 'yaml';
import { createDshHost, ensureRealDsh, packPackage, type ChatRequest, type DshHost, type RealDsh, type ChatResponder } from 'dsh-context-engine/testing';
import { random } from './inputs.js';
import { SessionBill, type RequestBill, type SessionTotals } from './session-bill.js';
import { planNeeds, POLICIES, SessionModel, type NeedOutcome, type Original, type Policy } from './session-model.js';
import { planSession, resetWorkspace, sessionWorkspace, type PlannedTurn, type SessionWorkspace } from './session-workload.js';

/** The package's root: the nearest directory up from this file with the bundle's patch (build/bench/ when built, bench/ under vitest). */
const ROOT = ((): string => {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'cordis.patch.yml'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no cordis.patch.yml above ${fileURLToPath(import.meta.url)}`);
  }
})();
/** Every configuration, in the order the report lists them. */
export const CONFIGS = ['stock', 'bundle', 'wc', 'am', 'st', 'cp', 'st-nofold'] as const;
export type ConfigName = (typeof CONFIGS)[number];
/**
 * The config the bundle's patch (cordis.patch.yml) gives row `id`.
 * @param id - the row id.
 * @returns its config (`{}` when it has none).
 */
export function bundleConfig(id: string): Record<string, unknown> {
  const entries = parse(readFileSync(join(ROOT, 'cordis.patch.yml'), 'utf8')) as { insert?: { id: string; config?: Record<string, unknown> }[] }[];
  const row = entries.flatMap((e) => e.insert ?? []).find((r) => r.id === id);
  if (row === undefined) throw new Error(`cordis.patch.yml inserts no row ${JSON.stringify(id)}`);
  return row.config ?? {};
}

/** The bundle row each single-plugin configuration chooses, and its config (undefined: the bundle's). */
const ROWS: Partial<Record<ConfigName, { row: string; config?: Record<string, unknown> }>> = {
  wc: { row: 'workspace-context' },
  am: { row: 'auto-memory' },
  st: { row: 'slice-tape' },
  cp: { row: 'context-profiles' },
  // The bundle's slice-tape row (a row's config replaces the whole config) with folding off.
  'st-nofold': { row: 'slice-tape', config: { ...bundleConfig('slice-tape'), fold: { enabled: false } } },
};
/** Configurations that mount slice-tape, so their sealed and folded results can be recalled. */
const TAPED: ReadonlySet<ConfigName> = new Set(['bundle', 'st', 'st-nofold']);
/** The turns the report shows the cost curve at. */
export const CURVE_TURNS = [1, 2, 3, 5, 10, 30, 60, 120];

/** One fidelity check: a sampled result or turn, and whether its recall came back byte for byte. */
interface FidelityCheck {
  readonly kind: 'expand_result' | 'recall_turn';
  readonly turn: number;
  readonly seq?: number;
  readonly bytes: number;
  /** Folded (condensed before the model saw it) rather than only sealed. */
  readonly folded?: boolean;
  readonly exact: boolean;
  readonly detail?: string;
}

/** Everything one session gave. */
export interface SessionResult {
  readonly policy: Policy;
  readonly config: ConfigName;
  readonly requests: readonly RequestBill[];
  readonly totals: SessionTotals;
  readonly costThroughTurns: readonly number[];
  readonly needs: readonly NeedOutcome[];
  readonly compactions: number;
  readonly prunerRewrites: number;
  readonly folds: number;
  readonly fidelity: readonly FidelityCheck[];
  readonly seconds: number;
  /** For a blind session, what it found of other policies' needs (see SessionModel.shadow). */
  readonly shadow?: Readonly<Record<string, { found: number; missing: number }>>;
  /** Set when this result is the blind session's, reused because every need of this policy was in it. */
  readonly sameAs?: Policy;
}

/** A workspace given with --workspace is copied (its edits must not touch the original) and committed, so each session starts from the same tree. */
function copiedWorkspace(dir: string): string {
  const copy = join(ROOT, '.test-tools', 'session-workspaces', basename(resolve(dir)));
  rmSync(copy, { recursive: true, force: true });
  mkdirSync(copy, { recursive: true });
  cpSync(resolve(dir), copy, { recursive: true, filter: (source) => !source.split('/').includes('node_modules') });
  if (!existsSync(join(copy, '.git'))) execFileSync('git', ['init', '-q'], { cwd: copy });
  execFileSync('git', ['add', '-A'], { cwd: copy });
  execFileSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@example.invalid', 'commit', '-q', '--allow-empty', '-m', 'bench snapshot'], { cwd: copy });
  return copy;
}

/** The original results this turn logged, by call id (the first result of each call). */
function collectOriginals(events: readonly { seq: number; type: string; surfaceOp?: unknown; data: unknown }[], originals: Map<string, Original>): void {
  for (const event of events) {
    if (event.type !== 'tool/result' || (event.surfaceOp !== undefined && event.surfaceOp !== 'append')) continue;
    const data = event.data as { turn: number; message: { content: { type: string; toolCallId?: string; content?: { type: string; text?: string }[] }[] } };
    const blocks = data.message.content.filter((b) => b.type === 'tool-result');
    blocks.forEach((block, i) => {
      const text = (block.content ?? []).filter((c) => c.type === 'text').map((c) => c.text ?? '').join('');
      if (block.toolCallId !== undefined && !originals.has(block.toolCallId)) originals.set(block.toolCallId, { text, seq: event.seq, turn: data.turn, ...(blocks.length > 1 ? { block: i + 1 } : {}) });
    });
  }
}

/** Texts of the tool messages answering `ids`, by id. */
function answers(request: ChatRequest, ids: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of request.messages) if (m.role === 'tool' && ids.includes(m.tool_call_id ?? '')) out.set(m.tool_call_id!, m.content ?? '');
  return out;
}

const PAGE = /^\[expand_result\((\{[^()]*\})\) · page (\d+) of (\d+)[^\n]*\]\n/;

/**
 * The fidelity turn: `expand_result` by seq for each sampled result (then any further pages it
 * names), `recall_turn` (dialogue) for each sampled turn, and a comparison with the originals.
 */
async function fidelity(host: DshHost, plan: readonly PlannedTurn[], originals: ReadonlyMap<string, Original>, lastRequest: ChatRequest, count: number, seed: number): Promise<FidelityCheck[]> {
  const next = random(seed);
  const turns = plan.length;
  // Sealed or folded: planned results of earlier turns that the last request does not show as sent.
  const shown = (id: string, text: string) => lastRequest.messages.some((m) => m.role === 'tool' && m.tool_call_id === id && m.content === text);
  const candidates = [...originals].filter(([id, o]) => /^t\d+s\d+c\d+$/.test(id) && o.turn < turns && o.text !== '' && !shown(id, o.text));
  const folded = candidates.filter(([, o]) => Buffer.byteLength(o.text) >= 50_000);
  const chosen = new Map<string, Original>();
  for (const [id, o] of folded.slice(0, Math.ceil(count / 4))) chosen.set(id, o);
  while (chosen.size < Math.min(count, candidates.length)) {
    const [id, o] = candidates[Math.floor(next() * candidates.length)]!;
    chosen.set(id, o);
  }
  const sampledTurns = [...new Set(Array.from({ length: Math.max(4, Math.ceil(count / 4)) }, () => 1 + Math.floor(next() * (turns - 1))))];
  const expandIds = [...chosen.keys()].map((id) => `fidelity-${id}`);
  const turnIds = sampledTurns.map((t) => `fidelity-turn-${t}`);
  const pages = new Map<string, string[]>();
  let phase = 0;
  let final: ChatRequest | undefined;
  const extra: string[] = [];
  const responder: ChatResponder = (request) => {
    if (phase === 0) {
      phase = 1;
      return {
        tools: [
          ...[...chosen].map(([id, o]) => ({ name: 'expand_result', id: `fidelity-${id}`, input: { seq: o.seq, formatVersion: 3, ...(o.block !== undefined ? { block: o.block } : {}) } })),
          ...sampledTurns.map((t) => ({ name: 'recall_turn', id: `fidelity-turn-${t}`, input: { turn: String(t), view: 'dialogue' } })),
        ],
      };
    }
    // Further pages of paged answers, until none is missing.
    const got = answers(request, [...expandIds, ...extra]);
    const more: { name: string; id: string; input: Record<string, unknown> }[] = [];
    for (const [id, text] of got) {
      const m = PAGE.exec(text);
      if (m === null) continue;
      const args = JSON.parse(m[1]!) as Record<string, unknown>;
      const owner = id.startsWith('fidelity-page-') ? id.replace(/^fidelity-page-(.*)-\d+$/, '$1') : id;
      const list = pages.get(owner) ?? [];
      list[Number(m[2]) - 1] = text.slice(m[0].length);
      pages.set(owner, list);
      for (let p = 2; p <= Number(m[3]); p++) {
        const pid = `fidelity-page-${owner}-${p}`;
        if (!extra.includes(pid) && Number(m[2]) === 1) {
          extra.push(pid);
          more.push({ name: 'expand_result', id: pid, input: { ...args, page: p } });
        }
      }
    }
    if (more.length > 0) return { tools: more };
    final = request;
    return { text: 'fidelity checked' };
  };
  await host.run('Recall the sampled results and turns.', responder);
  const request = final!;
  const got = answers(request, [...expandIds, ...extra, ...turnIds]);
  const checks: FidelityCheck[] = [];
  for (const [id, o] of chosen) {
    const answer = got.get(`fidelity-${id}`) ?? '';
    const paged = pages.get(`fidelity-${id}`);
    const text = paged !== undefined ? paged.join('') : answer;
    const exact = text === o.text;
    checks.push({ kind: 'expand_result', turn: o.turn, seq: o.seq, bytes: Buffer.byteLength(o.text), folded: Buffer.byteLength(o.text) >= 50_000, exact, ...(exact ? {} : { detail: answer.slice(0, 300) }) });
  }
  for (const t of sampledTurns) {
    const answer = got.get(`fidelity-turn-${t}`) ?? '';
    const planned = plan[t - 1]!;
    const exact = answer.includes(planned.prompt) && answer.includes(planned.answer);
    checks.push({ kind: 'recall_turn', turn: t, bytes: Buffer.byteLength(planned.prompt) + Buffer.byteLength(planned.answer), exact, ...(exact ? {} : { detail: answer.slice(0, 300) }) });
  }
  return checks;
}

/** What one session needs. */
export interface SessionOptions {
  readonly dsh: RealDsh;
  /** Our packed package. */
  readonly tarball: string;
  readonly workspace: SessionWorkspace;
  readonly plan: readonly PlannedTurn[];
  readonly policy: Policy;
  readonly config: ConfigName;
  readonly seed: number;
  /** Sampled results to recall after the session (configurations with slice-tape); 0: none. */
  readonly fidelity: number;
  /** Bundle rows' configs to use instead of the bundle's. */
  readonly rowConfigs?: ReadonlyMap<string, Record<string, unknown>>;
  /** A pnpm store shared across hosts. */
  readonly pnpmStore?: string;
  /** Other policies whose needs a blind session looks for, to tell whether their sessions would be this one. */
  readonly watch?: readonly Policy[];
  /** A directory to write every request of the session into (`<policy>-<config>.jsonl`, one request a line). */
  readonly dump?: string;
}

/**
 * Runs the whole session once under one configuration and policy, in real DSH.
 * @param options - the installation, package, workspace, plan, policy and configuration.
 * @returns its bill, what its needs cost, DSH's compactions and rewrites, and the fidelity checks.
 */
export async function runSession(options: SessionOptions): Promise<SessionResult> {
  const { dsh, tarball, workspace, plan, policy, config, seed } = options;
  const fidelityCount = options.fidelity;
  const rowConfigs = options.rowConfigs ?? new Map<string, Record<string, unknown>>();
  const started = Date.now();
  resetWorkspace(workspace.root);
  const host = createDshHost({ dsh, workspace: workspace.root, packages: config === 'stock' ? [] : [tarball], pnpmStore: options.pnpmStore ?? join(ROOT, '.test-tools', 'pnpm-store'), timeoutMs: 600_000 });
  // DSH titles a session with a side request whose answer lands whenever it arrives; no configuration needs it.
  host.patch({ id: 'session-title-llm', disabled: true });
  const row = ROWS[config];
  if (row !== undefined) {
    const override = rowConfigs.get(row.row);
    const fold = (row.config as { fold?: object } | undefined)?.fold;
    host.use(row.row, override === undefined ? row.config : { ...override, ...(fold !== undefined ? { fold: { ...(override.fold as object | undefined), ...fold } } : {}) });
  } else if (config === 'bundle') {
    for (const [id, rowConfig] of rowConfigs) host.patch({ id, config: rowConfig });
  }
  const bill = new SessionBill();
  const originals = new Map<string, Original>();
  const model = new SessionModel(plan, planNeeds(plan, policy, seed + 1), bill, originals, { root: host.root, workspace: workspace.root });
  for (const other of options.watch ?? []) model.watch(other, planNeeds(plan, other, seed + 1));
  try {
    for (let t = 1; t <= plan.length; t++) {
      const turn = await host.run(plan[t - 1]!.prompt, model.turn(t));
      collectOriginals(turn.events, originals);
    }
    if (options.dump !== undefined) {
      mkdirSync(options.dump, { recursive: true });
      writeFileSync(join(options.dump, `${policy}-${config}.jsonl`), host.requests.map((r) => JSON.stringify(r)).join('\n') + '\n');
    }
    const { events } = await host.session();
    const replaced = events.filter((e) => e.type === 'tool/result' && e.surfaceOp !== undefined && e.surfaceOp !== 'append');
    const condensed = (e: (typeof events)[number]) => JSON.stringify(e.data).includes('[condensed tool result');
    const checks = TAPED.has(config) && fidelityCount > 0 ? await fidelity(host, plan, originals, host.requests.at(-1)!, fidelityCount, seed + 2) : [];
    if (host.stderr.trim() !== '') process.stderr.write(`[${policy} ${config}] DSH stderr:\n${host.stderr}\n`);
    return {
      policy, config, requests: bill.requests, totals: bill.totals(), costThroughTurns: bill.costThroughTurns(), needs: model.outcomes,
      compactions: events.filter((e) => e.type === 'compaction/summary').length,
      prunerRewrites: replaced.filter((e) => !condensed(e)).length,
      folds: replaced.filter(condensed).length,
      fidelity: checks,
      seconds: (Date.now() - started) / 1000,
      ...(model.shadow.size > 0 ? { shadow: Object.fromEntries(model.shadow) } : {}),
    };
  } finally {
    await host.close();
  }
}

const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');
const ratio = (a: number, b: number): string => (b === 0 ? '—' : (a / b).toFixed(3));

/** The first turn k from which the configuration costs at most stock's at every k' ≥ k. */
export function breakEven(curve: readonly number[], stock: readonly number[]): number | undefined {
  let first: number | undefined;
  for (let k = curve.length; k >= 1; k--) {
    if (curve[k - 1]! <= stock[k - 1]!) first = k;
    else break;
  }
  return first;
}

/** The report: per policy, one row per configuration, ratios against stock of the same policy. */
export function report(results: readonly SessionResult[], turns: number): string {
  const lines: string[] = [];
  // The 60-turn columns only where the session is longer (a 60-turn report would show them twice).
  const half = turns > 60 ? 60 : undefined;
  for (const policy of POLICIES) {
    const rows = results.filter((r) => r.policy === policy);
    const stock = rows.find((r) => r.config === 'stock');
    if (rows.length === 0) continue;
    lines.push('', `### ${policy}`, '');
    const curveTurns = CURVE_TURNS.filter((k) => k <= turns);
    lines.push(`| config | ${half === undefined ? '' : `cost ${half} turns | ÷ stock | `}cost ${turns} turns | ÷ stock | ÷ stock through turn ${curveTurns.join(' / ')} | cheaper from turn | peak request | ÷ stock | last | hit share | tools / messages tokens per request | compactions / pruner rewrites / folds | needs: present / recalled in one step / later / failed | fidelity |`);
    lines.push(`|---|${half === undefined ? '' : '---:|---:|'}---:|---:|---|---:|---:|---:|---:|---:|---|---|---|---|`);
    for (const r of rows) {
      const h = half === undefined ? '' : `${fmt(r.costThroughTurns[half - 1] ?? 0)} | ${ratio(r.costThroughTurns[half - 1] ?? 0, stock?.costThroughTurns[half - 1] ?? 0)} | `;
      const all = r.costThroughTurns[turns - 1] ?? 0;
      const s = stock?.costThroughTurns ?? [];
      const curve = curveTurns.map((k) => ratio(r.costThroughTurns[k - 1] ?? 0, s[k - 1] ?? 0)).join(' / ');
      const t = r.totals;
      const n = r.needs;
      const needs = n.length === 0 ? '—' : `${n.filter((x) => x.first === 'present').length} / ${n.filter((x) => x.first !== 'present' && x.satisfied && x.steps === 1).length} / ${n.filter((x) => x.satisfied && x.steps > 1).length} / ${n.filter((x) => !x.satisfied).length}`;
      const fid = r.fidelity.length === 0 ? '—' : `${r.fidelity.filter((f) => f.exact).length}/${r.fidelity.length}`;
      const config = r.sameAs === undefined ? r.config : `${r.config} (= ${r.sameAs}: every need was in its requests)`;
      lines.push(`| ${config} | ${h}${fmt(all)} | ${ratio(all, stock?.costThroughTurns[turns - 1] ?? 0)} | ${curve} | ${stock === undefined ? '—' : (breakEven(r.costThroughTurns, s) ?? 'never')} | ${fmt(t.peak)} | ${ratio(t.peak, stock?.totals.peak ?? 0)} | ${fmt(t.last)} | ${((100 * t.hit) / t.tokens).toFixed(1)}% | ${fmt(t.toolTokens / t.requests)} / ${fmt(t.messageTokens / t.requests)} | ${r.compactions} / ${r.prunerRewrites} / ${r.folds} | ${needs} | ${fid} |`);
    }
  }
  return lines.join('\n');
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { turns: { type: 'string' }, files: { type: 'string' }, workspace: { type: 'string' }, seed: { type: 'string' }, configs: { type: 'string' }, policies: { type: 'string' }, fidelity: { type: 'string' }, json: { type: 'string' }, 'row-config': { type: 'string', multiple: true }, 'workspace-dir': { type: 'string' }, dump: { type: 'string' } } });
  const rowConfigs = new Map<string, Record<string, unknown>>();
  for (const text of values['row-config'] ?? []) {
    const at = text.indexOf('=');
    let parsed: unknown;
    try {
      parsed = JSON.parse(text.slice(at + 1));
    } catch (error) {
      throw new Error(`--row-config ${JSON.stringify(text)}: the config after '=' is not JSON (${error instanceof Error ? error.message : String(error)})`);
    }
    if (at < 1 || parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error(`--row-config ${JSON.stringify(text)}: expected <row id>=<JSON object>`);
    rowConfigs.set(text.slice(0, at), parsed as Record<string, unknown>);
  }
  const turns = Number(values.turns ?? 120);
  const files = Number(values.files ?? 5000);
  const seed = Number(values.seed ?? 42);
  const fidelityCount = Number(values.fidelity ?? 24);
  for (const [name, value, least] of [['--turns', turns, 2], ['--files', files, 500], ['--seed', seed, 1], ['--fidelity', fidelityCount, 0]] as const) {
    if (!Number.isSafeInteger(value) || value < least) throw new Error(`${name} is ${value}; it must be an integer of at least ${least}`);
  }
  const pickList = <T extends string>(text: string | undefined, all: readonly T[], flag: string): T[] => {
    const names = (text ?? all.join(',')).split(',').map((s) => s.trim()).filter((s) => s !== '');
    for (const name of names) if (!(all as readonly string[]).includes(name)) throw new Error(`${flag}: unknown ${JSON.stringify(name)}; known: ${all.join(', ')}`);
    return all.filter((c) => names.includes(c));
  };
  const configs = pickList(values.configs, CONFIGS, '--configs');
  const policies = pickList(values.policies, POLICIES, '--policies');
  const dsh = ensureRealDsh(join(ROOT, '.test-tools', 'real-dsh'));
  // Each run packs into a directory of its own: a run beside this one (another --workspace-dir) may
  // pack other code, and every session of a run installs the tarball again.
  const packDir = join(ROOT, '.test-tools', `pack-bench-${process.pid}`);
  const tarball = packPackage(ROOT, packDir);
  process.once('exit', () => rmSync(packDir, { recursive: true, force: true }));
  const root = values.workspace !== undefined ? copiedWorkspace(values.workspace) : resolve(values['workspace-dir'] ?? join(ROOT, '.test-tools', `session-monorepo-${files}-${seed}`));
  process.stderr.write(`workspace ${root}…\n`);
  const workspace = sessionWorkspace(root, files, seed, values.workspace === undefined);
  const plan = planSession(workspace, turns, seed);
  const calls = plan.flatMap((t) => t.steps.flat());
  process.stderr.write(`${workspace.files.length} text files; ${turns} turns, ${plan.reduce((n, t) => n + t.steps.length + 1, 0)} planned requests, ${calls.length} tool calls (${['read', 'grep', 'glob', 'bash', 'edit', 'write'].map((n) => `${calls.filter((c) => c.name === n).length} ${n}`).join(', ')})\n`);
  const started = new Date();
  const loads = [loadavg()[0]!];
  const results: SessionResult[] = [];
  // A needs-aware model deviates from the plan only when a need is not in its request. A blind session
  // that found every need of a policy at every turn is that policy's session request for request:
  // the bench reports it for the policy instead of running it again (stock DSH and the plugins
  // that remove nothing from the request, unless DSH's compaction does).
  const watch = policies.filter((p) => p !== 'blind');
  for (const policy of policies) {
    for (const config of configs) {
      const blind = results.find((r) => r.policy === 'blind' && r.config === config);
      const tally = blind?.shadow?.[policy];
      if (policy !== 'blind' && blind !== undefined && tally !== undefined && tally.missing === 0 && !TAPED.has(config)) {
        const needs = planNeeds(plan, policy, seed + 1).flatMap((list, t) => list.map((n): NeedOutcome => ({ at: t + 1, need: { turn: n.turn, id: n.id, tool: n.call.name }, age: n.turn === t ? 'previous' : 'older', first: 'present', steps: 0, satisfied: true })));
        results.push({ ...blind, policy, needs, sameAs: 'blind', seconds: 0 });
        process.stderr.write(`${policy} ${config}: every need was in the blind session's requests (${tally.found}); its session is the blind one\n`);
        continue;
      }
      const result = await runSession({ dsh, tarball, workspace, plan, policy, config, seed, fidelity: fidelityCount, rowConfigs, ...(policy === 'blind' ? { watch } : {}), ...(values.dump !== undefined ? { dump: resolve(values.dump) } : {}) });
      results.push(result);
      loads.push(loadavg()[0]!);
      process.stderr.write(`${policy} ${config}: cost ${fmt(result.totals.cost)}, ${result.totals.requests} requests, peak ${fmt(result.totals.peak)} (${result.seconds.toFixed(0)} s)\n`);
    }
  }
  const header = [
    `real DSH 0.1.0-rc.8 through createDshHost; ${values.workspace === undefined ? `generated monorepo (${files} paths, seed ${seed}, real-shaped file sizes)` : `workspace ${values.workspace}`}, ${workspace.files.length} text files; ${turns} turns, plan seed ${seed}${rowConfigs.size > 0 ? `; row configs ${[...rowConfigs].map(([id, c]) => `${id}=${JSON.stringify(c)}`).join(' ')}` : ''}`,
    `${started.toISOString()} → ${new Date().toISOString()}; ${cpus()[0]?.model ?? 'cpu'} × ${cpus().length}, Node ${process.version} (bench) / DSH on its Node 22; load average (1 min) ${Math.min(...loads).toFixed(2)}–${Math.max(...loads).toFixed(2)}`,
    'cost = miss + hit / 10 in DeepSeek V3 tokens of the serialized request (tools, then messages); hit = longest common prefix with any earlier request of the session, rounded down to 64 tokens',
  ];
  process.stdout.write(`${header.join('\n')}\n${report(results, turns)}\n`);
  if (values.json !== undefined) {
    writeFileSync(values.json, JSON.stringify({ turns, files, seed, workspace: values.workspace ?? null, rowConfigs: Object.fromEntries(rowConfigs), started: started.toISOString(), finished: new Date().toISOString(), cpu: cpus()[0]?.model, cores: cpus().length, node: process.version, loads, plan: plan.map((t) => ({ steps: t.steps.map((s) => s.map((c) => c.name)) })), results }, null, 1));
  }
}

if (process.argv[1]?.endsWith('session.js')) await main();
