// The text form of `dsh-context inspect` in exact mode: where the session runs, the context window
// the captured request takes, by what and by whom (like Claude Code's `/context`), the plugins' own
// account of files, memory index and rules, the timings, then the request itself: the system
// prompt, each message and each tool definition as DSH sent them. Control characters are escaped.

import type { Category, MessageBreakdown, Owner, RequestBreakdown, ToolBreakdown } from './breakdown.js';
import type { InspectResult } from './inspect-exact.js';
import { count, formatBytes, formatMs, n, placeRows, pluginLines, share, table, visible, visibleLine } from './report.js';

type ExactResult = Extract<InspectResult, { mode: 'exact' }>;

/** Details listed per row before the rest is counted. */
const MAX_DETAILS = 8;

const OWNERS: Readonly<Record<Owner, string>> = { dsh: 'DSH', plugins: 'plugins', user: 'you' };

/** `name (who)` for a category row. */
function label(category: Category): string {
  return category.owner === 'user' ? category.name : `${category.name} (${OWNERS[category.owner]})`;
}

/** The largest parts first, then how many more. */
function details(items: readonly { name: string; tokens: number }[]): string {
  const sorted = [...items].sort((a, b) => b.tokens - a.tokens);
  const shown = sorted.slice(0, MAX_DETAILS).map((item) => `${item.name} ${n(item.tokens)}`);
  return sorted.length > MAX_DETAILS ? `${shown.join(' · ')} · … ${sorted.length - MAX_DETAILS} more` : shown.join(' · ');
}

/** A bar of `width` cells: `#` for the system prompt and tools, `=` for messages, `.` free. */
function windowBar(b: RequestBreakdown, width = 50): string {
  const cells = (tokens: number): number => (tokens <= 0 ? 0 : Math.max(1, Math.round((width * tokens) / b.contextWindow)));
  const fixed = b.categories.filter((c) => c.name === 'system prompt' || c.name === 'tools').reduce((sum, c) => sum + c.tokens, 0);
  const prompt = Math.min(width, cells(fixed));
  const messages = Math.min(width - prompt, cells(b.total - fixed));
  return `[${'#'.repeat(prompt)}${'='.repeat(messages)}${'.'.repeat(Math.max(0, width - prompt - messages))}]`;
}

function breakdownLines(b: RequestBreakdown): string[] {
  const window = b.contextWindowFrom === 'dsh' ? `the window DSH resolved for ${b.model ?? 'the model'}` : 'the window of --context-window (DSH reported none)';
  const out = [`Context window: ${n(b.total)} of ${n(b.contextWindow)} tokens (${share(b.total, b.contextWindow)}), ${b.tokenizer} tokens; ${window}`, `  ${windowBar(b)}`];
  out.push(...table([
    ...b.categories.map((c) => [label(c), n(c.tokens), share(c.tokens, b.contextWindow), details(c.items)]),
    ['free', n(b.free), share(b.free, b.contextWindow), ''],
  ]));
  const deferred = b.tools.tools.filter((t) => t.state === 'deferred');
  const hidden = b.tools.tools.filter((t) => t.state === 'hidden');
  const added = b.tools.tools.filter((t) => t.state === 'added');
  if (deferred.length > 0) {
    const saved = deferred.reduce((sum, t) => sum + (t.full ?? t.tokens) - t.tokens, 0);
    out.push(`  deferred (a placeholder is sent, the full definition on request): ${deferred.map((t) => `${t.name} ${n(t.tokens)} of ${n(t.full ?? 0)}`).join(' · ')}; ${n(saved)} tokens saved`);
  }
  if (added.length > 0) out.push(`  only this session has: ${added.map((t) => `${t.name} ${n(t.tokens)}`).join(' · ')}`);
  if (hidden.length > 0) out.push(`  registered but not sent: ${hidden.map((t) => `${t.name}${t.full !== undefined ? ` (${n(t.full)})` : ''}`).join(' · ')}`);
  out.push('  Counted: the system prompt, each message\'s text and each tool\'s JSON as sent; the provider\'s own count adds its chat template\'s few tokens per message.', '');
  return out;
}

function requestLines(b: RequestBreakdown, bodyBytes: number): string[] {
  const rows = b.messages.map((m: MessageBreakdown) => [`#${m.index}`, m.role, m.index === 0 ? 'system prompt' : m.kind, formatBytes(m.bytes), count(m.tokens, 'token'), m.note ?? '']);
  const sent = b.tools.tools.filter((t: ToolBreakdown) => t.state !== 'hidden');
  rows.push(['', 'tools', count(sent.length, 'definition'), '', count(b.tools.tokens, 'token'), '']);
  return [`Request 1, in order (${formatBytes(bodyBytes)} as sent)`, ...table(rows)];
}

/**
 * The human form of an exact-mode report; the request verbatim unless `summary`.
 * @param report - the report.
 * @param summary - leave out the request itself.
 * @returns terminal text with control characters escaped.
 */
export function renderExact(report: ExactResult, summary: boolean): string {
  const r = report.request;
  const b = r.breakdown;
  const out: string[] = ['What the model sees at the start of a session: DSH\'s own first request, captured'];
  const copy = r.home.copy;
  const rows = placeRows(report);
  rows[3] = ['DSH home', `${rows[3]![1]}; DSH ran in a throwaway copy (${count(copy.entries, 'entry', 'entries')}, ${formatBytes(copy.bytes)}; ${count(copy.linked, 'package folder')} linked${copy.skipped.length > 0 ? `; left out: ${copy.skipped.join(', ')}` : ''})`];
  rows.push(['DSH', `${r.dsh}, profile ${r.profile}`], ['model', `${b.provider ?? '?'}/${b.model ?? '?'}`], ['prompt', r.prompt]);
  out.push(...table(rows), '');
  out.push(...breakdownLines(b));
  out.push(...pluginLines(report));
  out.push(...requestLines(b, Buffer.byteLength(r.body)));
  const t = r.timings;
  out.push('', `Timings: inspect started ${formatMs(t.start)} · home copy ${formatMs(t.copy)} · DSH, from its start: plugins loaded ${formatMs(t.plugins)}, agent ${formatMs(t.agent)}, first assembly ${formatMs(t.assemble)}, request ${formatMs(t.request)}; in all, ended ${formatMs(t.dsh)} · the plugins' account (beside DSH) ${formatMs(t.pluginsPart)} · breakdown ${formatMs(t.breakdown)} · in all ${formatMs(t.total)}`);
  for (const warning of report.warnings) out.push(`warning: ${visibleLine(warning)}`);
  if (!summary) {
    const body = JSON.parse(r.body) as { messages: { role: string; content: unknown }[]; tools?: unknown[] };
    body.messages.forEach((message, i) => {
      const m = b.messages[i]!;
      const text = typeof message.content === 'string' ? message.content : JSON.stringify(message.content);
      out.push('', `──── #${i} ${m.index === 0 ? 'system prompt' : m.kind} (${count(m.bytes, 'byte')}, ${count(m.tokens, 'token')}), verbatim ────`, text);
    });
    const tools = body.tools ?? [];
    out.push('', `──── tools (${count(tools.length, 'definition')}, ${count(b.tools.tokens, 'token')}), as sent ────`, ...tools.map((tool) => JSON.stringify(tool)));
  }
  return visible(out.join('\n'));
}
