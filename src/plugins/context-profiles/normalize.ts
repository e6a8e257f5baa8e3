// Normalization and migration of the state file (spec CP-03, CP-32..CP-34): every read and every
// save passes through here, so the values the plugin uses only ever have the shapes the model
// defines. Keys this version does not know (a `note`, a newer version's profile field) are kept as
// they are, in place, and written back (issue 32, item 11): a newer package's data survives an
// older one, as a serious file format's unknown fields do. Only the legacy fields a migration
// replaces (CP-33, CP-34) are left out. A save is held to the size caps (STATE_LIMITS, item 5).

import { capCodePoints, codePointLength } from '../../engine/index.js';
import { fromEntries } from './json.js';
import {
  ADDITIONAL_RULES, builtinProfiles, CONTEXT_SWITCHES, CUSTOM_TEXT_MAX, defaultBaseline, defaultSlot, ENVIRONMENT_CONTEXT, NONE,
  PERSONA_PREFIX, PERSONA_SUFFIX, STATE_LIMITS, STATE_VERSION, WORKING_DIRECTORY_CONTEXT,
  type Baseline, type GroupState, type Profile, type Slot, type State, type ToolState,
} from './model.js';

/** A rejected save: `status` is the HTTP status the API answers with. */
export class StateError extends Error {
  constructor(message: string, readonly status = 400) {
    super(message);
    this.name = 'StateError';
  }
}

/** A state file written by a newer package (item 10): never moved aside or written over, only refused. */
export class NewerStateError extends StateError {
  constructor(readonly version: number) {
    super(`state version ${version} is newer than this package's ${STATE_VERSION}`);
    this.name = 'NewerStateError';
  }
}

/** The keys each level of the state defines; any other key is kept as it is. */
const STATE_KEYS = ['version', 'lastUsedId', 'profiles', 'sessions', 'baseline'];
/** The keys a profile defines (CP-03); a stored profile keeps any other, a config profile may not have one. */
export const PROFILE_KEYS: readonly string[] = ['id', 'name', 'groups', 'servers', 'tools', 'prompt', 'contexts', 'sections', 'channels', 'summaries'];
const PROMPT_KEYS = ['prefix', 'suffix'];
const SLOT_KEYS = ['enabled', 'override', 'text'];
const BASELINE_KEYS = ['contract', 'cardReceipt', 'untrustedDownload', 'custom'];
const CUSTOM_KEYS = ['enabled', 'text'];
const CHANNEL_KEYS = ['workspaceInstructions', 'timeContext'];
/** Legacy fields a read migrates (CP-33, CP-34) and so does not carry over. */
const LEGACY_PROFILE_KEYS = ['runtimeContext', 'workingDirectory'];
const LEGACY_PROMPT_KEYS = ['mode', 'enabled', 'override', 'text'];
const LEGACY_BASELINE_KEYS = ['inCompletePrompt', 'environmentFacts'];

/**
 * `known` with `raw`'s other keys kept: keys in `raw`'s order (a known key takes its normalized value,
 * or is left out when `known` lacks it), then the known keys `raw` lacks. Keys in `drop` (migrated
 * legacy fields) are left out. Every key is an own data property, `__proto__` included.
 */
function keepingUnknown<T extends object>(raw: Raw, known: T, knownKeys: readonly string[], drop: readonly string[] = []): T {
  const normalized = known as Record<string, unknown>;
  const entries: [string, unknown][] = [];
  for (const name of Object.keys(raw)) {
    if (knownKeys.includes(name)) {
      if (Object.hasOwn(normalized, name)) entries.push([name, normalized[name]]);
    } else if (!drop.includes(name)) entries.push([name, raw[name]]);
  }
  for (const name of Object.keys(normalized)) if (!Object.hasOwn(raw, name)) entries.push([name, normalized[name]]);
  return fromEntries(entries) as T;
}

/** A save with more entries than a cap allows: 400 naming the count and the limit. */
function tooMany(at: string, count: number, limit: number): never {
  throw new StateError(`${at} has ${count} entries; the limit is ${limit}`);
}

/** Checks a text against its cap: a save is refused, a read cuts it (a shape error, so the original is kept aside). */
function capped(text: string, limit: number, at: string, strict: boolean, problems: Problems): string {
  const length = codePointLength(text);
  if (length <= limit) return text;
  if (strict) throw new StateError(`${at} is ${length} characters; the limit is ${limit}`);
  problems(at, `is ${length} characters; the limit is ${limit}, so it was cut`);
  return capCodePoints(text, limit);
}

