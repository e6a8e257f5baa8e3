// The Cordis-like context the offline host hands to each plugin (and to each agent as
// `agent.ctx`): listeners and registrations belong to the context's fiber and go away with it;
// services appear through `get(name)` and as properties; `ctx.get('fs')` is undefined until a
// provider is mounted (contract §1.2, §12.1).

import { serviceIdentity, type Context, type ListenerOptions, type Logger } from '../host/cordis.js';
import type { FileSystem } from '../host/fs.js';
import { CORDIS_ORIGINAL_SYMBOL, HostEvent, HostService } from '../host/names.js';
import type { SystemPrompt } from '../host/prompt.js';
import { HOST_RUNTIME_SERVICE, type HostRuntime } from '../host/runtime.js';
import type { LlmService } from '../host/model.js';
import type { SpillStore } from '../host/spill.js';
import type { ToolExecutionInput, ToolExecutionResult, ToolRuntime } from '../host/tools.js';
import { Fiber, type EventBus } from './events.js';
import type { PromptRegistry } from './prompt.js';
import type { ServiceTable } from './services.js';
import type { ToolRegistry } from './tool-registry.js';

/** What every context of one host shares. */
export interface HostCore {
  readonly bus: EventBus;
  readonly tools: ToolRegistry;
  readonly prompt: PromptRegistry;
  readonly runtime: HostRuntime;
  /** The mounted provider, if any. */
  readonly fs: FileSystem | undefined;
  /** The spill store, when the host provides one. */
  readonly spill?: SpillStore;
  /** The model registry, when the host knows its models' capabilities. */
  readonly llm?: LlmService;
  /** Services provided (and removed) while plugins run: `webServer`, `agentDefaultModel`, …. */
  readonly services: ServiceTable;
  execute(input: ToolExecutionInput): Promise<ToolExecutionResult>;
}

/** A plugin's (or an agent's) context. `scope` is the agent for `agent.ctx`, undefined otherwise. */
export class OfflineContext implements Context {
  #tools: ToolRuntime | undefined;
  #prompt: SystemPrompt | undefined;

  constructor(
    readonly core: HostCore,
    readonly fiber: Fiber,
    readonly logger: Logger,
    readonly scope: object | undefined,
  ) {}

  /** Registers a listener; `global: true` on an agent context receives every agent's events. */
  on(name: string, listener: (...args: any[]) => any, options?: ListenerOptions): () => boolean {
    const opts = typeof options === 'boolean' ? { prepend: options } : (options ?? {});
    return this.core.bus.on(name, listener, { prepend: opts.prepend, scope: opts.global ? undefined : this.scope, fiber: this.fiber, logger: this.logger });
  }

  /** Raw emit: unfiltered, throws propagate. Accepts Cordis's `emit(thisArg, name, ...args)` form. */
  emit(...input: unknown[]): void {
    const [name, args] = splitThisArg(input);
    this.core.bus.emit(name, null, args);
  }

  serial(...input: unknown[]): Promise<unknown> {
    const [name, args] = splitThisArg(input);
    return this.core.bus.serial(name, null, args);
  }

  /** The final argument is the innermost `next`. */
  waterfall(...input: unknown[]): unknown {
    const [name, args] = splitThisArg(input);
    const innermost = args.pop() as () => unknown;
    return this.core.bus.waterfall(name, null, args, innermost);
  }

  /** Runs `body` now; its returned teardown runs when the fiber is disposed (or when called). */
  effect(body: () => (() => void) | void): () => void {
    const teardown = body();
    return this.fiber.add(() => teardown?.());
  }

  get(name: string): unknown {
    switch (name) {
      case HostService.fs:
        return serviceView(this.core.fs);
      case HostService.tools:
        return this.tools;
      case HostService.systemPrompt:
        return this.systemPrompt;
      case HostService.spill:
        return this.core.spill;
      case HostService.llm:
        return this.core.llm;
      case HOST_RUNTIME_SERVICE:
        return this.core.runtime;
      default:
        return this.core.services.get(name);
    }
  }

