// Normalization and migration of the state file (spec CP-03, CP-32..CP-34): every read and every
// save passes through here, so stored profiles only ever hold the shapes the model defines.

import { capCodePoints, codePointLength } from '../../engine/index.js';
import {
  ADDITIONAL_RULES, builtinProfiles, CONTEXT_SWITCHES, CUSTOM_TEXT_MAX, defaultBaseline, defaultSlot, ENVIRONMENT_CONTEXT, NONE,
  PERSONA_PREFIX, PERSONA_SUFFIX, STATE_VERSION, WORKING_DIRECTORY_CONTEXT,
  type Baseline, type GroupState, type Profile, type Slot, type State, type ToolState,
} from './model.js';

/** A rejected save: `status` is the HTTP status the API answers with. */
export class StateError extends Error {
  constructor(message: string, readonly status = 400) {
    super(message);
    this.name = 'StateError';
  }
}

const GROUP_STATES = new Set<string>(['force', 'on', 'defer', 'off']);
const TOOL_STATES = new Set<string>(['on', 'defer', 'off']);
/** CP-32: section names the `sections` map never holds (they have their own switches). */
const PROTECTED_SECTIONS = new Set<string>([PERSONA_PREFIX, PERSONA_SUFFIX, ...ADDITIONAL_RULES.map((r) => r.section)]);

/** CP-19/CP-32: whether `sections` may store this name. */
export function isSwitchableSection(name: string): boolean {
  return !name.startsWith('tool:') && !PROTECTED_SECTIONS.has(name);
}

type Raw = Record<string, unknown>;
const isRecord = (v: unknown): v is Raw => v !== null && typeof v === 'object' && !Array.isArray(v);

function states<T extends string>(raw: unknown, allowed: Set<string>): Record<string, T> {
  const out: Record<string, T> = {};
  if (isRecord(raw)) for (const [k, v] of Object.entries(raw)) if (typeof v === 'string' && allowed.has(v)) out[k] = v as T;
  return out;
}

function falses(raw: unknown, keep: (name: string) => boolean = () => true): Record<string, false> {
  const out: Record<string, false> = {};
  if (isRecord(raw)) for (const [k, v] of Object.entries(raw)) if (v === false && keep(k)) out[k] = false;
  return out;
}

function slot(raw: unknown): Slot {
  const base = defaultSlot();
  if (!isRecord(raw)) return base;
  return {
    enabled: typeof raw.enabled === 'boolean' ? raw.enabled : base.enabled,
    override: typeof raw.override === 'boolean' ? raw.override : base.override,
    text: typeof raw.text === 'string' ? raw.text : base.text,
  };
}

/** CP-03/CP-32: one profile in its stored form; unknown keys and invalid values are dropped. */
export function normalizeProfile(raw: unknown): Profile {
  if (!isRecord(raw) || typeof raw.id !== 'string' || raw.id === '') throw new StateError(`profile id must be a non-empty string, got ${JSON.stringify(isRecord(raw) ? raw.id : raw)}`);
  const prompt = isRecord(raw.prompt) ? raw.prompt : {};
  const profile: Profile = {
    id: raw.id,
    ...(typeof raw.name === 'string' ? { name: raw.name } : {}),
    groups: states<GroupState>(raw.groups, GROUP_STATES),
    servers: states<GroupState>(raw.servers, GROUP_STATES),
    tools: states<ToolState>(raw.tools, TOOL_STATES),
    prompt: { prefix: slot(prompt.prefix), suffix: slot(prompt.suffix) },
    contexts: falses(raw.contexts),
    sections: falses(raw.sections, isSwitchableSection),
  };
  if (isRecord(raw.channels)) {
    const channels: NonNullable<Profile['channels']> = {};
    if (raw.channels.workspaceInstructions === 'off') channels.workspaceInstructions = 'off';
    if (raw.channels.timeContext === 'off') channels.timeContext = 'off';
    if (Object.keys(channels).length > 0) profile.channels = channels;
  }
  if (isRecord(raw.summaries)) {
    const summaries = Object.fromEntries(Object.entries(raw.summaries).filter(([, v]) => typeof v === 'string')) as Record<string, string>;
    if (Object.keys(summaries).length > 0) profile.summaries = summaries;
  }
  return profile;
}

/** CP-31 [R]: the baseline; a custom text over the limit is cut on read, rejected on save (`strict`). */
export function normalizeBaseline(raw: unknown, strict: boolean): Baseline {
  const base = defaultBaseline();
  if (!isRecord(raw)) return base;
  const custom = isRecord(raw.custom) ? raw.custom : {};
  let text = typeof custom.text === 'string' ? custom.text : '';
  const length = codePointLength(text);
  if (length > CUSTOM_TEXT_MAX) {
    if (strict) throw new StateError(`baseline.custom.text is ${length} characters; the limit is ${CUSTOM_TEXT_MAX}`);
    text = capCodePoints(text, CUSTOM_TEXT_MAX);
  }
  const flag = (v: unknown, d: boolean) => (typeof v === 'boolean' ? v : d);
  return {
    contract: flag(raw.contract, base.contract),
    cardReceipt: flag(raw.cardReceipt, base.cardReceipt),
    untrustedDownload: flag(raw.untrustedDownload, base.untrustedDownload),
    custom: { enabled: flag(custom.enabled, base.custom.enabled), text },
  };
}

/**
 * CP-33: a v2/v3 profile's prompt to the v4 slots. `mode: inherit` → override false; `replace` and
 * `complete` → override true with the text kept (complete's exclusivity is dropped). The flat
 * `prompt.{enabled,override,text}` moves to `prefix`; `suffix` gets the default slot.
 */
