// A logger that records lines instead of printing, with Cordis's placeholders, so tests can assert
// the exact warnings a plugin wrote (e.g. `workspace instruction refresh failed: %o`).

import type { Logger } from '../host/cordis.js';

export type LogLevel = 'warn' | 'info' | 'debug' | 'error';

/** One recorded line: level, the logger's name (the plugin), and the formatted message. */
export interface LogEntry {
  readonly level: LogLevel;
  readonly name: string;
  readonly message: string;
}

/**
 * Formats like Cordis's logger: `%o`/`%O` as JSON (an Error as `Name: message`, which is stable
 * across machines, unlike a stack), `%s` as a string, `%d` as an integer, `%%` as `%`; leftover
 * arguments are appended with spaces.
 */
export function formatLog(format: string, args: readonly unknown[]): string {
  const rest = args.slice();
  const text = format.replace(/%([oOsd%])/g, (match, spec: string) => {
    if (spec === '%') return '%';
    if (rest.length === 0) return match;
    const value = rest.shift();
    if (spec === 's') return String(value);
    if (spec === 'd') return String(Math.trunc(Number(value)));
    return inspectJson(value);
  });
  return [text, ...rest.map(inspectJson)].join(' ');
}

function inspectJson(value: unknown): string {
  if (value instanceof Error) return `${value.name}: ${value.message}`;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** Creates a `Logger` named `name` that appends to `sink`. */
export function createRecordingLogger(name: string, sink: LogEntry[]): Logger {
  const at = (level: LogLevel) => (format: string, ...args: unknown[]) => {
    sink.push({ level, name, message: formatLog(format, args) });
  };
  return { warn: at('warn'), info: at('info'), debug: at('debug'), error: at('error') };
}
