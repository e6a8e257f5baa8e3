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

/**
 * Where a read reports what it had to drop or replace (a shape error, as opposed to a documented
 * migration or normalization): `at` names the value's place in the file.
 */
export type Problems = (at: string, problem: string) => void;
const ignore: Problems = () => {};

/**
 * A value as a problem message shows it: a scalar as JSON (cut at 40 characters) with its type, an
 * object or list by its kind only (its content may be large and is kept aside anyway).
 * @param value - a parsed JSON value.
 * @returns e.g. `"4" (a string)`, `7 (a number)`, `an object`.
 */
export function shown(value: unknown): string {
  const kind = value === null ? 'null' : Array.isArray(value) ? 'a list' : typeof value === 'object' ? 'an object' : `a ${typeof value}`;
  if (value !== null && typeof value === 'object') return kind;
  const json = JSON.stringify(value) ?? String(value);
  return `${json.length > 40 ? `${json.slice(0, 40)}…` : json} (${kind})`;
}

/** A key as a problem path shows it: `.name` for identifiers, `["…"]` otherwise. */
const key = (k: string): string => (/^[A-Za-z_$][\w$]*$/.test(k) ? `.${k}` : `[${JSON.stringify(k)}]`);

function states<T extends string>(raw: unknown, allowed: Set<string>, at: string, problems: Problems): Record<string, T> {
  const out: Record<string, T> = {};
  if (raw === undefined) return out;
  if (!isRecord(raw)) {
    problems(at, `is ${shown(raw)}, not an object of states; it was not read`);
    return out;
  }
  for (const [k, v] of Object.entries(raw)) {
    if (typeof v === 'string' && allowed.has(v)) out[k] = v as T;
    else problems(`${at}${key(k)}`, `is ${shown(v)}, not one of ${[...allowed].join('/')}; it was dropped`);
  }
  return out;
}

function falses(raw: unknown, keep: (name: string) => boolean = () => true): Record<string, false> {
  const out: Record<string, false> = {};
  if (isRecord(raw)) for (const [k, v] of Object.entries(raw)) if (v === false && keep(k)) out[k] = false;
  return out;
}

/** A field of the expected type, else the default (reporting any other value present). */
function typed<T>(raw: Raw, name: string, type: 'boolean' | 'string', fallback: T, at: string, problems: Problems): T {
  const value = raw[name];
  if (typeof value === type) return value as T;
  if (value !== undefined) problems(`${at}${key(name)}`, `is ${shown(value)}, not a ${type}; ${JSON.stringify(fallback)} is used`);
  return fallback;
}

function slot(raw: unknown, at: string, problems: Problems): Slot {
  const base = defaultSlot();
  if (raw === undefined) return base;
  if (!isRecord(raw)) {
    problems(at, `is ${shown(raw)}, not an object; the default slot is used`);
    return base;
  }
  return {
    enabled: typed(raw, 'enabled', 'boolean', base.enabled, at, problems),
    override: typed(raw, 'override', 'boolean', base.override, at, problems),
    text: typed(raw, 'text', 'string', base.text, at, problems),
  };
}

/**
 * CP-03/CP-32: one profile in its stored form; unknown keys are dropped, and so are values of the
 * wrong type or outside the allowed states (each reported to `problems`). Entries of `contexts` and
 * `sections` other than `false`, and `channels` other than `'off'`, are normalization (CP-32), not
 * problems.
 */
