// dsh-context-engine/auto-memory (spec AM-01a): the `memory` tool, the MEMORY.md index injected on
// `agent/pre-step`, the `tool:memory` guidance section, and Claude-Code-style rules with `paths:`.
// Mount it with a `cordis.patch.yml` row `{ id: auto-memory, name: dsh-context-engine/auto-memory }`.

import type { Context } from '../../host/cordis.js';
import type { FileSystem } from '../../host/fs.js';
import { HostEvent, HostService } from '../../host/names.js';
import { hostRuntime } from '../../host/runtime.js';
import { Config, resolveConfig } from './config.js';
import { nodeDisk } from './disk.js';
import { claimingAccess, type FolderAccess } from './folder.js';
import { Injector } from './inject.js';
import { resolveProject } from './project.js';
import { GUIDANCE } from './render.js';
import { memoryTool } from './tool.js';

export { Config } from './config.js';
export { LOOK_ONLY_FOLDERS } from './project.js';
export type { ResolvedConfig, RuleDir } from './config.js';
export type { IndexSource, RulesSource } from './inject.js';
export { SOURCE_KIND } from './inject.js';
export { MEMORY_TOOL } from './tool.js';
export { RuleMatcher } from './rules.js';
export type { Rule, Touch } from './rules.js';

/** The plugin name (AM-01a). */
export const name = 'auto-memory';
/** Services `apply` needs: the tool registry and the system prompt. */
export const inject = ['tools', 'systemPrompt'];
/** The name of the guidance section (AM-30). */
export const GUIDANCE_SECTION = 'tool:memory';
/** Where the guidance sits among prompt sections (after the host's own, before late additions). */
export const GUIDANCE_ORDER = 800;

/**
 * Registers the `memory` tool, the guidance section (when `guidance`), and the listeners that inject
 * the index (when `inject`) and rules (when `rules`) on `agent/pre-step`. Memory storage uses
 * node:fs under the resolved `root`; the project root and rules are read through `ctx.fs`.
 * @param ctx the plugin's context
 * @param config the row's config
 * @param folders how the project's memory folder is found: DSH passes nothing, and the plugin claims
 *   the folder it uses (folder.ts); `dsh-context inspect`, which writes nothing, passes `LOOK_ONLY_FOLDERS`
 */
export function apply(ctx: Context, config: Config, folders: FolderAccess = claimingAccess(nodeDisk)): void {
  const runtime = hostRuntime(ctx);
  const resolved = resolveConfig(config, runtime);
  ctx.tools!.register(memoryTool({
    disk: nodeDisk,
    limits: resolved,
    project: (exec) => resolveProject(exec.agent, runtime.processCwd, resolved.projectRootMarkers, ctx.get(HostService.fs) as FileSystem | undefined, resolved.root, exec.signal, folders),
  }));
  if (resolved.guidance) ctx.systemPrompt!.section({ name: GUIDANCE_SECTION, order: GUIDANCE_ORDER, text: GUIDANCE });
  if (!resolved.inject && !resolved.rules) return;
  const injector = new Injector({ ctx, config: resolved, disk: nodeDisk, runtime, folders });
  ctx.on(HostEvent.toolsResult, (exec, result) => injector.onToolResult(exec, result));
  ctx.on(HostEvent.agentPreStep, (event, next) => injector.onPreStep(event, next));
  ctx.on(HostEvent.agentDisposed, ({ agent }) => injector.forget(agent.session.id));
}
