// Configuration of the slice tape (spec ST-04..ST-11): exact defaults, and load errors whose text is
// fixed by the spec (unknown keys with the valid-key list, retired keys with their prefixes). The
// schema is a Standard Schema written here rather than schemastery, because schemastery words its
// own errors and silently drops unknown keys, while these messages must reach the user verbatim.

import type { StandardIssue, StandardSchema } from '../../host/cordis.js';

export type ReasoningEffortDefault = 'off' | 'low' | 'high' | 'max' | 'inherit';

export interface HistoryConfig {
  /** Completed turns left raw at the tail; 0 seals a turn at the first step of the next one. */
  readonly keepRecentTurns: number;
  /** Keep turn 1's user message as an untouched node (its assistant and tool run can still be sealed). */
  readonly pinFirstTurn: boolean;
  /** Sealed user messages up to this many code points stay verbatim. */
  readonly pinUserChars: number;
  /** Hard cap on one new entry's text, in code points. */
  readonly entryMaxChars: number;
  /**
   * Sealed replies up to this many code points stay verbatim; a longer one keeps its first two
   * thirds and last third of this many around a `recall_turn` marker. 0 keeps every reply whole
   * (issue 30: the reply is the largest part of an entry, and an entry is resent with every request).
   */
  readonly pinReplyChars: number;
  /**
   * Code points of raw text the sealable turns must hold before the first entry is written; 0 seals
   * from the first completed turn (issue 30: while a session is short, its raw turns cost less than
   * recalling what sealing them would hide).
   */
  readonly startAfterChars: number;
}

export interface FoldConfig {
  readonly enabled: boolean;
  readonly pinSteps: number;
  readonly pinMaxChars: number;
  /** Results of at least this many UTF-8 bytes are folded to a preview; 0 = off. */
  readonly spillPreviewMinBytes: number;
  readonly backoffAfterExpansions: number;
}

/** The validated configuration `apply` receives. */
export interface SliceTapeConfig {
  readonly maxStepsPerTurn: number;
  readonly defaultReasoningEffort: ReasoningEffortDefault;
  readonly history: HistoryConfig;
  readonly fold: FoldConfig;
  /** Content-routing options; accepted and kept, their heuristics are out of scope (NG-ST-5). */
  readonly digest: Readonly<Record<string, unknown>>;
  readonly mode: 'slice';
}

export const DEFAULT_MAX_STEPS_PER_TURN = 50;
export const DEFAULT_REASONING_EFFORT: ReasoningEffortDefault = 'low';
export const REASONING_EFFORTS: readonly ReasoningEffortDefault[] = ['off', 'low', 'high', 'max', 'inherit'];
export const DEFAULT_HISTORY: HistoryConfig = { keepRecentTurns: 0, pinFirstTurn: true, pinUserChars: 1200, entryMaxChars: 8000, pinReplyChars: 0, startAfterChars: 0 };
export const DEFAULT_FOLD: FoldConfig = { enabled: true, pinSteps: 0, pinMaxChars: 8000, spillPreviewMinBytes: 50000, backoffAfterExpansions: 2 };
/** `entryMaxChars` below this cannot hold the compact form of an entry. */
export const MIN_ENTRY_MAX_CHARS = 256;

/** Top-level keys in the order the unknown-key message lists them (ST-06). */
export const CONFIG_KEYS: readonly string[] = ['maxHistoryChars', 'maxRequestChars', 'maxStepsPerTurn', 'defaultReasoningEffort', 'digest', 'fold', 'history', 'mode'];
/** Accepted and ignored, without a warning (ST-07). */
export const INERT_KEYS: readonly string[] = ['maxHistoryChars', 'maxRequestChars'];
const HISTORY_KEYS = Object.keys(DEFAULT_HISTORY);
const FOLD_KEYS = Object.keys(DEFAULT_FOLD);

