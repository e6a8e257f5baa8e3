// `dsh-context session [path | --last]`: finds a persisted DSH session log (a file, a session
// directory, or the newest session of a directory), reads it (src/fs/session-log.ts) and reports what
// it cost (session-report.ts); the text form is here.

import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseSessionLog, readSessionLogText, sessionLogFile } from '../fs/session-log.js';
import { projectKey, resolveDshHome, type HomeEnvironment } from '../host/index.js';
import { CliError } from './env.js';
import { count, n, table, visible } from './report.js';
import { DEEPSEEK_PRICES, sessionReport, type Prices, type Replacement, type SessionReport, type Usage } from './session-report.js';

/** What the command needs. */
export interface SessionCommandOptions {
  /** A log file or a session directory. */
  readonly path?: string;
  /** The newest session of `cwd` instead. */
  readonly last?: boolean;
  /** The directory whose sessions `--last` looks at (default: the process cwd). */
  readonly cwd?: string;
  readonly dshHome?: string;
  readonly environment: HomeEnvironment;
  /** Prices that replace DeepSeek's, USD per million tokens. */
  readonly prices?: Partial<Prices>;
}

/**
 * Finds, reads and reports the log.
 * @param options - which log, and the prices.
 * @returns the report.
 * @throws CliError when no log is named or found, or the log cannot be read.
 */
export function sessionCommand(options: SessionCommandOptions): SessionReport {
  const { environment } = options;
  if ((options.path === undefined) === (options.last !== true)) throw new CliError('name one session: a path (a session.jsonl[.zstd] file or its directory) or --last', 'e.g. dsh-context session --last, or dsh-context session ~/.dsh/sessions/<project>/<session>');
  const file = options.last === true ? lastLog(options, environment) : logAt(resolve(environment.processCwd, options.path!));
  let report: SessionReport;
  try {
    const log = parseSessionLog(readSessionLogText(file), file);
    const custom = options.prices !== undefined && Object.values(options.prices).some((v) => v !== undefined);
    report = sessionReport(log, file, { prices: { ...DEEPSEEK_PRICES, ...definedOnly(options.prices ?? {}) }, source: custom ? 'options' : 'DeepSeek' });
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError(`cannot read the session log ${file}: ${(error as Error).message}`);
  }
  return report;
}

function definedOnly(prices: Partial<Prices>): Partial<Prices> {
  return Object.fromEntries(Object.entries(prices).filter(([, v]) => v !== undefined)) as Partial<Prices>;
}

/** The log at `path`: the file itself, or the log of a session directory. */
function logAt(path: string): string {
  let directory: boolean;
  try {
    directory = statSync(path).isDirectory();
  } catch {
    throw new CliError(`no such file or directory: ${path}`, 'pass a session.jsonl[.zstd] file or its session directory');
  }
  if (!directory) return path;
  const file = sessionLogFile(path, existsSync);
  if (file === undefined) throw new CliError(`${path} holds no session.jsonl or session.jsonl.zstd`, 'pass a session directory (~/.dsh/sessions/<project>/<session>) or its log file');
  return file;
}

/** The newest log (by modification time) among the sessions of the directory's project folder. */
function lastLog(options: SessionCommandOptions, environment: HomeEnvironment): string {
  const home = resolveDshHome(options.dshHome, environment).path;
  const cwd = resolve(environment.processCwd, options.cwd ?? '.');
  const folder = join(home, 'sessions', projectKey(cwd));
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    throw new CliError(`no sessions of ${cwd} under ${join(home, 'sessions')} (looked in ${folder})`, 'run it in the directory DSH ran in (or pass --cwd), or pass a log path');
  }
  let newest: { file: string; mtime: number } | undefined;
  for (const name of names) {
    const file = sessionLogFile(join(folder, name), existsSync);
    if (file === undefined) continue;
    const mtime = statSync(file).mtimeMs;
    if (newest === undefined || mtime > newest.mtime) newest = { file, mtime };
  }
  if (newest === undefined) throw new CliError(`no session log in ${folder}`, 'pass a log path');
  return newest.file;
}

