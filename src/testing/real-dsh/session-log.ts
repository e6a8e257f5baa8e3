// DSH's persisted session log of a test host's session, decoded by the package's own reader
// (src/fs/session-log.ts: every Zstandard frame, on any Node).

import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readSessionLogText, sessionLogFile } from '../../fs/session-log.js';

/**
 * Reads a persisted session log.
 * @param dshHome - DSH's home.
 * @param sessionId - the session's id.
 * @returns the log's lines (the header first, then one event per line, as DSH wrote them).
 * @throws Error when no log of that session exists.
 */
export function readSessionLog(dshHome: string, sessionId: string): string[] {
  const sessions = join(dshHome, 'sessions');
  for (const project of existsSync(sessions) ? readdirSync(sessions) : []) {
    const file = sessionLogFile(join(sessions, project, sessionId), existsSync);
    if (file !== undefined) return readSessionLogText(file).split('\n').filter((line) => line !== '');
  }
  throw new Error(`no persisted log of ${sessionId} under ${sessions}`);
}