/** A save's map (a profile's groups, tools, …) within the entry and key caps. */
function checkMap(raw: Raw, at: string): void {
  const keys = Object.keys(raw);
  if (keys.length > STATE_LIMITS.mapEntries) tooMany(at, keys.length, STATE_LIMITS.mapEntries);
  for (const k of keys) {
    const length = codePointLength(k);
    if (length > STATE_LIMITS.keyChars) throw new StateError(`${at} has a key of ${length} characters; the limit is ${STATE_LIMITS.keyChars}`);
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
/** Whether `v` is a JSON object (not null, not a list). */
export const isRecord = (v: unknown): v is Raw => v !== null && typeof v === 'object' && !Array.isArray(v);

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

function states<T extends string>(raw: unknown, allowed: Set<string>, at: string, problems: Problems, strict: boolean): Record<string, T> {
  if (raw === undefined) return {};
  if (!isRecord(raw)) {
    problems(at, `is ${shown(raw)}, not an object of states; it was not read`);
    return {};
  }
  if (strict) checkMap(raw, at);
  const entries: [string, T][] = [];
  for (const [k, v] of Object.entries(raw)) {
    if (typeof v === 'string' && allowed.has(v)) entries.push([k, v as T]);
    else problems(`${at}${key(k)}`, `is ${shown(v)}, not one of ${[...allowed].join('/')}; it was dropped`);
  }
  return fromEntries(entries);
}

function falses(raw: unknown, at: string, strict: boolean, keep: (name: string) => boolean = () => true): Record<string, false> {
  if (!isRecord(raw)) return {};
  if (strict) checkMap(raw, at);
  return fromEntries(Object.entries(raw).filter(([k, v]) => v === false && keep(k)).map(([k]) => [k, false] as const));
}

/** A field of the expected type, else the default (reporting any other value present). */
function typed<T>(raw: Raw, name: string, type: 'boolean' | 'string', fallback: T, at: string, problems: Problems): T {
  const value = raw[name];
  if (typeof value === type) return value as T;
  if (value !== undefined) problems(`${at}${key(name)}`, `is ${shown(value)}, not a ${type}; ${JSON.stringify(fallback)} is used`);
  return fallback;
}

function slot(raw: unknown, at: string, problems: Problems, strict: boolean): Slot {
  const base = defaultSlot();
  if (raw === undefined) return base;
  if (!isRecord(raw)) {
    problems(at, `is ${shown(raw)}, not an object; the default slot is used`);
    return base;
  }
  return keepingUnknown(raw, {
    enabled: typed(raw, 'enabled', 'boolean', base.enabled, at, problems),
    override: typed(raw, 'override', 'boolean', base.override, at, problems),
    text: capped(typed(raw, 'text', 'string', base.text, at, problems), STATE_LIMITS.slotChars, `${at}.text`, strict, problems),
  }, SLOT_KEYS);
}

/**
 * CP-03/CP-32: one profile in its stored form. Values of the wrong type or outside the allowed
 * states are dropped (each reported to `problems`); entries of `contexts` and `sections` other than
 * `false`, and `channels` other than `'off'`, are normalization (CP-32), not problems. Keys the
 * profile does not define are kept. A save (`strict`) is held to the size caps.
 */
export function normalizeProfile(raw: unknown, problems: Problems = ignore, at = 'profile', strict = false): Profile {
  if (!isRecord(raw) || typeof raw.id !== 'string' || raw.id === '') throw new StateError(`profile id must be a non-empty string, got ${shown(isRecord(raw) ? raw.id : raw)}`);
  if (strict) {
    capped(raw.id, STATE_LIMITS.idChars, `${at}.id`, true, problems);
    if (typeof raw.name === 'string') capped(raw.name, STATE_LIMITS.nameChars, `${at}.name`, true, problems);
  }
  const prompt = isRecord(raw.prompt) ? raw.prompt : {};
  if (raw.prompt !== undefined && !isRecord(raw.prompt)) problems(`${at}.prompt`, `is ${shown(raw.prompt)}, not an object; the default slots are used`);
  if (raw.name !== undefined && typeof raw.name !== 'string') problems(`${at}.name`, `is ${shown(raw.name)}, not a string; it was dropped`);
  const profile: Profile = {
    id: raw.id,
    ...(typeof raw.name === 'string' ? { name: raw.name } : {}),
    groups: states<GroupState>(raw.groups, GROUP_STATES, `${at}.groups`, problems, strict),
    servers: states<GroupState>(raw.servers, GROUP_STATES, `${at}.servers`, problems, strict),
    tools: states<ToolState>(raw.tools, TOOL_STATES, `${at}.tools`, problems, strict),
    prompt: keepingUnknown(prompt, { prefix: slot(prompt.prefix, `${at}.prompt.prefix`, problems, strict), suffix: slot(prompt.suffix, `${at}.prompt.suffix`, problems, strict) }, PROMPT_KEYS),
    contexts: falses(raw.contexts, `${at}.contexts`, strict),
    sections: falses(raw.sections, `${at}.sections`, strict, isSwitchableSection),
  };
  if (isRecord(raw.channels)) {
    const channels: NonNullable<Profile['channels']> = {};
    if (raw.channels.workspaceInstructions === 'off') channels.workspaceInstructions = 'off';
    if (raw.channels.timeContext === 'off') channels.timeContext = 'off';
    const kept = keepingUnknown(raw.channels, channels, CHANNEL_KEYS);
    if (Object.keys(kept).length > 0) profile.channels = kept;
  }
  if (isRecord(raw.summaries)) {
    if (strict) checkMap(raw.summaries, `${at}.summaries`);
    const summaries: [string, string][] = [];
    for (const [k, v] of Object.entries(raw.summaries)) {
      if (typeof v === 'string') summaries.push([k, capped(v, STATE_LIMITS.summaryChars, `${at}.summaries${key(k)}`, strict, problems)]);
      else problems(`${at}.summaries${key(k)}`, `is ${shown(v)}, not a string; it was dropped`);
    }
    if (summaries.length > 0) profile.summaries = fromEntries(summaries);
  } else if (raw.summaries !== undefined) {
    problems(`${at}.summaries`, `is ${shown(raw.summaries)}, not an object; it was dropped`);
  }
  return keepingUnknown(raw, profile, PROFILE_KEYS, LEGACY_PROFILE_KEYS);
}

/**
 * CP-31 [R]: the baseline; a custom text over the limit is cut on read (and reported), rejected on
 * save (`strict`). Values of the wrong type give way to the defaults (and are reported). Keys it
 * does not define are kept; the legacy `inCompletePrompt` and `environmentFacts` are migrated away.
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
  const text = capped(typed(custom, 'text', 'string', '', 'baseline.custom', problems), CUSTOM_TEXT_MAX, 'baseline.custom.text', strict, problems);
  return keepingUnknown(raw, {
    contract: typed(raw, 'contract', 'boolean', base.contract, 'baseline', problems),
    cardReceipt: typed(raw, 'cardReceipt', 'boolean', base.cardReceipt, 'baseline', problems),
    untrustedDownload: typed(raw, 'untrustedDownload', 'boolean', base.untrustedDownload, 'baseline', problems),
    custom: keepingUnknown(custom, { enabled: typed(custom, 'enabled', 'boolean', base.custom.enabled, 'baseline.custom', problems), text }, CUSTOM_KEYS),
  }, BASELINE_KEYS, LEGACY_BASELINE_KEYS);
}

/**
 * CP-33: a v2/v3 profile's prompt to the v4 slots. `mode: inherit` → override false; `replace` and
 * `complete` → override true with the text kept (complete's exclusivity is dropped). The flat
 * `prompt.{enabled,override,text}` moves to `prefix`; `suffix` gets the default slot.
 */
function migratePrompt(prompt: unknown): Raw {
  if (!isRecord(prompt)) return { prefix: defaultSlot(), suffix: defaultSlot() };
  if (isRecord(prompt.prefix)) return prompt;
  const mode = prompt.mode;
  const override = mode === 'replace' || mode === 'complete' ? true : mode === 'inherit' ? false : prompt.override === true;
  return keepingUnknown(prompt, {
    prefix: { enabled: typeof prompt.enabled === 'boolean' ? prompt.enabled : true, override, text: typeof prompt.text === 'string' ? prompt.text : '' },
    suffix: defaultSlot(),
  }, PROMPT_KEYS, LEGACY_PROMPT_KEYS);
}

/**
 * CP-34: the one-time legacy context fields. `runtimeContext: false` turns every switchable
 * context off, `workingDirectory: false` the cwd, and `baseline.environmentFacts: false` the
 * environment facts in every old profile. The legacy fields are then gone from the result.
 */
function migrateLegacyContexts(profile: Raw, environmentOff: boolean): Raw {
  const { runtimeContext, workingDirectory } = profile;
  const off: string[] = [];
  if (runtimeContext === false) off.push(...CONTEXT_SWITCHES.map((c) => c.name));
  if (workingDirectory === false) off.push(WORKING_DIRECTORY_CONTEXT);
  if (environmentOff) off.push(ENVIRONMENT_CONTEXT);
  if (off.length === 0) return profile;
  const contexts = fromEntries<unknown>([...Object.entries(isRecord(profile.contexts) ? profile.contexts : {}), ...off.map((name) => [name, false] as const)]);
  return keepingUnknown(profile, { contexts }, ['contexts']);
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
  if (!isRecord(raw)) throw new StateError(`state must be a JSON object, got ${Array.isArray(raw) ? 'an array' : shown(raw)}`);
  const problems: string[] = [];
  const report: Problems = (at, problem) => problems.push(`${at} ${problem}`);
  let version: number;
  if (typeof raw.version === 'number') version = raw.version;
  else if (raw.version === undefined) version = 2;
  else {
    report('version', `is ${shown(raw.version)}, not a number; the file was read as version ${STATE_VERSION}`);
    version = STATE_VERSION;
  }
  if (version > STATE_VERSION) throw new NewerStateError(version);
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
  const sessions: [string, string][] = [];
  if (isRecord(raw.sessions)) {
    for (const [k, v] of Object.entries(raw.sessions)) {
      if (typeof v === 'string') sessions.push([k, v]);
      else report(`sessions${key(k)}`, `is ${shown(v)}, not a profile id; it was not read`);
    }
  } else if (raw.sessions !== undefined) report('sessions', `is ${shown(raw.sessions)}, not an object; no session record was read`);
  if (raw.lastUsedId !== undefined && typeof raw.lastUsedId !== 'string') report('lastUsedId', `is ${shown(raw.lastUsedId)}, not a string; "${NONE}" is used`);
  const state = keepingUnknown<State>(raw, {
    version: STATE_VERSION,
    lastUsedId: typeof raw.lastUsedId === 'string' ? raw.lastUsedId : NONE,
    profiles,
    sessions: fromEntries(sessions),
    baseline: normalizeBaseline(baselineRaw, false, (at, problem) => report(at, problem)),
  }, STATE_KEYS);
  return { state, migrated: JSON.stringify(state) !== JSON.stringify(raw), problems };
}

/**
 * CP-32 on save: the same normalization, but a bad save is rejected whole (nothing is written):
 * duplicate ids, the reserved id `none`, a non-string id, a text, map or list over its cap
 * (STATE_LIMITS). Keys a profile does not define are kept with it.
 * @param raw - the request body.
 * @param current - the state the save starts from (its sessions are kept; a missing field is kept from it).
 * @returns the saved state.
 * @throws StateError 400 naming the bad value and, for a cap, the limit.
 */
export function validateSave(raw: unknown, current: State): State {
  if (!isRecord(raw)) throw new StateError(`state must be a JSON object, got ${shown(raw)}`);
  const list = raw.profiles ?? current.profiles;
  if (!Array.isArray(list)) throw new StateError(`profiles must be an array, got ${shown(list)}`);
  if (list.length > STATE_LIMITS.profiles) tooMany('profiles', list.length, STATE_LIMITS.profiles);
  const seen = new Set<string>();
  const profiles = list.map((entry, i) => {
    const profile = normalizeProfile(entry, ignore, `profiles[${i}]`, true);
    if (profile.id === NONE) throw new StateError(`profile id "${NONE}" is reserved`);
    if (seen.has(profile.id)) throw new StateError(`profile id "${profile.id}" is used twice`);
    seen.add(profile.id);
    return profile;
  });
  const lastUsedId = raw.lastUsedId ?? current.lastUsedId;
  if (typeof lastUsedId !== 'string' || (lastUsedId !== NONE && !seen.has(lastUsedId))) throw new StateError(`lastUsedId ${typeof lastUsedId === 'string' ? JSON.stringify(lastUsedId) : shown(lastUsedId)} names no profile`);
  return {
    version: STATE_VERSION,
    lastUsedId,
    profiles,
    sessions: current.sessions,
    baseline: raw.baseline === undefined ? current.baseline : normalizeBaseline(raw.baseline, true),
  };
}