/** `$0.0123` with enough digits for a cheap request. */
export function formatUsd(usd: number): string {
  return `$${usd.toFixed(usd === 0 ? 2 : usd < 0.01 ? 6 : 4)}`;
}

const percent = (rate: number | null): string => (rate === null ? '' : `${(rate * 100).toFixed(0)}%`);
const changed = (items: readonly Replacement[]): string => (items.length === 0 ? '' : `${items.length}: ${n(items.reduce((s, r) => s + r.tokensBefore, 0))} → ${n(items.reduce((s, r) => s + r.tokensAfter, 0))}`);
const usageCells = (u: Usage): string[] => [n(u.input), n(u.cacheRead), n(u.output)];

/**
 * The text form of a session report.
 * @param report - the report.
 * @returns terminal text with control characters escaped.
 */
export function renderSession(report: SessionReport): string {
  const p = report.prices;
  const out: string[] = [`Session ${report.session}`];
  out.push(...table([
    ['log', report.file],
    ...(report.cwd !== undefined ? [['cwd', report.cwd]] : []),
    ...(report.model !== undefined ? [['model', `${report.provider ?? '?'}/${report.model}${report.contextWindow !== undefined ? `, window ${n(report.contextWindow)} tokens` : ''}`]] : []),
    ['prices', `USD per million tokens: input (cache miss) ${p.input} · cache read ${p.cacheRead} · output ${p.output}${p.source === 'DeepSeek' ? ' (DeepSeek\'s; --price-input, --price-cache-read, --price-output change them)' : ''}`],
  ]), '');
  out.push('Per turn, as the provider reported it (tape entries and folds: DeepSeek V3 tokens of what they replaced → what they hold)');
  const t = report.totals;
  out.push(...table([
    ['turn', 'requests', 'input', 'cache read', 'output', 'hit rate', 'cost', 'tape entries', 'folds', 'recalls', 'pruned by DSH'],
    ...report.turns.map((turn) => [String(turn.turn), n(turn.requests), ...usageCells(turn.usage), percent(turn.cacheHitRate), formatUsd(turn.cost), changed(turn.tape), changed(turn.folds), turn.recalls.map((r) => r.tool).join(', '), changed(turn.pruned)]),
    ['all', n(t.requests), ...usageCells(t.usage), percent(t.cacheHitRate), formatUsd(t.cost), t.tape.entries === 0 ? '' : `${t.tape.entries}: ${n(t.tape.tokensBefore)} → ${n(t.tape.tokensAfter)}`, t.folds.count === 0 ? '' : `${t.folds.count}: ${n(t.folds.tokensBefore)} → ${n(t.folds.tokensAfter)}`, t.recalls === 0 ? '' : String(t.recalls), ''],
  ]));
  out.push(`  cost ${formatUsd(t.cost)}; without the provider's cache ${formatUsd(t.costWithoutCache)}${t.usage.reasoning > 0 ? `; ${n(t.usage.reasoning)} of the output tokens were reasoning` : ''}${report.compactions.some((c) => c.usage !== undefined) ? '; compaction summaries included' : ''}`);
  if (report.compactions.length > 0) {
    out.push('', `DSH's compactions (${count(report.compactions.length, 'compaction')})`);
    out.push(...table(report.compactions.map((c) => [
      c.turn === null ? 'between turns' : `turn ${c.turn}`,
      c.replacement === undefined ? '' : `${count(c.replacement.nodes, 'node')}: ${n(c.replacement.tokensBefore)} → ${n(c.replacement.tokensAfter)} tokens`,
      c.estimatedTokens === undefined ? '' : `DSH estimated ${n(c.estimatedTokens)}`,
      c.usage === undefined ? 'no summary call' : `summary call ${n(c.usage.input + c.usage.cacheRead)} in / ${n(c.usage.output)} out, ${formatUsd(c.cost)}`,
    ])));
  }
  return visible(out.join('\n'));
}