export function normalizeProfile(raw: unknown, problems: Problems = ignore, at = 'profile'): Profile {
  if (!isRecord(raw) || typeof raw.id !== 'string' || raw.id === '') throw new StateError(`profile id must be a non-empty string, got ${JSON.stringify(isRecord(raw) ? raw.id : raw)}`);
  const prompt = isRecord(raw.prompt) ? raw.prompt : {};
  if (raw.prompt !== undefined && !isRecord(raw.prompt)) problems(`${at}.prompt`, `is ${shown(raw.prompt)}, not an object; the default slots are used`);
  if (raw.name !== undefined && typeof raw.name !== 'string') problems(`${at}.name`, `is ${shown(raw.name)}, not a string; it was dropped`);
  const profile: Profile = {
    id: raw.id,
    ...(typeof raw.name === 'string' ? { name: raw.name } : {}),
    groups: states<GroupState>(raw.groups, GROUP_STATES, `${at}.groups`, problems),
    servers: states<GroupState>(raw.servers, GROUP_STATES, `${at}.servers`, problems),
    tools: states<ToolState>(raw.tools, TOOL_STATES, `${at}.tools`, problems),
    prompt: { prefix: slot(prompt.prefix, `${at}.prompt.prefix`, problems), suffix: slot(prompt.suffix, `${at}.prompt.suffix`, problems) },
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
    const summaries: Record<string, string> = {};
    for (const [k, v] of Object.entries(raw.summaries)) {
      if (typeof v === 'string') summaries[k] = v;
      else problems(`${at}.summaries${key(k)}`, `is ${shown(v)}, not a string; it was dropped`);
    }
    if (Object.keys(summaries).length > 0) profile.summaries = summaries;
  } else if (raw.summaries !== undefined) {
    problems(`${at}.summaries`, `is ${shown(raw.summaries)}, not an object; it was dropped`);
  }
  return profile;
}

/**
 * CP-31 [R]: the baseline; a custom text over the limit is cut on read (and reported), rejected on
 * save (`strict`). Values of the wrong type give way to the defaults (and are reported).
 */
export function normalizeBaseline(raw: unknown, strict: boolean, problems: Problems = ignore): Baseline {
  const base = defaultBaseline();
  if (raw === undefined) return base;
  if (!isRecord(raw)) {
    problems('baseline', `is ${shown(raw)}, not an object; the default rules are used`);
    return base;
  }
  if (raw.custom !== undefined && !isRecord(raw.custom)) problems('baseline.custom', `is ${shown(raw.custom)}, not an object; the custom text is off and empty`);
  const custom = isRecord(raw.custom) ? raw.custom : {};
  let text = typed(custom, 'text', 'string', '', 'baseline.custom', problems);
  const length = codePointLength(text);
  if (length > CUSTOM_TEXT_MAX) {
    if (strict) throw new StateError(`baseline.custom.text is ${length} characters; the limit is ${CUSTOM_TEXT_MAX}`);
    problems('baseline.custom.text', `is ${length} characters; the limit is ${CUSTOM_TEXT_MAX}, so it was cut`);
    text = capCodePoints(text, CUSTOM_TEXT_MAX);
  }
  return {
    contract: typed(raw, 'contract', 'boolean', base.contract, 'baseline', problems),
    cardReceipt: typed(raw, 'cardReceipt', 'boolean', base.cardReceipt, 'baseline', problems),
    untrustedDownload: typed(raw, 'untrustedDownload', 'boolean', base.untrustedDownload, 'baseline', problems),
    custom: { enabled: typed(custom, 'enabled', 'boolean', base.custom.enabled, 'baseline.custom', problems), text },
  };
}

/**
 * CP-33: a v2/v3 profile's prompt to the v4 slots. `mode: inherit` → override false; `replace` and
 * `complete` → override true with the text kept (complete's exclusivity is dropped). The flat
 * `prompt.{enabled,override,text}` moves to `prefix`; `suffix` gets the default slot.
 */
function migratePrompt(prompt: unknown): { prefix: Slot; suffix: Slot } {
  if (!isRecord(prompt)) return { prefix: defaultSlot(), suffix: defaultSlot() };
  if (isRecord(prompt.prefix)) return { prefix: slot(prompt.prefix, 'prompt.prefix', ignore), suffix: slot(prompt.suffix, 'prompt.suffix', ignore) };
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
  /**
   * Shape errors: what the read had to drop or replace (each `<where> <what happened>`). Empty for
   * a file in a supported shape, however old. A non-empty list means the file holds something the
   * state does not, so its bytes must be kept before anything is written over them.
   */
  readonly problems: readonly string[];
}

