// Text output of the commands: short aligned tables for the facts, then the messages verbatim.
// Repository text (directory and file names, file bodies) is untrusted, so every control character in
// text output is shown escaped (`\x1b`), never sent to the terminal; `--json` stays exact.

import { MAX_IMPORTS } from './imports.js';
import type { InspectReport } from './inspect.js';
import type { TokenReport } from './tokens.js';

// C0 and C1 controls and DEL, and the bidirectional embeddings, overrides and isolates (U+202A–U+202E,
// U+2066–U+2069), which make a terminal show text in another order than it is (issue 32 item 15: a
// memory or file name with U+202E). A block keeps tabs, newlines and the \r of a \r\n pair (harmless
// and common in CRLF files); a line escapes those too, so a name cannot start a forged table row.
// Both are single character classes (and one fixed lookahead): linear in the text.
const BLOCK_CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]|\r(?!\n)/g;
const LINE_CONTROLS = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };
const escapeControl = (c: string): string => {
  const code = c.charCodeAt(0);
  return NAMED[c] ?? (code > 0xff ? `\\u${code.toString(16).padStart(4, '0')}` : `\\x${code.toString(16).padStart(2, '0')}`);
};

/**
 * `text` with every control character but tab and newline written visibly (`\x1b`, `\r`), for
 * multi-line terminal output such as a message shown verbatim.
 * @param text untrusted text
 * @returns text that cannot move the cursor, clear the screen, set a title, write the clipboard or reorder what it shows
 */
export function visible(text: string): string {
  return text.replace(BLOCK_CONTROLS, escapeControl);
}

/**
 * `text` with every control character written visibly, newlines and tabs included (`\n`, `\t`), for
 * one-line fields: names, paths, table cells.
 * @param text untrusted text
 * @returns one line of inert text
 */
export function visibleLine(text: string): string {
  return text.replace(LINE_CONTROLS, escapeControl);
}

/** `1 file` / `2,048 files`: a count with thousands separators and the noun in the right number. */
export function count(value: number, singular: string, plural = `${singular}s`): string {
  return `${value.toLocaleString('en-US')} ${value === 1 ? singular : plural}`;
}

/** `1,234 B` / `12.3 KiB` / `1.2 MiB` / `23.5 GiB`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes.toLocaleString('en-US')} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  if (bytes < 1024 * 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
  return `${(bytes / 1024 / 1024 / 1024).toFixed(1)} GiB`;
}

/** `0.42 ms` / `12.3 ms` / `1.23 s`. */
export function formatMs(ms: number): string {
  if (ms >= 1000) return `${(ms / 1000).toFixed(2)} s`;
  return ms >= 10 ? `${ms.toFixed(1)} ms` : `${ms.toFixed(2)} ms`;
}

/** Rows of cells as left-aligned columns, indented; each cell is shown as one inert line (`visibleLine`). */
export function table(cells: readonly (readonly string[])[], indent = '  '): string[] {
  const rows = cells.map((row) => row.map(visibleLine));
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, [...cell].length)));
  return rows.map((row) => indent + row.map((cell, i) => (i === row.length - 1 ? cell : cell + ' '.repeat(widths[i]! - [...cell].length))).join('  ').trimEnd());
}

/** A number with thousands separators. */
export const n = (value: number): string => value.toLocaleString('en-US');

/** `1.5%`: a share of the context window (one decimal; `<0.1%` for a sliver). */
export function share(tokens: number, window: number): string {
  const percent = (100 * tokens) / window;
  return tokens > 0 && percent < 0.05 ? '<0.1%' : `${percent.toFixed(1)}%`;
}

/** A bar of `width` cells: `#` for the plugins' prompt and tools, `=` for messages, `.` free. */
function windowBar(t: TokenReport, width = 50): string {
  // A part that takes anything takes at least one cell, so a small context still shows.
  const cells = (tokens: number): number => (tokens <= 0 ? 0 : Math.max(1, Math.round((width * tokens) / t.contextWindow)));
  const prompt = cells(t.systemPrompt.tokens + t.tools.tokens);
  const messages = Math.min(width - prompt, cells(t.messages));
  return `[${'#'.repeat(prompt)}${'='.repeat(messages)}${'.'.repeat(Math.max(0, width - prompt - messages))}]`;
}

