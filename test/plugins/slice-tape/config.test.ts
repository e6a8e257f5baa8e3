// Configuration (ST-04..ST-11): exact defaults and the exact load errors a user sees.

import { describe, expect, it } from 'vitest';
import * as tape from '../../../src/plugins/slice-tape/index.js';
import { ConfigValidationError, createTestHost, validateConfig } from '../../../src/testing/index.js';

/** The message DSH's loader shows for a rejected config. */
function loadError(config: unknown): string {
  try {
    createTestHost().use(tape, config);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigValidationError);
    return (error as Error).message;
  }
  throw new Error('config was accepted');
}

const DEFAULTS = {
  maxStepsPerTurn: 50,
  defaultReasoningEffort: 'low',
  history: { keepRecentTurns: 0, pinFirstTurn: true, pinUserChars: 1200, entryMaxChars: 8000, pinReplyChars: 0, startAfterChars: 0 },
  fold: { enabled: true, pinSteps: 0, pinMaxChars: 8000, spillPreviewMinBytes: 50000, backoffAfterExpansions: 2 },
  digest: {},
  mode: 'slice',
};

describe('defaults', () => {
  it('ST-04 an empty or absent config resolves to the documented defaults', () => {
    expect(validateConfig(tape.Config, undefined)).toEqual(DEFAULTS);
    expect(validateConfig(tape.Config, {})).toEqual(DEFAULTS);
  });

  it('ST-04 the seed\'s config block validates to the same values', () => {
    const seed = { maxStepsPerTurn: 50, defaultReasoningEffort: 'low', history: { keepRecentTurns: 0, pinFirstTurn: true, pinUserChars: 1200, entryMaxChars: 8000 } };
    expect(validateConfig(tape.Config, seed)).toEqual(DEFAULTS);
  });

  it('ST-04 explicit values are kept, partial sections are completed', () => {
    const value = validateConfig(tape.Config, { history: { keepRecentTurns: 2 }, fold: { spillPreviewMinBytes: 0 }, digest: { minChars: 10 }, mode: 'slice', defaultReasoningEffort: 'inherit' });
    expect(value).toEqual({ ...DEFAULTS, defaultReasoningEffort: 'inherit', history: { ...DEFAULTS.history, keepRecentTurns: 2 }, fold: { ...DEFAULTS.fold, spillPreviewMinBytes: 0 }, digest: { minChars: 10 } });
  });

  it('ST-11 fold and digest are accepted with the [U] defaults', () => {
    expect(validateConfig(tape.Config, { fold: {} }).fold).toEqual({ enabled: true, pinSteps: 0, pinMaxChars: 8000, spillPreviewMinBytes: 50000, backoffAfterExpansions: 2 });
    expect(validateConfig(tape.Config, { fold: { enabled: false, pinSteps: 3, pinMaxChars: 1, backoffAfterExpansions: 1 } }).fold).toEqual({ enabled: false, pinSteps: 3, pinMaxChars: 1, spillPreviewMinBytes: 50000, backoffAfterExpansions: 1 });
  });
});

describe('validation names the key', () => {
  it.each([
    [{ history: { keepRecentTurns: -1 } }, 'history.keepRecentTurns must be a safe integer >= 0, got -1 (at history.keepRecentTurns)'],
    [{ history: { keepRecentTurns: 1.5 } }, 'history.keepRecentTurns must be a safe integer >= 0, got 1.5 (at history.keepRecentTurns)'],
    [{ history: { pinFirstTurn: 'yes' } }, 'history.pinFirstTurn must be a boolean, got "yes" (at history.pinFirstTurn)'],
    [{ history: { pinUserChars: 0 } }, 'history.pinUserChars must be a positive safe integer, got 0 (at history.pinUserChars)'],
    [{ history: { entryMaxChars: 255 } }, 'history.entryMaxChars must be a safe integer >= 256, got 255 (at history.entryMaxChars)'],
    [{ history: { entryMaxChars: 2 ** 53 } }, 'history.entryMaxChars must be a safe integer >= 256, got 9007199254740992 (at history.entryMaxChars)'],
    [{ history: { startAfterChars: -1 } }, 'history.startAfterChars must be a safe integer >= 0, got -1 (at history.startAfterChars)'],
    [{ history: { pinReplyChars: 2.5 } }, 'history.pinReplyChars must be a safe integer >= 0, got 2.5 (at history.pinReplyChars)'],
    [{ maxStepsPerTurn: 0 }, 'maxStepsPerTurn must be a positive integer, got 0 (at maxStepsPerTurn)'],
    [{ maxStepsPerTurn: '50' }, 'maxStepsPerTurn must be a positive integer, got "50" (at maxStepsPerTurn)'],
    [{ defaultReasoningEffort: 'medium' }, 'defaultReasoningEffort must be one of off | low | high | max | inherit, got "medium" (at defaultReasoningEffort)'],
    [{ mode: 'state' }, 'mode must be slice, got "state"; the state and stream rollback experiments were retired (at mode)'],
    [{ mode: 'stream' }, 'mode must be slice, got "stream"; the state and stream rollback experiments were retired (at mode)'],
    [{ history: 3 }, 'history must be an object, got 3 (at history)'],
    [{ digest: [] }, 'digest must be an object, got [] (at digest)'],
    [{ fold: { enabled: 1 } }, 'fold.enabled must be a boolean, got 1 (at fold.enabled)'],
    [{ fold: { pinSteps: -1 } }, 'fold.pinSteps must be a safe integer >= 0, got -1 (at fold.pinSteps)'],
    [{ fold: { pinMaxChars: 0 } }, 'fold.pinMaxChars must be a positive safe integer, got 0 (at fold.pinMaxChars)'],
    [{ fold: { spillPreviewMinBytes: 0.5 } }, 'fold.spillPreviewMinBytes must be a safe integer >= 0, got 0.5 (at fold.spillPreviewMinBytes)'],
    [{ fold: { backoffAfterExpansions: 0 } }, 'fold.backoffAfterExpansions must be a positive safe integer, got 0 (at fold.backoffAfterExpansions)'],
    [{ fold: { routing: true } }, 'Unknown fold configuration routing; valid keys: enabled, pinSteps, pinMaxChars, spillPreviewMinBytes, backoffAfterExpansions (at fold.routing)'],
  ])('ST-05/ST-11 %j fails at load', (config, message) => {
    expect(loadError(config)).toBe(`invalid config:\n  - ${message}`);
  });

  it('ST-05 boundary values are accepted', () => {
    expect(validateConfig(tape.Config, { history: { keepRecentTurns: 0, entryMaxChars: 256, pinUserChars: 1 }, maxStepsPerTurn: 1 }).history).toEqual({ keepRecentTurns: 0, pinFirstTurn: true, pinUserChars: 1, entryMaxChars: 256, pinReplyChars: 0, startAfterChars: 0 });
    for (const effort of ['off', 'low', 'high', 'max', 'inherit']) expect(validateConfig(tape.Config, { defaultReasoningEffort: effort }).defaultReasoningEffort).toBe(effort);
  });
});