function migratePrompt(prompt: unknown): { prefix: Slot; suffix: Slot } {
  if (!isRecord(prompt)) return { prefix: defaultSlot(), suffix: defaultSlot() };
  if (isRecord(prompt.prefix)) return { prefix: slot(prompt.prefix), suffix: slot(prompt.suffix) };
  const mode = prompt.mode;
  const override = mode === 'replace' || mode === 'complete' ? true : mode === 'inherit' ? false : prompt.override === true;
  return {
    prefix: { enabled: typeof prompt.enabled === 'boolean' ? prompt.enabled : true, override, text: typeof prompt.text === 'string' ? prompt.text : '' },
    suffix: defaultSlot(),
  };
}

/**
 * CP-34: the one-time legacy context fields. `runtimeContext: false` turns every switchable
 * context off, `workingDirectory: false` the cwd, and `baseline.environmentFacts: false` the
 * environment facts in every old profile. The legacy fields are then gone from the result.
 */
function migrateLegacyContexts(profile: Raw, environmentOff: boolean): Raw {
  const { runtimeContext, workingDirectory, ...rest } = profile;
  const contexts: Raw = { ...(isRecord(rest.contexts) ? rest.contexts : {}) };
  if (runtimeContext === false) for (const c of CONTEXT_SWITCHES) contexts[c.name] = false;
  if (workingDirectory === false) contexts[WORKING_DIRECTORY_CONTEXT] = false;
  if (environmentOff) contexts[ENVIRONMENT_CONTEXT] = false;
  return { ...rest, contexts };
}

/** The outcome of reading a stored state. */
export interface ReadOutcome {
  readonly state: State;
  /** True when the stored form differs in version or shape and should be written back. */
  readonly migrated: boolean;
}

/**
 * Reads any supported stored state (v2, v3, v4) into the v4 shape: CP-33 prompt and built-in
 * migration for versions below 4, the CP-34 legacy context fields, and CP-32 normalization.
 * Duplicate or reserved profile ids keep their first valid occurrence ([R]: reading never fails
 * because of one bad profile; the user's other profiles survive).
 */
export function readState(raw: unknown): ReadOutcome {
  if (!isRecord(raw)) throw new StateError(`state must be a JSON object, got ${Array.isArray(raw) ? 'an array' : JSON.stringify(raw)}`);
  const version = typeof raw.version === 'number' ? raw.version : 2;
  if (version > STATE_VERSION) throw new StateError(`state version ${version} is newer than this package's ${STATE_VERSION}`);
  const old = version < STATE_VERSION;
  const baselineRaw = isRecord(raw.baseline) ? raw.baseline : {};
  const environmentOff = baselineRaw.environmentFacts === false;
  const v4 = new Map(builtinProfiles().map((p) => [p.id, p]));
  const profiles: Profile[] = [];
  const seen = new Set<string>();
  for (const entry of Array.isArray(raw.profiles) ? raw.profiles : []) {
    if (!isRecord(entry) || typeof entry.id !== 'string' || entry.id === '' || entry.id === NONE || seen.has(entry.id)) continue;
    seen.add(entry.id);
    if (old && v4.has(entry.id)) {
      profiles.push(v4.get(entry.id)!);
      continue;
    }
    const legacy = migrateLegacyContexts(entry, environmentOff);
    profiles.push(normalizeProfile(old ? { ...legacy, prompt: migratePrompt(legacy.prompt), sections: legacy.sections ?? {} } : legacy));
  }
  const sessions: Record<string, string> = {};
  if (isRecord(raw.sessions)) for (const [k, v] of Object.entries(raw.sessions)) if (typeof v === 'string') sessions[k] = v;
  const state: State = {
    version: STATE_VERSION,
    lastUsedId: typeof raw.lastUsedId === 'string' ? raw.lastUsedId : NONE,
    profiles,
    sessions,
    baseline: normalizeBaseline(baselineRaw, false),
  };
  return { state, migrated: JSON.stringify(state) !== JSON.stringify(raw) };
}

/**
 * CP-32 on save: the same normalization, but a bad save is rejected whole (nothing is written):
 * duplicate ids, the reserved id `none`, a non-string id, or a custom text over the limit.
 */
export function validateSave(raw: unknown, current: State): State {
  if (!isRecord(raw)) throw new StateError(`state must be a JSON object, got ${JSON.stringify(raw)}`);
  const list = raw.profiles ?? current.profiles;
  if (!Array.isArray(list)) throw new StateError(`profiles must be an array, got ${JSON.stringify(list)}`);
  const seen = new Set<string>();
  const profiles = list.map((entry) => {
    const profile = normalizeProfile(entry);
    if (profile.id === NONE) throw new StateError(`profile id "${NONE}" is reserved`);
    if (seen.has(profile.id)) throw new StateError(`profile id "${profile.id}" is used twice`);
    seen.add(profile.id);
    return profile;
  });
  const lastUsedId = raw.lastUsedId ?? current.lastUsedId;
  if (typeof lastUsedId !== 'string' || (lastUsedId !== NONE && !seen.has(lastUsedId))) throw new StateError(`lastUsedId ${JSON.stringify(lastUsedId)} names no profile`);
  return {
    version: STATE_VERSION,
    lastUsedId,
    profiles,
    sessions: current.sessions,
    baseline: raw.baseline === undefined ? current.baseline : normalizeBaseline(raw.baseline, true),
  };
}