/** The messages grouped by what they hold, for the window's breakdown. */
function messageGroups(report: InspectReport): string {
  const names: Readonly<Record<string, string>> = {
    'agent-instructions': 'instructions', 'auto-memory/index': 'memory index', 'auto-memory/rules': 'rules', user: 'the prompt', plugin: 'runtime context',
  };
  return report.messages.map((m) => `${names[m.kind] ?? m.kind} ${n(m.tokens)}`).join(' · ');
}

/** The context-window breakdown: what request 1 takes of the window, by source, in tokens. */
function tokenLines(report: InspectReport): string[] {
  const t = report.tokens;
  const profile = t.profile === 'none' ? 'no context profile' : `context profile ${t.profile}`;
  const out = [`Context window: ${n(t.total)} of ${n(t.contextWindow)} tokens (${share(t.total, t.contextWindow)}), ${t.tokenizer} tokens, ${profile}`, `  ${windowBar(t)}`];
  const sections = t.systemPrompt.sections.map((s) => `${s.name} ${n(s.tokens)}`).join(' · ');
  const tools = t.tools.tools.filter((x) => x.state !== 'off').map((x) => `${x.name} ${n(x.tokens)}`).join(' · ');
  out.push(...table([
    ['# system prompt (plugins)', n(t.systemPrompt.tokens), share(t.systemPrompt.tokens, t.contextWindow), sections],
    ['# tools (plugins)', n(t.tools.tokens), share(t.tools.tokens, t.contextWindow), tools],
    ['= messages', n(t.messages), share(t.messages, t.contextWindow), messageGroups(report)],
    ['. free', n(t.free), share(t.free, t.contextWindow), ''],
  ]));
  if (t.profile !== 'none') {
    out.push(`  the profile saves ${n(t.saved)} tokens: system prompt ${n(t.systemPrompt.withoutProfile)} → ${n(t.systemPrompt.tokens)}, tool definitions ${n(t.tools.withoutProfile)} → ${n(t.tools.tokens)}`);
    out.push(...table(t.tools.tools.map((x) => [x.name, x.state, x.state === 'added' ? `${n(x.tokens)} tokens` : `${n(x.tokens)} of ${n(x.full!)} tokens`]), '    '));
  }
  out.push('  DSH\'s own system prompt and tools come on top: offline, inspect runs the plugins on the offline host, which has no copy of them.', '');
  return out;
}

/** What the memory line says for each status of auto-memory's index read. */
function memoryLine(m: InspectReport['memory']): string {
  const file = visibleLine(m.file);
  switch (m.status) {
    case 'absent':
      return `${file}: none yet (the model creates it with the memory tool)`;
    case 'not-a-file':
      return `${file}: not a regular file: nothing is injected`;
    case 'refused':
    case 'undecodable':
      return `${file}: not injected: ${visibleLine(m.reason ?? m.status)}`;
    case 'empty':
      return `${file}: ${formatBytes(m.size)} with nothing to inject (blank)`;
    case 'injected':
      return `${file}: injected whole: ${count(m.lines, 'line')}, ${formatBytes(m.bytes)}, ${count(m.tokens, 'token')}`;
    case 'truncated':
      return `${file}: ${formatBytes(m.size)}; injected truncated to fit ${count(m.maxIndexLines, 'line')} / ${count(m.maxIndexBytes, 'byte')}: ${count(m.lines, 'line')}, ${formatBytes(m.bytes)}, ${count(m.tokens, 'token')}`;
  }
}

