// The real-DSH suite's shared setup: a host over the installed DSH with our packed tarball added to
// the profile as a user adds it, closed after each test; and the normalizations that make requests of
// two runs comparable (temporary paths, ids).

import { afterEach, inject } from 'vitest';
import { createDshHost, type ChatRequest, type DshHost, type DshHostOptions } from '../../src/testing/index.js';

const open: DshHost[] = [];

afterEach(async () => {
  await Promise.all(open.splice(0).map((host) => host.close()));
});

/** The installation and tarball from the global setup; throws with the reason when they are missing. */
export function realDsh(): Extract<ReturnType<typeof inject<'realDsh'>>, { dsh: unknown }> {
  const setup = inject('realDsh');
  if ('error' in setup) throw new Error(`real DSH is unavailable, so this test cannot run: ${setup.error}`);
  return setup;
}

/**
 * A real-DSH host with our tarball installed (unless `packages` says otherwise), closed after the test.
 * @param options - files, rows, profile; `packages: []` for stock DSH.
 * @returns the host.
 */
export function dshHost(options: Omit<DshHostOptions, 'dsh'> = {}): DshHost {
  const { dsh, tarball, pnpmStore } = realDsh();
  const host = createDshHost({ dsh, pnpmStore, packages: [tarball], ...options });
  open.push(host);
  return host;
}

/** A request's messages without the system prompt, with the host's temporary root replaced by `<root>`. */
export function conversation(host: DshHost, request: ChatRequest): unknown[] {
  return request.messages.filter((m) => m.role !== 'system').map((m) => JSON.parse(JSON.stringify(m).replaceAll(host.root, '<root>')) as unknown);
}

/** Loopback URLs carry the port the OS chose for this run (DSH's web server). */
const LOOPBACK_PORT = /127\.0\.0\.1:\d+/g;

/** Every request of a host with the temporary root as `<root>` and loopback ports as `<port>`; the system prompt kept. */
export function normalizedRequests(host: DshHost): unknown[] {
  return host.requests.map((r) => JSON.parse(JSON.stringify(r).replaceAll(host.root, '<root>').replace(LOOPBACK_PORT, '127.0.0.1:<port>')) as unknown);
}

/**
 * Node's warning that DSH's own Code Mode runtime prints on its first TypeScript program (stock DSH
 * prints it too, with or without our plugins); nothing else may appear on DSH's stderr.
 */
const CODE_MODE_WARNING = /^\(node:\d+\) ExperimentalWarning: stripTypeScriptTypes is an experimental feature and might change at any time\n\(Use `node --trace-warnings \.\.\.` to show where the warning was created\)\n/gm;

/** DSH's stderr without the Code Mode warning above: `''` in a clean run. */
export function stderrOf(host: DshHost): string {
  return host.stderr.replace(CODE_MODE_WARNING, '');
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/**
 * The persisted session log with what differs between two runs made comparable: the temporary root
 * becomes `<root>`, each UUID `<id-n>` (numbered by first appearance), times and durations 0. The
 * text is otherwise DSH's, byte for byte (key order included).
 */
export function normalizedLog(host: DshHost): string[] {
  const ids = new Map<string, string>();
  return host.sessionLog().map((line) => line
    .replaceAll(host.root, '<root>')
    .replace(LOOPBACK_PORT, '127.0.0.1:<port>')
    .replace(UUID, (id) => ids.get(id) ?? (ids.set(id, `<id-${ids.size + 1}>`), ids.get(id)!))
    .replace(/"(time|createdAt|startedAt|endedAt|durationMs|elapsedMs)":\d+/g, '"$1":0'));
}