/**
 * Reads any supported stored state (v2, v3, v4) into the v4 shape: CP-33 prompt and built-in
 * migration for versions below 4, the CP-34 legacy context fields, and CP-32 normalization.
 * What does not fit is read as far as it can be and listed in `problems`: a profile with a bad,
 * reserved or duplicate id is skipped (the others survive), `profiles` that is not a list gives the
 * built-ins, a `version` that is not a number is read as the current one (so nothing is replaced by
 * the built-ins), values of the wrong type give way to defaults. A newer version is unreadable.
 * @param raw - the parsed JSON.
 * @returns the state, whether it must be written back, and the shape errors.
 * @throws StateError when `raw` is not an object or its version is newer than this package's.
 */
export function readState(raw: unknown): ReadOutcome {
  if (!isRecord(raw)) throw new StateError(`state must be a JSON object, got ${Array.isArray(raw) ? 'an array' : JSON.stringify(raw)}`);
  const problems: string[] = [];
  const report: Problems = (at, problem) => problems.push(`${at} ${problem}`);
  let version: number;
  if (typeof raw.version === 'number') version = raw.version;
  else if (raw.version === undefined) version = 2;
  else {
    report('version', `is ${shown(raw.version)}, not a number; the file was read as version ${STATE_VERSION}`);
    version = STATE_VERSION;
  }
  if (version > STATE_VERSION) throw new StateError(`state version ${version} is newer than this package's ${STATE_VERSION}`);
  const old = version < STATE_VERSION;
  if (raw.baseline !== undefined && !isRecord(raw.baseline)) report('baseline', `is ${shown(raw.baseline)}, not an object; the default rules are used`);
  const baselineRaw = isRecord(raw.baseline) ? raw.baseline : {};
  const environmentOff = baselineRaw.environmentFacts === false;
  const v4 = new Map(builtinProfiles().map((p) => [p.id, p]));
  let entries: unknown[];
  if (Array.isArray(raw.profiles)) entries = raw.profiles;
  else {
    report('profiles', `is ${raw.profiles === undefined ? 'missing' : shown(raw.profiles)}, not a list; the built-in profiles are used`);
    entries = builtinProfiles();
  }
  const profiles: Profile[] = [];
  const seen = new Set<string>();
  entries.forEach((entry, i) => {
    const at = `profiles[${i}]`;
    if (!isRecord(entry)) return report(at, `is ${shown(entry)}, not an object; it was not read`);
    if (typeof entry.id !== 'string' || entry.id === '') return report(`${at}.id`, `is ${entry.id === undefined ? 'missing' : shown(entry.id)}, not a non-empty string; that profile was not read`);
    if (entry.id === NONE) return report(`${at}.id`, `"${NONE}" is reserved; that profile was not read`);
    if (seen.has(entry.id)) return report(`${at}.id`, `"${entry.id}" is used twice; the later profile was not read`);
    seen.add(entry.id);
    if (old && v4.has(entry.id)) return void profiles.push(v4.get(entry.id)!);
    const legacy = migrateLegacyContexts(entry, environmentOff);
    profiles.push(normalizeProfile(old ? { ...legacy, prompt: migratePrompt(legacy.prompt), sections: legacy.sections ?? {} } : legacy, report, `${at} ("${entry.id}")`));
  });
  const sessions: Record<string, string> = {};
  if (isRecord(raw.sessions)) {
    for (const [k, v] of Object.entries(raw.sessions)) {
      if (typeof v === 'string') sessions[k] = v;
      else report(`sessions${key(k)}`, `is ${shown(v)}, not a profile id; it was not read`);
    }
  } else if (raw.sessions !== undefined) report('sessions', `is ${shown(raw.sessions)}, not an object; no session record was read`);
  if (raw.lastUsedId !== undefined && typeof raw.lastUsedId !== 'string') report('lastUsedId', `is ${shown(raw.lastUsedId)}, not a string; "${NONE}" is used`);
  const state: State = {
    version: STATE_VERSION,
    lastUsedId: typeof raw.lastUsedId === 'string' ? raw.lastUsedId : NONE,
    profiles,
    sessions,
    baseline: normalizeBaseline(baselineRaw, false, (at, problem) => report(at, problem)),
  };
  return { state, migrated: JSON.stringify(state) !== JSON.stringify(raw), problems };
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