/** The human form of an offline inspect report; every message verbatim unless `summary`. Control characters are escaped. */
export function renderInspect(report: InspectReport & { readonly reason?: string }, summary: boolean): string {
  const out: string[] = [];
  out.push('What the model sees at the start of a session: the plugins\' part only (offline)');
  if (report.reason !== undefined) out.push(`  DSH did not run: ${report.reason}. DSH's own system prompt, tools and messages are not here; with a \`dsh\` inspect shows its exact first request.`);
  out.push(...table(placeRows(report)), '');

  out.push(...tokenLines(report));
  out.push(...pluginLines(report));

  out.push('Request 1, in order');
  out.push(...table(report.messages.map((msg, i) => [`#${i + 1}`, msg.kind === 'user' ? `the prompt ${report.prompt}` : msg.kind, msg.kind === 'user' ? '' : formatBytes(msg.bytes), count(msg.tokens, 'token')])));
  const t = report.timings;
  out.push('', `Timings: project root ${formatMs(t.projectRoot)} · probe ${formatMs(t.probe)} · read+digest ${formatMs(t.readDigest)} · render ${formatMs(t.render)} · memory index ${formatMs(t.memory)} · rules ${formatMs(t.rules)} · whole session start ${formatMs(t.session)} · tokens ${formatMs(t.tokens)}`);
  for (const warning of report.warnings) out.push(`warning: ${visibleLine(warning)}`);
  if (!summary) {
    report.messages.forEach((msg, i) => {
      if (msg.kind === 'user') return;
      out.push('', `──── #${i + 1} ${msg.kind} (${count(msg.bytes, 'byte')}, ${count(msg.tokens, 'token')}), verbatim ────`, ...msg.blocks);
    });
  }
  // Everything above that came from the repository is escaped already; this pass guarantees it.
  return visible(out.join('\n'));
}

/** The rows naming where the session is: directory, cwd, project root, DSH home. */
export function placeRows(report: Pick<InspectReport, 'directory' | 'cwd' | 'projectRoot' | 'dshHome'>): string[][] {
  const home = report.dshHome.display === report.dshHome.path ? report.dshHome.path : `${report.dshHome.display} (${report.dshHome.path})`;
  return [
    ['directory', report.directory],
    ['session cwd', report.cwd],
    ['project root', report.projectRoot],
    ['DSH home', report.dshHome.simulated ? `${home}, simulated: a temporary home holding the sample's AGENTS.md, rules and memories` : home],
  ];
}

/** The plugins' own account: each instruction file with its fate, the memory index, the rules. */
export function pluginLines(report: Pick<InspectReport, 'workspace' | 'memory' | 'rules'>): string[] {
  const out: string[] = [];
  const w = report.workspace;
  out.push(`Workspace instructions (workspace-context): ${n(w.bytes)} of ${count(w.maxBytes, 'byte')}`);
  if (w.files.length === 0) out.push('  no AGENTS.md, CLAUDE.md or local overlay from the DSH home down to the cwd: nothing is injected');
  else out.push(...table(w.files.map((f) => [f.status, f.target === undefined ? f.path : `${f.path} -> ${f.target}`, f.bytes === undefined ? '' : formatBytes(f.bytes), f.tokens === undefined ? '' : count(f.tokens, 'token'), f.note ?? ''])));
  if (w.omitted.length > 0 || w.truncated !== undefined) {
    const parts = [...(w.omitted.length > 0 ? [`omitted ${w.omitted.join(', ')}`] : []), ...(w.truncated ? [`truncated ${w.truncated.path} from ${n(w.truncated.from)} to ${n(w.truncated.to)} bytes`] : [])];
    out.push(`  budget: ${visibleLine(parts.join('; '))} (raise --max-bytes to keep more)`);
  }
  const importing = w.files.filter((f) => f.imports !== undefined);
  if (importing.length > 0) {
    out.push('  @-imports: Claude Code would read the files they name; DSH does not expand them: the model gets the line as written, not the file:');
    out.push(...table(importing.map((f) => [f.path, `${f.imports!.slice(0, MAX_IMPORTS).map((i) => `${i.token} (${i.exists ? 'a file' : 'no such file'})`).join(', ')}${f.imports!.length > MAX_IMPORTS ? ', …' : ''}`]), '    '));
  }
  out.push('');

  out.push('Memory index (auto-memory)', `  ${memoryLine(report.memory)}`, '');

  out.push('Rules (auto-memory)');
  if (report.rules.now.length === 0 && report.rules.waiting.length === 0) out.push('  no rule files in the user or project rule directories');
  out.push(...table([
    ...report.rules.now.map((r) => ['now', r.path, formatBytes(r.bytes), count(r.tokens, 'token'), r.skipped === undefined ? 'no paths: injected on the first step' : `not injected: ${r.skipped}`]),
    ...report.rules.waiting.map((r) => ['waiting', r.path, formatBytes(r.bytes), count(r.tokens, 'token'), `paths: ${r.paths.join(', ')}`]),
  ]));
  out.push('');
  return out;
}