/** Keys of the retired loop-replacement driver, each with where it went (ST-08). */
export const RETIRED_SLICE_KEYS: Readonly<Record<string, string>> = {
  maxParallelToolCalls: 'scheduling belongs to the stock agent-loop row; remove the key',
  inTurnSeal: 'in-turn sealing was retired with the replacement driver; turns are sealed at the first step of the next turn',
  tape: 'file-base tape options were retired with the replacement driver; remove the key',
  state: 'the state/stream rollback experiments were retired; only mode: slice remains',
};
/** Keys of the retired pressure-archive history, each with its replacement, if any (ST-08). */
export const RETIRED_HISTORY_KEYS: Readonly<Record<string, string>> = {
  highWaterChars: 'no counterpart: every completed turn is sealed, so there is no pressure threshold left to cross',
  lowWaterChars: 'no counterpart: every completed turn is sealed, so there is no pressure threshold left to cross',
  keepRecentChars: 'use history.keepRecentTurns, counted in turns',
  checkpointMaxChars: 'use history.entryMaxChars',
};

/** A load error: the exact message and the key path it concerns. */
export class ConfigIssue extends Error {
  constructor(message: string, readonly path: readonly string[]) {
    super(message);
  }
}

/** Levenshtein distance; only short key names are compared, so the quadratic table is fine. */
function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length]!;
}

const describe = (value: unknown): string => (typeof value === 'string' ? JSON.stringify(value) : value === undefined ? 'undefined' : JSON.stringify(value) ?? String(value));

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function integer(value: unknown, fallback: number, key: string, min: number, what: string): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) throw new ConfigIssue(`${key} must be ${what}, got ${describe(value)}`, key.split('.'));
  return value;
}

function boolean(value: unknown, fallback: boolean, key: string): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') throw new ConfigIssue(`${key} must be a boolean, got ${describe(value)}`, key.split('.'));
  return value;
}

/** `value` as an object (`{}` when absent); anything else is a load error naming `key`. */
export function section(value: unknown, key: string): Record<string, unknown> {
  if (value === undefined) return {};
  if (!isObject(value)) throw new ConfigIssue(`${key} must be an object, got ${describe(value)}`, [key]);
  return value;
}

/** Retired keys first (ST-08: they take precedence), then unknown keys with the nearest valid one. */
function checkTopLevelKeys(raw: Record<string, unknown>): void {
  for (const key of Object.keys(raw)) {
    if (CONFIG_KEYS.includes(key)) continue;
    const retired = Object.hasOwn(RETIRED_SLICE_KEYS, key) ? RETIRED_SLICE_KEYS[key] : undefined;
    if (retired !== undefined) throw new ConfigIssue(`Retired slice configuration ${key}: ${retired}`, [key]);
  }
  for (const key of Object.keys(raw)) {
    if (CONFIG_KEYS.includes(key)) continue;
    const lower = key.toLowerCase();
    const near = CONFIG_KEYS.find((valid) => editDistance(valid.toLowerCase(), lower) <= 2);
    throw new ConfigIssue(`Unknown slice configuration key ${key}.${near !== undefined ? ` Did you mean ${near}?` : ''} Valid keys: ${CONFIG_KEYS.join(', ')}.`, [key]);
  }
}

function resolveHistory(raw: Record<string, unknown>): HistoryConfig {
  for (const key of Object.keys(raw)) {
    if (HISTORY_KEYS.includes(key)) continue;
    const retired = Object.hasOwn(RETIRED_HISTORY_KEYS, key) ? RETIRED_HISTORY_KEYS[key] : undefined;
    if (retired !== undefined) throw new ConfigIssue(`Retired history configuration ${key}: ${retired}`, ['history', key]);
  }
  for (const key of Object.keys(raw)) {
    if (!HISTORY_KEYS.includes(key)) throw new ConfigIssue(`Unknown history configuration ${key}; valid keys: ${HISTORY_KEYS.join(', ')}`, ['history', key]);
  }
  return {
    keepRecentTurns: integer(raw.keepRecentTurns, DEFAULT_HISTORY.keepRecentTurns, 'history.keepRecentTurns', 0, 'a safe integer >= 0'),
    pinFirstTurn: boolean(raw.pinFirstTurn, DEFAULT_HISTORY.pinFirstTurn, 'history.pinFirstTurn'),
    pinUserChars: integer(raw.pinUserChars, DEFAULT_HISTORY.pinUserChars, 'history.pinUserChars', 1, 'a positive safe integer'),
    entryMaxChars: integer(raw.entryMaxChars, DEFAULT_HISTORY.entryMaxChars, 'history.entryMaxChars', MIN_ENTRY_MAX_CHARS, `a safe integer >= ${MIN_ENTRY_MAX_CHARS}`),
    pinReplyChars: integer(raw.pinReplyChars, DEFAULT_HISTORY.pinReplyChars, 'history.pinReplyChars', 0, 'a safe integer >= 0'),
    startAfterChars: integer(raw.startAfterChars, DEFAULT_HISTORY.startAfterChars, 'history.startAfterChars', 0, 'a safe integer >= 0'),
  };
}

