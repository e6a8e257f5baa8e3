// The layout of a compiled glob program (assembly/README.md has the table): header fields written by
// compile.ts and read by set.ts.

import { FACTS_END } from "./dfa";

// Program header (i32 words at byte offsets).
export const P_SIZE: usize = 0, P_FLAGS: usize = 4, P_COUNT: usize = 8, P_CODE: usize = 12, P_TEXT: usize = 16,
  P_TEXT_LEN: usize = 20, P_PREFIX: usize = 24, P_PREFIX_LEN: usize = 28, P_SUFFIX: usize = 32,
  P_SUFFIX_LEN: usize = 36, P_SOURCE_LEN: usize = 40, P_INFIX: usize = 44, P_INFIX_LEN: usize = 48,
  P_SLASH_MIN: usize = 52, P_SLASH_MAX: usize = 56, P_KEYS: usize = 60;
export const P_KEY_COUNT: usize = 120; // (in the facts area's reserved words) -1: no key list
export const MAX_KEYS: i32 = 16;
// After the DFA facts (dfa.ts F_*, written by analyze.ts): the units that may follow the literal
// prefix (24 bytes).
export const P_AFTER: usize = FACTS_END;
export const PROGRAM_HEADER: usize = FACTS_END + 32; // the fields above, the DFA facts, P_AFTER
export const PROGRAM_NEGATED: i32 = 2;
export const PROGRAM_NEVER: i32 = 4;
export const SUFFIX_OPT_SLASH: i32 = 1 << 30;
export const FACT_CAP: i32 = 64;
