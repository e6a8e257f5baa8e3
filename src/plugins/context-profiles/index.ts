// context-profiles: per-session tool, prompt, context and channel profiles for DSH, with deferred
// tools behind `tool_search`, a state file, an HTTP API and a panel. See README.md
// "context-profiles" and /work/shared/spec/context-profiles.md.

import { hostRuntime, HostService, type Context, type HttpService, type ModelCompletion } from '../../host/index.js';
import { Config, resolveConfig } from './config.js';
import { Profiles } from './controller.js';
import { createApiHandler, PREFIX } from './http.js';
import { registerAdditionalRules } from './prompt.js';
import { StateStore } from './store.js';
import { Translator } from './translate.js';

export { Config };
export type { Config as ContextProfilesConfig } from './config.js';
export type { Baseline, Effective, GroupState, Profile, Slot, State, ToolState } from './model.js';
export { builtinProfiles, CONTEXT_SWITCHES, GROUP_IDS } from './model.js';
export { Profiles } from './controller.js';
export { StateStore } from './store.js';
export { createApiHandler, loopbackTrusted, API, PREFIX } from './http.js';
export { Translator } from './translate.js';

/** The plugin name (CP-01a). */
export const name = 'context-profiles';

/** Services the plugin needs: it registers tools and sections. */
export const inject = ['tools', 'systemPrompt'];

/**
 * Mounts the plugin: loads (and if needed migrates) the state file, registers the global
 * additional rules and the listeners, and mounts the API and panel on the host's HTTP service when
 * there is one (behind its trust fence, else the loopback fallback).
 */
export function apply(ctx: Context, config: Config): void {
  const { dshHome } = resolveConfig(config, hostRuntime(ctx));
  const store = new StateStore(dshHome.path, ctx.logger);
  store.load();
  const profiles = new Profiles(ctx, store);
  registerAdditionalRules(ctx, (agent) => profiles.baselineOf(agent));
  profiles.mount();
  mounted.set(ctx, profiles);
  const http = ctx.get(HostService.http) as HttpService | undefined;
  if (http !== undefined) {
    const translator = new Translator(dshHome.path, () => ctx.get(HostService.model) as ModelCompletion | undefined);
    const trusted = http.trusted?.bind(http);
    const unmount = http.route(PREFIX, createApiHandler({ profiles, translator, ...(trusted ? { trusted } : {}) }));
    ctx.effect(() => unmount, `${name}: routes`);
  }
}

/** The controller of each mounted context, for the HTTP API (http.ts) and tests. */
export const mounted = new WeakMap<object, Profiles>();