  /**
   * Cordis's `ctx.inject`: `callback` runs with a child context (its own fiber, this scope) once
   * every service in `deps` is there, the child unloads when one goes away, and a replaced service
   * reloads it. The child unloads with this context too.
   */
  inject(deps: readonly string[], callback: (ctx: Context) => void): () => void {
    let child: { readonly fiber: Fiber; readonly values: unknown[]; readonly detach: () => void } | undefined;
    const unload = () => {
      const current = child;
      child = undefined;
      current?.detach();
      current?.fiber.dispose();
    };
    const sync = () => {
      // Compared by what is behind the proxy: every lookup hands out a new one, as Cordis does.
      const values = deps.map((name) => {
        const value = this.get(name);
        return typeof value === 'object' && value !== null ? serviceIdentity(value) : value;
      });
      if (child !== undefined && child.values.every((v, i) => v === values[i])) return;
      unload();
      if (this.fiber.disposed || values.some((v) => v === undefined)) return;
      const fiber = new Fiber(`${this.fiber.label} inject(${deps.join(', ')})`);
      child = { fiber, values, detach: this.fiber.add(() => fiber.dispose()) };
      try {
        callback(new OfflineContext(this.core, fiber, this.logger, this.scope));
      } catch (error) {
        this.logger.warn('inject(%s) failed: %s', deps.join(', '), error instanceof Error ? error.message : String(error));
        unload();
      }
    };
    const unwatch = this.core.services.watch(sync);
    const stop = this.fiber.add(() => {
      unwatch();
      unload();
    });
    sync();
    return stop;
  }

  get fs(): FileSystem | undefined {
    return serviceView(this.core.fs);
  }

  /** `ctx.tools`: registrations here are owned by this context's fiber and scoped to its agent, if any. */
  get tools(): ToolRuntime {
    this.#tools ??= toolView(this);
    return this.#tools;
  }

  get systemPrompt(): SystemPrompt {
    this.#prompt ??= promptView(this);
    return this.#prompt;
  }
}

/**
 * What Cordis hands out for a service (contract §1.2): a new proxy at every lookup, whose methods
 * run on the service and whose `Symbol.for('cordis.original')` answers the service itself. So a
 * plugin that keys a cache on the looked-up value, as if lookups were `===`, misses it here as it
 * does in DSH (`serviceIdentity` is the key that holds).
 */
function serviceView<T extends object>(service: T | undefined): T | undefined {
  if (service === undefined) return undefined;
  const original = Symbol.for(CORDIS_ORIGINAL_SYMBOL);
  return new Proxy(service, {
    get(target, property) {
      if (property === original) return target;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

function toolView(ctx: OfflineContext): ToolRuntime {
  const { core, fiber, scope } = ctx;
  return {
    register: (def) => fiber.add(core.tools.register(def, scope)),
    // As DSH's registry: an omitted scope is the global view, whichever context asks.
    get: (name, s) => core.tools.get(name, s as object | undefined),
    schemas: (s) => core.tools.schemas(s as object | undefined),
    execute: (input) => core.execute(input),
    guard(fn) {
      core.tools.guards.push(fn);
      return fiber.add(() => {
        const i = core.tools.guards.indexOf(fn);
        if (i >= 0) core.tools.guards.splice(i, 1);
      });
    },
    restrict: (filter) => fiber.add(core.tools.restrict(filter, scope)),
    executionMode(input) {
      const def = core.tools.get(input.name, (input.agent as object | undefined) ?? scope);
      return def?.isConcurrencySafe?.(input.arguments) === true ? { kind: 'parallel' } : { kind: 'exclusive' };
    },
    presentAs(mode) {
      const previous = core.tools.presentation;
      core.tools.presentation = mode;
      core.bus.notify(HostEvent.toolsChange, null, []);
      return fiber.add(() => {
        core.tools.presentation = previous;
        core.bus.notify(HostEvent.toolsChange, null, []);
      });
    },
  };
}

function promptView(ctx: OfflineContext): SystemPrompt {
  const { core, fiber, scope } = ctx;
  return {
    section: (section) => fiber.add(core.prompt.section(section, scope)),
    context: (context) => fiber.add(core.prompt.context(context, scope)),
    variable: (name, provider) => fiber.add(core.prompt.variable(name, provider, scope)),
    suppressRuntimeContext: () => fiber.add(core.prompt.suppressRuntimeContext()),
    assemble: (assembleCtx) => core.prompt.assemble(assembleCtx),
  };
}

function splitThisArg(input: unknown[]): [string, unknown[]] {
  if (typeof input[0] === 'string') return [input[0], input.slice(1)];
  return [input[1] as string, input.slice(2)];
}
