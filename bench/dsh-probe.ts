// A measuring plugin mounted into real DSH by `npm run bench:dsh` (bench/dsh-steps.ts), by absolute
// path. Per model step it records, with performance.now():
//   - `between`: from the previous step's end (or the turn's start) to this step's start — all the
//     context work DSH does before a step: the inbox claim, prompt assembly, the runtime snapshot and
//     the whole `agent/pre-step` waterfall (every plugin's listener, and the touch projections the
//     loaders wait for);
//   - `preStep`: the `agent/pre-step` waterfall as seen from outside the listeners that were
//     registered when DSH mounted this plugin (it registers with `prepend`);
//   - `toolsResult`: per tool call, from the first `tools/result` listener to the `tool/result`
//     session event DSH appends right after the emit — the listeners' synchronous time;
//   - `fsCalls`: calls of the fs service from the previous step's end to this step's end (the
//     loaders' probes and reads, before the step or in the background, and the step's own tool calls,
//     which are the same in every configuration), and `fsByMethod`, the same calls per method.
// It imports nothing: DSH loads it by path, outside any package.

import { appendFileSync } from 'node:fs';

interface ProbeConfig {
  readonly out: string;
}

/* eslint-disable @typescript-eslint/no-explicit-any -- DSH's own objects. */
type Any = any;

/** Cordis plugin name. */
export const name = 'dsh-step-probe';

/** Accepts `{ out }`, the JSON-lines file to append to. */
export const Config = {
  '~standard': {
    version: 1,
    vendor: 'dsh-context-engine-bench',
    validate(value: unknown) {
      const v = value as Partial<ProbeConfig> | undefined;
      return typeof v?.out === 'string' ? { value: v } : { issues: [{ message: 'dsh-step-probe: config.out (a file path) is required' }] };
    },
  },
};

const FS_METHODS = ['resolve', 'stat', 'lstat', 'readText', 'streamText', 'readBytes', 'listDir', 'writeText', 'editText'];

/**
 * Mounts the probe.
 * @param ctx - DSH's plugin context.
 * @param config - where to write the records.
 */
export function apply(ctx: Any, config: ProbeConfig): void {
  const write = (record: object): void => appendFileSync(config.out, `${JSON.stringify(record)}\n`);
  let calls = 0;
  let byMethod: Record<string, number> = {};
  ctx.inject(['fs'], (fsCtx: Any) => {
    const fs = fsCtx.fs;
    for (const method of FS_METHODS) {
      const original = fs[method];
      if (typeof original !== 'function') continue;
      fs[method] = function counted(this: unknown, ...args: unknown[]) {
        calls++;
        byMethod[method] = (byMethod[method] ?? 0) + 1;
        return original.apply(this, args);
      };
    }
  });

  let mark = performance.now();
  let base = 0;
  let pending: { turn: number; step: number; preStep: number } | undefined;
  let open: { turn: number; step: number; between: number; preStep?: number; toolsResult: number[] } | undefined;
  let resultStarted: number | undefined;

  ctx.on('agent/pre-step', async (event: Any, next: () => Promise<unknown>) => {
    const started = performance.now();
    const decision = await next();
    pending = { turn: event.turn, step: event.step, preStep: performance.now() - started };
    return decision;
  }, { prepend: true });

  ctx.on('tools/result', () => {
    resultStarted ??= performance.now();
  }, { prepend: true });

  ctx.on('session/event', (_session: Any, event: Any) => {
    const now = performance.now();
    switch (event.type) {
      case 'turn/start':
        // Time restarts here (the gap between turns is the bench driver's), counts do not: work left
        // over from the previous turn is charged to this turn's first step.
        mark = now;
        break;
      case 'step/start':
        open = { turn: event.data.turn, step: event.data.step, between: now - mark, preStep: pending !== undefined && pending.step === event.data.step ? pending.preStep : undefined, toolsResult: [] };
        pending = undefined;
        break;
      case 'tool/result':
        if (resultStarted !== undefined) open?.toolsResult.push(now - resultStarted);
        resultStarted = undefined;
        break;
      case 'step/end':
        if (open !== undefined) write({ ...open, fsCalls: calls - base, fsByMethod: byMethod });
        open = undefined;
        mark = now;
        base = calls;
        byMethod = {};
        break;
    }
  }, { prepend: true });
}
