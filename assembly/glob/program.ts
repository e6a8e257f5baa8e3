// The layout of a compiled glob program (assembly/README.md has the table): header fields written by
// compile.ts and read by set.ts, the DFA (dfa.ts) and the analysis that fills its facts (analyze.ts).

// Program header (i32 words at byte offsets).
export const P_SIZE: usize = 0, P_FLAGS: usize = 4, P_COUNT: usize = 8, P_CODE: usize = 12, P_TEXT: usize = 16,
  P_TEXT_LEN: usize = 20, P_PREFIX: usize = 24, P_PREFIX_LEN: usize = 28, P_SUFFIX: usize = 32,
  P_SUFFIX_LEN: usize = 36, P_SOURCE_LEN: usize = 40, P_INFIX: usize = 44, P_INFIX_LEN: usize = 48,
  P_SLASH_MIN: usize = 52, P_SLASH_MAX: usize = 56, P_KEYS: usize = 60;
// DFA facts, written by analyze.ts and read by dfa.ts and set.ts.
export const F_ASSERT_MASK: usize = 64; // assertion kinds used, bit k - 1 for kind k
export const F_CLASS_COUNT: usize = 68; // ASCII unit classes of the DFA (0: no DFA)
export const F_FIRST: usize = 72; // a layout.ts UnitSet (20 bytes): units a match may start with
export const F_LAST: usize = 92; // a layout.ts UnitSet (20 bytes): units a match may end with
export const F_CACHE_BYTES: usize = 112; // bytes of DFA cache the program wants (0: none)
export const F_CLASS_MAP: usize = 128; // u8[128]: the class of each ASCII unit
export const FACTS_END: usize = 256;
export const P_KEY_COUNT: usize = 120; // (in the facts area's reserved words) -1: no key list
export const P_PLAN: usize = 116; // (reserved words too) offset of the segment plan (plan.ts), 0: none
export const P_PLAN_LEN: usize = 124; // its length in u16 words
export const MAX_KEYS: i32 = 16;
// After the DFA facts: the units that may follow the literal prefix.
export const P_AFTER: usize = FACTS_END; // a layout.ts UnitSet
export const PROGRAM_HEADER: usize = FACTS_END + 32; // the fields above, the DFA facts, P_AFTER
export const FACT_CAP: i32 = 64;