describe('unknown, inert and retired keys', () => {
  const valid = 'Valid keys: maxHistoryChars, maxRequestChars, maxStepsPerTurn, defaultReasoningEffort, digest, fold, history, mode.';

  it('ST-06 an unknown history key lists the valid ones', () => {
    expect(loadError({ history: { keepRecent: 1 } })).toBe('invalid config:\n  - Unknown history configuration keepRecent; valid keys: keepRecentTurns, pinFirstTurn, pinUserChars, entryMaxChars, pinReplyChars, startAfterChars (at history.keepRecent)');
  });

  it('ST-06 an unknown top-level key suggests the nearest key within edit distance 2, ignoring case', () => {
    expect(loadError({ Histroy: {} })).toBe(`invalid config:\n  - Unknown slice configuration key Histroy. Did you mean history? ${valid} (at Histroy)`);
    expect(loadError({ MODES: 'slice' })).toBe(`invalid config:\n  - Unknown slice configuration key MODES. Did you mean mode? ${valid} (at MODES)`);
  });

  it('ST-06 without a near key there is no hint', () => {
    expect(loadError({ budget: 1 })).toBe(`invalid config:\n  - Unknown slice configuration key budget. ${valid} (at budget)`);
  });

  it('ST-06 issue 32 item 13: a key Object.prototype answers (constructor, toString) is an unknown key, not a retired one', () => {
    expect(loadError({ constructor: 1 })).toBe(`invalid config:\n  - Unknown slice configuration key constructor. ${valid} (at constructor)`);
    expect(loadError({ history: { toString: 1 } })).toBe('invalid config:\n  - Unknown history configuration toString; valid keys: keepRecentTurns, pinFirstTurn, pinUserChars, entryMaxChars, pinReplyChars, startAfterChars (at history.toString)');
  });

  it('ST-07 maxRequestChars and maxHistoryChars parse, are dropped, and nothing warns', async () => {
    const host = createTestHost();
    const plugin = host.use(tape, { maxRequestChars: 1, maxHistoryChars: 'anything' });
    await plugin.ready;
    expect(validateConfig(tape.Config, { maxRequestChars: 1, maxHistoryChars: 2 })).toEqual(DEFAULTS);
    expect(host.logs).toEqual([]);
  });

  it.each([
    ['highWaterChars', 'no counterpart: every completed turn is sealed, so there is no pressure threshold left to cross'],
    ['lowWaterChars', 'no counterpart: every completed turn is sealed, so there is no pressure threshold left to cross'],
    ['keepRecentChars', 'use history.keepRecentTurns, counted in turns'],
    ['checkpointMaxChars', 'use history.entryMaxChars'],
  ])('ST-08 history.%s fails with the Retired history configuration prefix and its note', (key, note) => {
    expect(loadError({ history: { [key]: 1 } })).toBe(`invalid config:\n  - Retired history configuration ${key}: ${note} (at history.${key})`);
  });

  it.each(['maxParallelToolCalls', 'inTurnSeal', 'tape', 'state'])('ST-08 top-level %s fails with the Retired slice configuration prefix', (key) => {
    const message = loadError({ [key]: {} });
    expect(message.startsWith(`invalid config:\n  - Retired slice configuration ${key}: `)).toBe(true);
    expect(message.endsWith(` (at ${key})`)).toBe(true);
  });

  it('ST-08 retired-key checks win over unknown-key checks, whatever the key order', () => {
    expect(loadError({ zzz: 1, tape: {} })).toMatch(/^invalid config:\n {2}- Retired slice configuration tape: /);
    expect(loadError({ history: { zzz: 1, checkpointMaxChars: 5 } })).toBe('invalid config:\n  - Retired history configuration checkpointMaxChars: use history.entryMaxChars (at history.checkpointMaxChars)');
  });

  it('X-16 a rejected config does not start the plugin: no tools are registered', () => {
    const host = createTestHost();
    expect(() => host.use(tape, { mode: 'state' })).toThrow(ConfigValidationError);
    expect(host.ctx.tools!.get('recall_turn')).toBeUndefined();
  });
});
