// The records the glob compiler and matcher read by offset, as @unmanaged classes: a field access
// compiles to the same load or store at the same offset as hand-written arithmetic did, but the
// offsets have names and one definition. The program header keeps its named P_* offsets
// (program.ts): its documented table (assembly/README.md) is what other runtimes read.

/** One instruction of a program: opcode and two operands (regex.ts lists the opcodes). */
@unmanaged export class Instr {
  op: i32;
  a: i32;
  b: i32;
}
export const INSTR_SIZE: usize = offsetof<Instr>();

/** The instruction `pc` of the code at `code`. */
// @ts-ignore: decorator
@inline export function instrAt(code: usize, pc: i32): Instr {
  return changetype<Instr>(code + <usize>pc * INSTR_SIZE);
}

/** A node of the regex AST (regex.ts): kind, two arguments, and the next sibling (-1: none). */
@unmanaged export class AstNode {
  kind: i32;
  a: i32;
  b: i32;
  next: i32;
}
export const AST_NODE_SIZE: usize = offsetof<AstNode>();

/**
 * A set of code units, as the prefilters use it: 128 bits of ASCII membership, whether a unit
 * above 127 may be in it, and (only for the set after a literal prefix) whether a match may end
 * there. First and last sets use the first 20 bytes; the after-prefix set all 24.
 */
@unmanaged export class UnitSet {
  ascii0: u32;
  ascii1: u32;
  ascii2: u32;
  ascii3: u32;
  nonAscii: i32;
  mayEnd: i32;
}
export const UNIT_SET_SIZE: usize = offsetof<UnitSet>();

/**
 * Address of the u32 that holds unit `c` (< 128) in the 128-bit ASCII mask at `mask` (a UnitSet
 * starts with its mask; a ClassRecord's is at CLASS_ASCII).
 */
// @ts-ignore: decorator
@inline export function asciiWord(mask: usize, c: u32): usize {
  return mask + ((<usize>c >> 5) << 2);
}

/** Adds unit `c` to the set at `set`. */
// @ts-ignore: decorator
@inline export function addUnit(set: usize, c: u32): void {
  const mask = set + offsetof<UnitSet>("ascii0");
  if (c < 128) store<u32>(asciiWord(mask, c), load<u32>(asciiWord(mask, c)) | (1 << (c & 31)));
  else changetype<UnitSet>(set).nonAscii = 1;
}

/**
 * A parsed character class (classes.ts): whether it is negated, how many ranges above 127 follow
 * the header (u16 lo, hi each), and its ASCII membership with the negation already applied.
 */
@unmanaged export class ClassRecord {
  negated: i32;
  ranges: i32;
  ascii0: u32;
  ascii1: u32;
  ascii2: u32;
  ascii3: u32;
}
export const CLASS_HEADER: usize = offsetof<ClassRecord>();
/** Offset of the 128-bit ASCII mask in a class record. */
export const CLASS_ASCII: usize = offsetof<ClassRecord>("ascii0");
