// Shared helpers of the slice-tape tests: a host with the plugin mounted, and views of its surface.

import { createHash } from 'node:crypto';
import type { ContentBlock, PluginModule, SessionEvent, UserMessage } from '../../../src/host/index.js';
import * as tape from '../../../src/plugins/slice-tape/index.js';
import { createTestHost, type MemoryFileSystem, type TestHost, type TestHostOptions } from '../../../src/testing/index.js';

/** A host with the tape mounted with `config`, over an in-memory provider. */
export function tapeHost(config: object = {}, options: Omit<TestHostOptions, 'fs'> = {}): TestHost<MemoryFileSystem> {
  const host = createTestHost({ cwd: '/repo', files: {}, ...options });
  host.use(tape as unknown as PluginModule, config);
  return host;
}

/** Texts of the visible surface, one per node. */
export function surfaceTexts(host: TestHost): string[] {
  return host.session.deriveMessages().map((m) => m.content.map((b) => (b.type === 'text' ? b.text : b.type === 'tool-result' ? `<result ${b.toolCallId}>` : b.type === 'tool-call' ? `<call ${b.id}>` : `<${b.type}>`)).join(''));
}

/** The exact serialized surface through its first `n` nodes (what a provider prefix cache compares). */
export function serializedPrefix(host: TestHost, n: number): string {
  return JSON.stringify(host.session.deriveMessages().slice(0, n));
}

/** The `slice:history` replacement events in log order. */
export function entryEvents(host: TestHost): SessionEvent[] {
  return host.session.events.filter((e) => e.type === 'user/message' && (e.data as UserMessage).source.kind === 'plugin' && (e.data as { source: { plugin?: string } }).source.plugin === 'slice:history');
}

/** Texts of the entries on the surface now. */
export function visibleEntries(host: TestHost): string[] {
  const visible = new Set(host.session.surface.nodes);
  return entryEvents(host).filter((e) => visible.has(e.seq)).map((e) => text((e.data as UserMessage).content));
}

export function text(content: readonly ContentBlock[]): string {
  return content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('');
}

/** Reference SHA-256 prefix (node:crypto), to check the engine-backed fingerprints. */
export function sha(textValue: string, hex: number): string {
  return createHash('sha256').update(textValue, 'utf8').digest('hex').slice(0, hex);
}

/** The entry header for turns `n`-`m`, `k` turns (ST-20, shortened by issue 30: one turn named, else the span and the count). */
export function header(n: number, m: number, k: number): string {
  return n === m ? `[slice tape v1 · turn ${n}]` : `[slice tape v1 · turns ${n}-${m} · ${k} turn(s) sealed]`;
}

/** `[reply @h]\n<text>\n[end reply @h]` with the reference hash (ST-21's frame as issue 30 left it). */
export function reply(body: string): string {
  const h = sha(body, 12);
  return `[reply @${h}]\n${body}\n[end reply @${h}]`;
}

/**
 * A tape line locating one result (ST-22 as issue 30 has it): seq (the locator), tool and the call's
 * subject (JSON-quoted), then its size, or a direct read's facts instead (its lines), and a paged
 * result's calls; no turn, no step.
 */
export function toolLine(seq: number, name: string, size: number, subject?: string, facts?: string, pages?: string): string {
  return `[tool seq ${seq} · ${name}${subject === undefined ? '' : ` ${JSON.stringify(subject)}`}${facts === undefined ? ` · ${size} chars` : ` · ${facts}`}${pages === undefined ? '' : ` · ${pages}`}]`;
}

/** Runs a recall tool as the agent would and returns its text or its error text. */
export async function callTool(host: TestHost, name: string, input: unknown): Promise<{ isError: boolean; text: string }> {
  const agent = await host.start();
  const result = await host.ctx.tools!.execute({ callId: `t-${name}`, name, arguments: input, agent, signal: new AbortController().signal });
  return { isError: result.isError, text: text(result.content) };
}