/**
 * The fold options in `raw` with ST-11's defaults. `prefix` is where they sit (`fold.` inside the
 * tape's config, `` for the standalone fold plugin); `extraKeys` are other keys allowed beside them.
 */
export function resolveFold(raw: Record<string, unknown>, prefix = 'fold.', extraKeys: readonly string[] = []): FoldConfig {
  const valid = [...FOLD_KEYS, ...extraKeys];
  for (const key of Object.keys(raw)) {
    if (!valid.includes(key)) throw new ConfigIssue(`Unknown fold configuration ${key}; valid keys: ${valid.join(', ')}`, `${prefix}${key}`.split('.'));
  }
  return {
    enabled: boolean(raw.enabled, DEFAULT_FOLD.enabled, `${prefix}enabled`),
    pinSteps: integer(raw.pinSteps, DEFAULT_FOLD.pinSteps, `${prefix}pinSteps`, 0, 'a safe integer >= 0'),
    pinMaxChars: integer(raw.pinMaxChars, DEFAULT_FOLD.pinMaxChars, `${prefix}pinMaxChars`, 1, 'a positive safe integer'),
    spillPreviewMinBytes: integer(raw.spillPreviewMinBytes, DEFAULT_FOLD.spillPreviewMinBytes, `${prefix}spillPreviewMinBytes`, 0, 'a safe integer >= 0'),
    backoffAfterExpansions: integer(raw.backoffAfterExpansions, DEFAULT_FOLD.backoffAfterExpansions, `${prefix}backoffAfterExpansions`, 1, 'a positive safe integer'),
  };
}

/**
 * Validates raw config and fills the defaults of ST-04 and ST-11. Throws an Error whose message is
 * the exact user-facing text (ST-05..ST-08); `path` names the key. `undefined` means all defaults.
 */
export function resolveConfig(raw: unknown): SliceTapeConfig {
  const config = raw === undefined || raw === null ? {} : raw;
  if (!isObject(config)) throw new ConfigIssue(`slice tape configuration must be an object, got ${describe(config)}`, []);
  checkTopLevelKeys(config);
  if (config.mode !== undefined && config.mode !== 'slice') {
    throw new ConfigIssue(`mode must be slice, got ${describe(config.mode)}; the state and stream rollback experiments were retired`, ['mode']);
  }
  const effort = config.defaultReasoningEffort ?? DEFAULT_REASONING_EFFORT;
  if (!REASONING_EFFORTS.includes(effort as ReasoningEffortDefault)) {
    throw new ConfigIssue(`defaultReasoningEffort must be one of ${REASONING_EFFORTS.join(' | ')}, got ${describe(effort)}`, ['defaultReasoningEffort']);
  }
  return {
    maxStepsPerTurn: integer(config.maxStepsPerTurn, DEFAULT_MAX_STEPS_PER_TURN, 'maxStepsPerTurn', 1, 'a positive integer'),
    defaultReasoningEffort: effort as ReasoningEffortDefault,
    history: resolveHistory(section(config.history, 'history')),
    fold: resolveFold(section(config.fold, 'fold')),
    digest: structuredClone(section(config.digest, 'digest')),
    mode: 'slice',
  };
}

/** A synchronous Standard Schema over `resolve`, whose single issue carries the exact message. */
export function standardSchema<T>(resolve: (raw: unknown) => T): StandardSchema<T> {
  return {
    '~standard': {
      version: 1,
      vendor: 'dsh-context-engine',
      validate(value: unknown) {
        try {
          return { value: resolve(value) };
        } catch (error) {
          if (!(error instanceof ConfigIssue)) throw error;
          const issue: StandardIssue = { message: error.message, path: error.path };
          return { issues: [issue] };
        }
      },
    },
  };
}

/** The plugin's `Config`. */
export const Config: StandardSchema<SliceTapeConfig> = standardSchema(resolveConfig);
