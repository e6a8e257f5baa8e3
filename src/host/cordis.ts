// Structural types for the Cordis members our plugins touch (contract §1). DSH vendors Cordis
// 4.0.0-rc.7 as @deepseek-ai/cordis, which is not installable, so we describe only the shape we use
// and never import it at runtime.

import type { FileSystem } from './fs.js';
import { CORDIS_ORIGINAL_SYMBOL } from './names.js';
import type { SystemPrompt } from './prompt.js';
import type { ToolRuntime } from './tools.js';

/** Undo a registration; returns whether something was removed (Cordis's `() => boolean`). */
export type Disposer = () => unknown;

/** `ctx.on` options: `prepend` registers outermost; `global` escapes agent-scope filtering. */
export type ListenerOptions = boolean | { prepend?: boolean; global?: boolean };

/** `ctx.logger`. Format placeholders: `%o`/`%O` JSON, `%s` string, `%d` integer. */
export interface Logger {
  warn(format: string, ...args: unknown[]): void;
  info(format: string, ...args: unknown[]): void;
  debug(format: string, ...args: unknown[]): void;
  error(format: string, ...args: unknown[]): void;
}

/** The Cordis context members our plugins use (contract §1.2). */
export interface Context {
  on(name: string, listener: (...args: any[]) => any, options?: ListenerOptions): Disposer;
  emit(name: string, ...args: unknown[]): void;
  serial(name: string, ...args: unknown[]): Promise<unknown>;
  waterfall(name: string, ...args: unknown[]): unknown;
  effect(body: () => (() => void) | void, label?: string): () => void;
  get(name: string): unknown;
  /**
   * Runs `callback` with a child context once every service in `deps` is available, and unloads it
   * (its listeners, registrations and effects) when one goes away; a replaced service reloads it.
   * Cordis's `ctx.inject(deps, callback)`, how a plugin waits for a service that may be mounted after it.
   */
  inject(deps: readonly string[], callback: (ctx: Context) => void): unknown;
  readonly logger: Logger;
  readonly fs?: FileSystem;
  readonly tools?: ToolRuntime;
  readonly systemPrompt?: SystemPrompt;
}

/** One Standard Schema issue (the subset DSH reads). */
export interface StandardIssue {
  readonly message: string;
  readonly path?: readonly (PropertyKey | { readonly key: PropertyKey })[];
}

/** The Standard Schema v1 surface DSH validates plugin config through; schemastery implements it. */
export interface StandardSchema<Output = unknown> {
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: string;
    validate(value: unknown): { readonly value: Output; readonly issues?: undefined } | { readonly issues: readonly StandardIssue[] } | Promise<unknown>;
  };
}

/**
 * A plugin module as DSH's loader sees it: an ES module namespace with `name`, `Config` and `apply`,
 * no default export (the loader unwraps `default ?? namespace`, so a stray default would hide the
 * rest), and optionally `inject`.
 */
export interface PluginModule<C = any> {
  readonly name: string;
  readonly Config?: StandardSchema<C>;
  readonly inject?: readonly string[];
  apply(ctx: Context, config: C): void | Promise<void> | (() => void);
}

/**
 * The service object behind a value `ctx.get(name)` returned. Cordis wraps a service in a new proxy
 * at every `get`, so two lookups of one provider are never `===`; a cache that must be dropped when
 * the provider changes compares this instead. A value that is not such a proxy is its own identity.
 * @param service - what `ctx.get(name)` returned.
 * @returns the object behind it.
 */
export function serviceIdentity(service: object): object {
  const original = (service as Record<symbol, unknown>)[Symbol.for(CORDIS_ORIGINAL_SYMBOL)];
  return typeof original === 'object' && original !== null ? original : service;
}
