// Three-way merge of a save with the file (CP-37, merge.ts): two writers that start from the same
// state and change different things both keep their change, in either order; the session records
// are never touched by a save; a record is written once; a switch sets the record and the default.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chooseSession, mergeSave, recordSession } from '../../../src/plugins/context-profiles/merge.js';
import { builtinProfiles, defaultState, type Profile, type State } from '../../../src/plugins/context-profiles/model.js';

const IDS = ['full', 'lean', 'minimal', 'a', 'b', 'c', 'd'];

function profile(id: string, tool?: string): Profile {
  const base = builtinProfiles().find((p) => p.id === id) ?? { ...builtinProfiles()[0]!, id, name: id };
  return tool === undefined ? base : { ...base, tools: { ...base.tools, [tool]: 'off' } };
}

/** One writer's edit of a state: per profile id, change / remove / add; maybe a default and a rule flag. */
const edit = fc.record({
  profiles: fc.dictionary(fc.constantFrom(...IDS), fc.constantFrom('change', 'remove', 'add')),
  lastUsedId: fc.option(fc.constantFrom(...IDS), { nil: undefined }),
  contract: fc.option(fc.boolean(), { nil: undefined }),
});
type Edit = typeof edit extends fc.Arbitrary<infer T> ? T : never;

function apply(state: State, change: Edit, who: string): State {
  const profiles = [...state.profiles];
  for (const [id, action] of Object.entries(change.profiles)) {
    const at = profiles.findIndex((p) => p.id === id);
    if (action === 'remove' && at >= 0) profiles.splice(at, 1);
    if (action === 'change' && at >= 0) profiles[at] = profile(id, who);
    if (action === 'add' && at < 0) profiles.push(profile(id, who));
  }
  return {
    ...state,
    profiles,
    lastUsedId: change.lastUsedId ?? state.lastUsedId,
    baseline: change.contract === undefined ? state.baseline : { ...state.baseline, contract: change.contract },
  };
}

describe('mergeSave (CP-37)', () => {
  it('CP-37 two saves from one snapshot that touch different profiles and fields both survive, in either order', () => {
    fc.assert(fc.property(edit, edit, fc.boolean(), (ea, eb, aFirst) => {
      // Disjoint edits: b drops whatever a touches.
      const touched = new Set(Object.keys(ea.profiles));
      const eb2: Edit = {
        profiles: Object.fromEntries(Object.entries(eb.profiles).filter(([id]) => !touched.has(id))),
        lastUsedId: ea.lastUsedId === undefined ? eb.lastUsedId : undefined,
        contract: ea.contract === undefined ? eb.contract : undefined,
      };
      const base: State = { ...defaultState(), sessions: { s: 'lean' } };
      const a = apply(base, ea, 'a');
      const b = apply(base, eb2, 'b');
      const [first, second] = aFirst ? [a, b] : [b, a];
      const disk = mergeSave(base, first, { ...base, sessions: { s: 'lean', t: 'full' } });
      const final = mergeSave(base, second, disk);
      // Every profile ends as exactly one writer left it (or as it was).
      for (const id of IDS) {
        const expected = [a, b].map((s) => s.profiles.find((p) => p.id === id));
        const changer = Object.hasOwn(ea.profiles, id) ? expected[0] : Object.hasOwn(eb2.profiles, id) ? expected[1] : base.profiles.find((p) => p.id === id);
        expect(final.profiles.find((p) => p.id === id)).toEqual(changer);
      }
      expect(final.lastUsedId).toBe(ea.lastUsedId ?? eb2.lastUsedId ?? base.lastUsedId);
      expect(final.baseline.contract).toBe(ea.contract ?? eb2.contract ?? base.baseline.contract);
      expect(final.sessions).toEqual({ s: 'lean', t: 'full' });
    }), { numRuns: 300 });
  });

  it('CP-37 the same profile changed by both: the later save wins it; removed by one and changed by the other: the change wins', () => {
    const base = defaultState();
    const a = { ...base, profiles: base.profiles.map((p) => (p.id === 'lean' ? profile('lean', 'x') : p)) };
    const b = { ...base, profiles: base.profiles.map((p) => (p.id === 'lean' ? profile('lean', 'y') : p)) };
    expect(mergeSave(base, b, mergeSave(base, a, base)).profiles[1]!.tools).toEqual({ y: 'off' });
    const removed = { ...base, profiles: base.profiles.filter((p) => p.id !== 'lean') };
    expect(mergeSave(base, a, mergeSave(base, removed, base)).profiles.map((p) => [p.id, p.tools])).toEqual([['full', {}], ['minimal', {}], ['lean', { x: 'off' }]]);
  });
});

describe('session records (CP-14, CP-15)', () => {
  it('CP-14 a record is written only when the file has none for the session, `none` included', () => {
    const state = { ...defaultState(), sessions: { s: 'none' } };
    expect(recordSession(state, 's', 'lean')).toBeUndefined();
    expect(recordSession(state, 't', 'none')!.sessions).toEqual({ s: 'none', t: 'none' });
    expect(recordSession(state, 'constructor', 'lean')!.sessions).toEqual({ s: 'none', constructor: 'lean' });
  });

  it('CP-15 a switch overwrites the record and sets the default', () => {
    expect(chooseSession({ ...defaultState(), sessions: { s: 'lean', t: 'full' } }, 's', 'minimal')).toMatchObject({ lastUsedId: 'minimal', sessions: { s: 'minimal', t: 'full' } });
  });
});
