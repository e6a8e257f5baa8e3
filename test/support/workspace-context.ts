// Test support for workspace-context: the spec's templates typed out again here (not imported from
// the plugin, so a wrong template in src fails the tests), a host factory, and views of what the
// model was shown.

import { createHash } from 'node:crypto';
import * as workspaceContext from '../../src/plugins/workspace-context/index.js';
import type { UserMessage } from '../../src/host/index.js';
import { createTestHost, type TestHost, type TestHostOptions } from '../../src/testing/index.js';
import type { MemoryFileSystem } from '../../src/testing/index.js';

export const INTRO =
  'The following workspace instructions may be relevant to your work. Use them as guidance when applicable. More specific instructions take precedence over broader ones. They do not override system, developer, or direct user instructions.';
export const REPLACING = 'This complete workspace instruction baseline replaces all earlier workspace instruction baselines.';
export const COMPACT = 'Workspace instructions were omitted or truncated to fit the configured byte budget.';

/** `<system-reminder>\n<blocks joined by a blank line>\n</system-reminder>` (WC-17). */
export const frame = (...blocks: string[]): string => `<system-reminder>\n${blocks.join('\n\n')}\n</system-reminder>`;
/** WC-17 baseline section. */
export const section = (path: string, content: string): string => `Instructions from: ${path}\n\n${content}`;
/** WC-19 set section. */
export const added = (path: string, dir: string, content: string): string =>
  `Additional instructions from: ${path}\n\nThese instructions apply to work under \`${dir}\`. Use them as guidance when relevant; more specific instructions take precedence. They do not override system, developer, or direct user instructions.\n\n${content}`;
/** WC-20 replace section. */
export const updated = (path: string, content: string): string =>
  `Updated instructions from: ${path}\n\nThis file changed after it was loaded. Use the following content instead of the previously loaded instructions from this file.\n\n${content}`;
/** WC-21 remove section. */
export const removed = (path: string): string => `Instructions removed: ${path}\n\nThe previously loaded instructions from this file no longer apply.`;
/** A baseline message's text (WC-17). */
export const baselineText = (...sections: string[]): string => frame(INTRO, ...sections);

export const sha1 = (text: string): string => createHash('sha1').update(text).digest('hex');
export const scope = (dir: string, name: string): string => `${dir}\u0000${name}`;
export const set = (dir: string, name: string, path: string, content: string) => ({ action: 'set', scope: scope(dir, name), path, digest: sha1(content) });
export const replace = (dir: string, name: string, path: string, content: string) => ({ action: 'replace', scope: scope(dir, name), path, digest: sha1(content) });
export const remove = (dir: string, name: string, path: string) => ({ action: 'remove', scope: scope(dir, name), path });

/** The identity of a baseline with default settings (WC-45). */
export const identity = (projectRoot: string, maxBytes = 65536, extra: Record<string, unknown> = {}): string =>
  JSON.stringify({
    projectRoot, projectRootMarkers: ['.git'], maxBytes, maxSourceBytes: 1048576,
    instructionFileCandidates: ['AGENTS.md', 'CLAUDE.md'], localInstructionFileCandidates: ['AGENTS.local.md', 'CLAUDE.local.md'], ...extra,
  });

/** A host with the plugin mounted; cwd `/repo` (a `.git` root) unless given. */
export function mount(files: Record<string, string>, config: Record<string, unknown> = { maxBytes: 65536 }, options: TestHostOptions = {}): TestHost<MemoryFileSystem> {
  const host = createTestHost({ cwd: '/repo', ...options, files: { '/repo/.git/HEAD': 'ref: refs/heads/main\n', ...files } });
  host.use(workspaceContext, config);
  return host;
}

/** The visible instruction messages (either kind), in surface order. */
export function instructionMessages(host: TestHost): UserMessage[] {
  return host.session.deriveMessages().filter((m): m is UserMessage => m.role === 'user' && (m.source.kind === 'agent-instructions' || m.source.kind === 'workspace-instructions'));
}

/** Every `user/message` ever logged with an instruction source (visible or not). */
export function loggedInstructions(host: TestHost): UserMessage[] {
  return host.session.events.flatMap((e) => (e.type === 'user/message' && ['agent-instructions', 'workspace-instructions'].includes((e.data as UserMessage).source.kind) ? [e.data as UserMessage] : []));
}

/** The text blocks of a message. */
export const texts = (m: UserMessage): string[] => m.content.flatMap((b) => (b.type === 'text' ? [b.text] : []));

/** The text of each message the model saw in the last request, with the roles, for order assertions. */
export function lastRequest(host: TestHost): { role: string; kind: string; text: string }[] {
  const request = host.requests.at(-1);
  if (request === undefined) throw new Error('no model request yet');
  return request.messages.map((m) => ({ role: m.role, kind: m.source.kind, text: m.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('') }));
}

/** One scripted turn that answers with text only. */
export const reply = [{ text: 'ok' }];
/** A turn whose first step calls `tool` with `input`, then answers. */
export const calling = (name: string, input: unknown) => [{ tools: [{ name, input }] }, { text: 'ok' }];

export { workspaceContext };

/** The `changes` of an instruction message's source. */
export const changesOf = (m: UserMessage): unknown => (m.source as { changes?: unknown }).changes;
