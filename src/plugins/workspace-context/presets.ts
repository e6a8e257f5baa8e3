// One loader per agent (WC-29, contract correction 8). A bundle patch can switch off DSH's host-level
// `agent-instructions` row, but a profile with an agent-preset roster (DSH's web profile) mounts DSH's
// loader again inside each preset — where no bundle patch reaches. An agent composed from such a
// preset already has DSH's loader, with the same texts and source kind as ours; running both would
// do every discovery twice and inject twice whenever their settings differ. So for those agents
// workspace-context stands aside, and says so once per preset.

import { parse } from 'yaml';
import { BUILTIN_INSTRUCTIONS_PLUGIN, HostService, type Agent, type Context } from '../../host/index.js';

/** The part of DSH's `agentPresets` service (rc.8, `@deepseek-ai/dsh-agent-presets`) read here. */
interface AgentPresets {
  composedPreset(agentCtx: Context): string | undefined;
  read(id: string): Promise<string>;
}

/** Most rows (nested groups included) looked at in one preset composition. */
const MAX_ROWS = 10_000;

/**
 * Whether a preset composition mounts DSH's loader: a row named `@deepseek-ai/dsh-agent-instructions`
 * that is not `disabled: true`, at any depth of groups. A row disabled by an expression (`!!js …`)
 * cannot be evaluated here and counts as mounted.
 * @param composition - the preset's `agent.cordis.yml` text.
 * @returns true when the composition mounts DSH's loader.
 */
export function mountsBuiltinLoader(composition: string): boolean {
  let document: unknown;
  try {
    document = parse(composition, { logLevel: 'error', strict: false });
  } catch {
    return false; // DSH cannot mount an unparsable preset either
  }
  const queue: unknown[] = [document];
  let seen = 0;
  while (queue.length > 0) {
    const rows = queue.shift();
    if (!Array.isArray(rows)) continue;
    for (const row of rows as { name?: unknown; disabled?: unknown; config?: unknown }[]) {
      if (++seen > MAX_ROWS) return false;
      if (row === null || typeof row !== 'object') continue;
      if (row.name === BUILTIN_INSTRUCTIONS_PLUGIN && row.disabled !== true) return true;
      // A group row holds its entries as its config list.
      queue.push(row.config);
    }
  }
  return false;
}

/** Per agent: does its preset already mount DSH's loader? Decided once per agent, remembered. */
export class PresetLoaders {
  readonly #decided = new WeakMap<Agent, Promise<boolean>>();
  readonly #settled = new WeakMap<Agent, boolean>();
  readonly #announced = new Set<string>();

  constructor(private readonly ctx: Context) {}

  /**
   * Whether workspace-context stands aside for `agent` (its preset mounts DSH's loader). False when
   * there is no preset roster, the agent joined no preset, or the preset cannot be read.
   * @param agent - the agent of a step.
   * @returns the decision, the same for the agent's whole life.
   */
  standsAside(agent: Agent): Promise<boolean> {
    let decided = this.#decided.get(agent);
    if (decided === undefined) {
      decided = this.#decide(agent).then((aside) => {
        this.#settled.set(agent, aside);
        return aside;
      });
      this.#decided.set(agent, decided);
    }
    return decided;
  }

  /**
   * The decision if it has been made (a file touch never waits for it: touches come after the
   * agent's first step, which made it).
   * @param agent - the agent of a tool call.
   * @returns true when workspace-context stands aside for it.
   */
  knownAside(agent: Agent): boolean {
    return this.#settled.get(agent) === true;
  }

  async #decide(agent: Agent): Promise<boolean> {
    const presets = this.ctx.get(HostService.agentPresets) as AgentPresets | undefined;
    const id = presets?.composedPreset(agent.ctx);
    if (presets === undefined || id === undefined) return false;
    let composition: string;
    try {
      composition = await presets.read(id);
    } catch {
      return false;
    }
    const aside = mountsBuiltinLoader(composition);
    if (aside && !this.#announced.has(id)) {
      this.#announced.add(id);
      this.ctx.logger.info(`agent preset "%s" mounts DSH's own instruction loader (${BUILTIN_INSTRUCTIONS_PLUGIN}); workspace-context stands aside for its agents`, id);
    }
    return aside;
  }
}
