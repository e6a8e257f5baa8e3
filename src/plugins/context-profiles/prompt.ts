// The system-prompt side of a profile (spec CP-12, CP-17..CP-22, CP-25, CP-26): the global
// additional-rule sections, persona slots, the section and context filters in the
// `system-prompt/assemble` waterfall, and the agent-scope context shadows that keep `refreshContext`
// from re-adding a disabled required context.

import type { Agent, Context, PromptAssembly } from '../../host/index.js';
import {
  ADDITIONAL_RULES, CONTEXT_SWITCHES, PERSONA_PREFIX, PERSONA_PREFIX_ORDER, PERSONA_SUFFIX, PERSONA_SUFFIX_ORDER, RULE_TEXTS,
  type AdditionalRule, type Baseline, type Profile, type Slot,
} from './model.js';
import { isSwitchableSection } from './normalize.js';
import { own } from './json.js';

const SWITCHABLE_CONTEXTS = new Set(CONTEXT_SWITCHES.map((c) => c.name));

/** CP-22: the text an additional rule contributes under `baseline` ('' = not sent). */
export function ruleText(rule: AdditionalRule, baseline: Baseline): string {
  if (rule.key === 'custom') return baseline.custom.enabled && baseline.custom.text.trim() !== '' ? baseline.custom.text : '';
  return baseline[rule.key] ? RULE_TEXTS[rule.key] : '';
}

/**
 * CP-22/CP-17: registers the four global sections. Each reads the baseline the agent was created
 * with (`baselineOf`), so an edit takes effect from the next new session (CP-24).
 */
export function registerAdditionalRules(ctx: Context, baselineOf: (agent: Agent | undefined) => Baseline): void {
  const prompt = ctx.systemPrompt;
  if (prompt === undefined) return;
  for (const rule of ADDITIONAL_RULES) {
    // A function text is rendered per assembly; our own listener puts the literal text back, so a
    // `{{…}}` in the custom text is never taken for a host variable (see `PromptFilter`).
    prompt.section({ name: rule.section, order: rule.order, text: (actx) => (ruleText(rule, baselineOf(actx.agent)) === '' ? '' : rule.section) });
  }
}

/** What the prompt filter needs to know about a root session. */
export interface PromptSession {
  readonly profile: Profile | undefined;
  withoutGuidance(tool: string): boolean;
}

/** The text a persona slot sends: `undefined` keeps the deployment text, `''` drops the slot (CP-18). */
export function slotText(slot: Slot): string | undefined {
  if (!slot.enabled) return '';
  if (!slot.override) return undefined;
  return slot.text;
}

/**
 * CP-18/CP-26: agent-scope registrations for one root session: a persona section per overriding
 * slot (so an override exists at its order even when the deployment has no persona), and an empty,
 * non-required context shadowing each disabled switchable context. Returns the undo.
 */
export function registerShadows(agent: Agent, profile: Profile): () => void {
  const prompt = agent.ctx.systemPrompt;
  if (prompt === undefined) return () => {};
  const undo: (() => void)[] = [];
  for (const [name, order, slot] of [[PERSONA_PREFIX, PERSONA_PREFIX_ORDER, profile.prompt.prefix], [PERSONA_SUFFIX, PERSONA_SUFFIX_ORDER, profile.prompt.suffix]] as const) {
    const text = slotText(slot);
    if (text !== undefined && text !== '') undo.push(prompt.section({ name, order, text: name }));
  }
  for (const [name, off] of Object.entries(profile.contexts)) {
    if (off === false && SWITCHABLE_CONTEXTS.has(name)) undo.push(prompt.context({ name, order: 0, text: '', required: false }));
  }
  return () => undo.splice(0).reverse().forEach((u) => u());
}

/** Options of one assemble pass. */
export interface FilterInput {
  readonly assembly: PromptAssembly;
  readonly session: PromptSession | undefined;
  readonly baseline: Baseline;
}

/**
 * The outermost `system-prompt/assemble` step: fills in the literal additional-rule and persona
 * texts, then for a root session with a profile drops disabled sections (CP-19, protected ones
 * excepted), guidance of tools that are not injected (CP-12), disabled slots (CP-18) and disabled
 * switchable contexts (CP-26). Sub-agents and unprocessed sessions only get the rule texts (CP-17).
 */
export function filterAssembly({ assembly, session, baseline }: FilterInput): PromptAssembly {
  const rules = new Map(ADDITIONAL_RULES.map((r) => [r.section, r]));
  const profile = session?.profile;
  const sections = assembly.sections.flatMap((s) => {
    const rule = rules.get(s.name);
    if (rule !== undefined) {
      const text = ruleText(rule, baseline);
      return text === '' ? [] : [{ name: s.name, text }];
    }
    if (profile === undefined) return [s];
    if (s.name === PERSONA_PREFIX || s.name === PERSONA_SUFFIX) {
      const text = slotText(s.name === PERSONA_PREFIX ? profile.prompt.prefix : profile.prompt.suffix);
      if (text === undefined) return [s];
      return text === '' ? [] : [{ name: s.name, text }];
    }
    if (s.name.startsWith('tool:')) return session!.withoutGuidance(s.name.slice('tool:'.length)) ? [] : [s];
    return isSwitchableSection(s.name) && own(profile.sections, s.name) === false ? [] : [s];
  });
  const contexts = profile === undefined
    ? assembly.contexts
    : assembly.contexts.filter((c) => !(SWITCHABLE_CONTEXTS.has(c.name) && own(profile.contexts, c.name) === false));
  return { ...assembly, sections, contexts };
}
