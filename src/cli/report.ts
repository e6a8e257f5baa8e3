// Text output of the commands: short aligned tables for the facts, then the messages verbatim.

import type { InspectReport } from './inspect.js';
import { PROBE_PROMPT } from './session.js';

/** `1,234 B` / `12.3 KiB` / `1.2 MiB`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes.toLocaleString('en-US')} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/** `0.42 ms` / `12.3 ms` / `1.23 s`. */
export function formatMs(ms: number): string {
  if (ms >= 1000) return `${(ms / 1000).toFixed(2)} s`;
  return ms >= 10 ? `${ms.toFixed(1)} ms` : `${ms.toFixed(2)} ms`;
}

/** Rows of cells as left-aligned columns, indented. */
export function table(rows: readonly (readonly string[])[], indent = '  '): string[] {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, [...cell].length)));
  return rows.map((row) => indent + row.map((cell, i) => (i === row.length - 1 ? cell : cell + ' '.repeat(widths[i]! - [...cell].length))).join('  ').trimEnd());
}

const n = (value: number): string => value.toLocaleString('en-US');

/** The human form of an inspect report; every message verbatim unless `summary`. */
export function renderInspect(report: InspectReport, summary: boolean): string {
  const out: string[] = [];
  const w = report.workspace;
  out.push('What the model sees at the start of a session', ...table([
    ['directory', report.directory],
    ['session cwd', report.cwd],
    ['project root', report.projectRoot],
    ['DSH home', report.dshHome.display === report.dshHome.path ? report.dshHome.path : `${report.dshHome.display} (${report.dshHome.path})`],
  ]), '');

  out.push(`Workspace instructions (workspace-context): ${n(w.bytes)} of ${n(w.maxBytes)} bytes`);
  if (w.files.length === 0) out.push('  no AGENTS.md, CLAUDE.md or local overlay from the DSH home down to the cwd: nothing is injected');
  else out.push(...table(w.files.map((f) => [f.status, f.path, f.bytes === undefined ? '' : formatBytes(f.bytes), f.note ?? ''])));
  if (w.omitted.length > 0 || w.truncated !== undefined) {
    const parts = [...(w.omitted.length > 0 ? [`omitted ${w.omitted.join(', ')}`] : []), ...(w.truncated ? [`truncated ${w.truncated.path} from ${n(w.truncated.from)} to ${n(w.truncated.to)} bytes`] : [])];
    out.push(`  budget: ${parts.join('; ')} (raise --max-bytes to keep more)`);
  }
  out.push('');

  const m = report.memory;
  out.push('Memory index (auto-memory)');
  out.push(m.exists
    ? `  ${m.file}: ${n(m.lines)} lines, ${formatBytes(m.bytes)}; ${m.truncated ? `truncated to fit ${n(m.maxIndexLines)} lines / ${n(m.maxIndexBytes)} bytes` : 'injected whole'}`
    : `  ${m.file}: none yet (the model creates it with the memory tool)`);
  out.push('');

  out.push('Rules (auto-memory)');
  if (report.rules.now.length === 0 && report.rules.waiting.length === 0) out.push('  no rule files in the user or project rule directories');
  out.push(...table([
    ...report.rules.now.map((r) => ['now', r.path, formatBytes(r.bytes), r.skipped === undefined ? 'no paths: injected on the first step' : `not injected: ${r.skipped}`]),
    ...report.rules.waiting.map((r) => ['waiting', r.path, formatBytes(r.bytes), `paths: ${r.paths.join(', ')}`]),
  ]));
  out.push('');

  out.push('Request 1, in order');
  out.push(...table(report.messages.map((msg, i) => [`#${i + 1}`, msg.kind === 'user' ? `the prompt ${PROBE_PROMPT}` : msg.kind, msg.kind === 'user' ? '' : formatBytes(msg.bytes)])));
  const t = report.timings;
  out.push('', `Timings: project root ${formatMs(t.projectRoot)} · probe ${formatMs(t.probe)} · read+digest ${formatMs(t.readDigest)} · render ${formatMs(t.render)} · memory index ${formatMs(t.memory)} · rules ${formatMs(t.rules)} · whole session start ${formatMs(t.session)}`);
  for (const warning of report.warnings) out.push(`warning: ${warning}`);
  if (!summary) {
    report.messages.forEach((msg, i) => {
      if (msg.kind === 'user') return;
      out.push('', `──── #${i + 1} ${msg.kind} (${n(msg.bytes)} bytes), verbatim ────`, ...msg.blocks);
    });
  }
  return out.join('\n');
}
