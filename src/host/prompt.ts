// System-prompt shapes (contract §8): sections, runtime contexts, variables and the assembly the
// `system-prompt/assemble` waterfall passes around.

import type { Agent } from './agent.js';
import type { ToolSchema } from './tools.js';

export interface AssembleContext {
  readonly scope?: unknown;
  readonly signal?: AbortSignal;
  readonly agent?: Agent;
}

export interface PromptSection {
  /** Unique per layer; an agent-scoped section shadows the global one of the same name. */
  readonly name: string;
  /** Ascending; finite. */
  readonly order: number;
  /** May contain `{{variable}}` references. */
  readonly text: string | ((ctx: AssembleContext) => string);
  /** This section alone becomes the prompt. */
  readonly complete?: boolean;
}

export interface PromptContext {
  readonly name: string;
  readonly order: number;
  readonly text: string | ((ctx: AssembleContext) => string);
  /**
   * A required context is put back by the host's `refreshContext` re-check when an assemble
   * listener removed it; a same-named agent-scoped registration without it shadows the flag.
   * [uncertain: the contract does not spell the field; seed 004 describes its behaviour.]
   */
  readonly required?: boolean;
}

export interface PromptAssembly {
  sections: { name: string; text: string }[];
  contexts: { name: string; text: string }[];
  tools: ToolSchema[];
  variables: Record<string, string | undefined>;
}

export interface SystemPrompt {
  section(section: PromptSection): () => void;
  context(context: PromptContext): () => void;
  variable(name: string, provider: (ctx: AssembleContext) => string | undefined): () => void;
  suppressRuntimeContext(): () => void;
  assemble(ctx?: AssembleContext): Promise<PromptAssembly>;
}
