// context-profiles: per-session tool, prompt, context and channel profiles for DSH, with deferred
// tools behind `tool_search`, a state file, an HTTP API and a panel. See README.md
// "context-profiles" and /work/shared/spec/context-profiles.md.

import { hostRuntime, HostService, type Context, type WebServer } from '../../host/index.js';
import { Config, resolveConfig } from './config.js';
import { Profiles } from './controller.js';
import { createApiHandler, webRoute } from './http.js';
import { registerAdditionalRules } from './prompt.js';
import { StateStore } from './store.js';
import { llmTranslation, Translator } from './translate.js';

export { Config };
export type { Config as ContextProfilesConfig } from './config.js';
export type { Baseline, Effective, GroupState, Profile, Slot, State, ToolState } from './model.js';
export { builtinProfiles, CONTEXT_SWITCHES, GROUP_IDS } from './model.js';
export { Profiles } from './controller.js';
export { StateStore } from './store.js';
export { createApiHandler, loopbackTrusted, newToken, TOKEN_HEADER, trustFence, webRoute, API, PREFIX } from './http.js';
export type { ApiOptions } from './http.js';
export { llmTranslation, Translator } from './translate.js';
export type { TranslationModel } from './translate.js';

/** The plugin name (CP-01a). */
export const name = 'context-profiles';

/** Services the plugin needs: it registers tools and sections. */
export const inject = ['tools', 'systemPrompt'];

/**
 * Mounts the plugin: loads (and if needed migrates) the state file, registers the global
 * additional rules and the listeners, and registers the API and panel as a route of DSH's web
 * server whenever there is one (`webServer`, mounted only by profiles with a browser surface and
 * possibly after this plugin; the route goes when the server goes).
 * @param ctx - the plugin's context.
 * @param config - the validated config.
 */
export function apply(ctx: Context, config: Config): void {
  const { dshHome, panelPeers, panelHosts, defaultProfile, profiles: extra } = resolveConfig(config, hostRuntime(ctx));
  const store = new StateStore(dshHome.path, ctx.logger, undefined, { lastUsedId: defaultProfile, profiles: extra });
  store.load();
  const profiles = new Profiles(ctx, store);
  registerAdditionalRules(ctx, (agent) => profiles.baselineOf(agent));
  profiles.mount();
  mounted.set(ctx, profiles);
  // A fresh access token per mount, handed to the page DSH serves (http.ts).
  const route = webRoute(createApiHandler({
    profiles, translator: new Translator(dshHome.path, llmTranslation(ctx)), logger: ctx.logger,
    tokenInPage: true, trustedPeers: panelPeers, trustedHosts: panelHosts,
  }));
  ctx.inject([HostService.webServer], (web) => {
    const unregister = (web.get(HostService.webServer) as WebServer).register(route);
    web.effect(() => unregister, `${name}: routes`);
  });
}

/** The controller of each mounted context, for the HTTP API (http.ts) and tests. */
export const mounted = new WeakMap<object, Profiles>();
