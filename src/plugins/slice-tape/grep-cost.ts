// What a grep pattern costs before and after it is compiled (issue 32 item 3). re2js runs a pattern
// in time linear in the text, but the factor on the text is not the program size alone: a lazy DFA
// whose 8 MB state cache overflows (a pattern such as `\p{L}{1000}z` over letters) builds a state per
// character and then hands the line to the NFA, and each visit of a character-class instruction
// costs a binary search over the class's ranges (`\p{L}` has 684 of them). Measured on re2js 2.10.0
// (bench/grep.ts), one instruction visit for one character costs 10–30 ns on the NFA and up to about
// 60 ns where the DFA gives up; a class's search adds about an eighth of a visit per step.
// So the cost of a program per character is the sum of its instructions' weights, each 1 plus its
// range search's steps / 8, and that is what the work bound in grep.ts multiplies by the text.
//
// Compiling costs too: `a{1000}` written 140 times in 1,000 characters compiles to 140,000
// instructions in about 2 s. So the program's size is bounded from the pattern's text before the
// pattern reaches the compiler (`programBound`), and again from the compiled program.

import type { RE2JS } from 're2js';

/** re2js's instruction opcodes for the four rune instructions (re2js/src/Inst.js: RUNE..RUNE_ANY_NOT_NL). */
const RUNE = 8;
const RUNE_ANY_NOT_NL = 11;
/** re2js's flag for a case-folded single rune (RE2Flags.FOLD_CASE). */
const FOLD_CASE = 1;
/** A class of at most this many ranges is scanned linearly by re2js (`Inst.matchRune`). */
const LINEAR_RANGES = 4;
/** Steps of a case-folded single rune: its case orbit is looked up in maps, about twelve steps of a search. */
const FOLD_STEPS = 12;
/** One step of a class's range search costs this fraction of an instruction visit. */
const STEPS_PER_VISIT = 8;

/** The shape of re2js's compiled program this module reads (re2js 2.10.0, pinned in package.json). */
interface Instruction {
  readonly op: number;
  readonly arg: number;
  readonly runes: ArrayLike<number>;
}
interface Program {
  numInst(): number;
  getInst(pc: number): Instruction;
}

/** A compiled pattern's costs: per character of text, and once (the DFA's character classes). */
export interface ProgramCost {
  /** Instructions in the program (re2js's `programSize`). */
  readonly size: number;
  /** Work units per character searched: each instruction 1, plus its range search's steps / 8. */
  readonly perChar: number;
  /** Work units spent once: the ranges of every class, which the DFA sorts into its classes before the first match. */
  readonly setup: number;
}

/**
 * The cost of a compiled pattern, read from re2js's program. Throws when the program does not have
 * the shape this reads (a re2js release that changed it): the bound must never silently count zero.
 * @param re the compiled pattern
 * @returns its size, its cost per character and its one-time cost
 */
export function programCost(re: RE2JS): ProgramCost {
  const program = (re as unknown as { re2Input?: { prog?: Program } }).re2Input?.prog;
  if (typeof program?.numInst !== 'function' || typeof program.getInst !== 'function') {
    throw new Error('expand_result: grep cannot read the compiled program of this re2js release, so its cost is unknown; re2js 2.10.0 is the release this package pins');
  }
  const size = program.numInst();
  let perChar = 0;
  let setup = 0;
  for (let pc = 0; pc < size; pc++) {
    const inst = program.getInst(pc);
    perChar += 1 + searchSteps(inst) / STEPS_PER_VISIT;
    if (inst.op >= RUNE && inst.op <= RUNE_ANY_NOT_NL) setup += Math.ceil(inst.runes.length / 2);
  }
  return { size, perChar: Math.ceil(perChar), setup };
}

/** Steps `Inst.matchRune` takes for one character: none for a plain rune or `.`, a scan or a binary search for a class. */
function searchSteps(inst: Instruction): number {
  if (inst.op !== RUNE) return 0;
  const length = inst.runes.length;
  if (length <= 1) return (inst.arg & FOLD_CASE) !== 0 ? FOLD_STEPS : 0;
  const ranges = length / 2;
  return ranges <= LINEAR_RANGES ? 1 : Math.ceil(Math.log2(ranges)) + 1;
}

/** A repetition count above RE2's limit (1000) is RE2's to refuse, with its own message. */
const MAX_COUNTED_REPEAT = 1001;
/** The program's fixed instructions (fail, match) and slack. */
const FIXED = 3;

interface Frame {
  /** Whether the group captures (two instructions mark its start and end). */
  readonly capturing: boolean;
  /** Sizes of the finished alternatives. */
  done: number;
  /** Finished alternatives that are empty (each compiles to one empty-match instruction). */
  empty: number;
  /** Size of the alternative being read. */
  current: number;
  alternatives: number;
  /** Size of the last atom of the current alternative (what a quantifier repeats). */
  last: number;
}

/**
 * An upper bound of the number of instructions RE2 compiles `pattern` (RE2 syntax, as
 * `RE2JS.translateRegExp` gives it) to, read from its text in one pass: every atom counts 1, a
 * group adds its two capture instructions, an alternative its branch, and a repetition multiplies
 * what it repeats by its largest count (RE2 expands `x{n,m}` into `m` copies of `x`). A pattern RE2
 * would reject may get any bound: the compiler refuses it anyway.
 * @param pattern the translated pattern
 * @returns a number at least as large as the compiled program's size
 */
export function programBound(pattern: string): number {
  const stack: Frame[] = [frame(false)];
  const top = (): Frame => stack[stack.length - 1]!;
  const atom = (size: number): void => {
    top().current += size;
    top().last = size;
  };
  const repeat = (min: number, max: number): void => {
    const frame = top();
    const repeated = frame.last;
    // x{n}: n copies of x; x{n,m}: m copies and a branch for each optional one; x*, x+, x?: x and two more.
    const size = max <= 1 ? repeated + 2 : max * repeated + (max - min) + 2;
    frame.current += size - repeated;
    frame.last = size;
  };
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\') {
      const next = pattern[i + 1];
      if (next === 'Q') {
        const end = pattern.indexOf('\\E', i + 2);
        const stop = end < 0 ? pattern.length : end;
        for (let j = i + 2; j < stop; j++) atom(1);
        i = end < 0 ? pattern.length : end + 1;
        continue;
      }
      if ((next === 'p' || next === 'P' || next === 'x') && pattern[i + 2] === '{') {
        const close = pattern.indexOf('}', i + 3);
        i = close < 0 ? pattern.length : close;
      } else i++;
      atom(1);
    } else if (c === '[') {
      i = classEnd(pattern, i);
      atom(1);
    } else if (c === '(') {
      const capturing = pattern[i + 1] !== '?' || pattern[i + 2] === 'P' || pattern[i + 2] === '<';
      if (!capturing) {
        // Flags: `(?i)` sets them for what follows (no instruction, and a quantifier after it still
        // repeats the atom before it); `(?i:…)` is a group.
        let j = i + 2;
        while (j < pattern.length && pattern[j] !== ')' && pattern[j] !== ':') j++;
        if (pattern[j] === ')') {
          i = j;
          continue;
        }
        i = j;
      }
      stack.push(frame(capturing));
    } else if (c === ')' && stack.length > 1) {
      atom(groupSize(stack.pop()!));
    } else if (c === '|') {
      const group = top();
      if (group.current === 0) group.empty++;
      group.done += group.current;
      group.current = 0;
      group.alternatives++;
      group.last = 0;
    } else if (c === '*' || c === '+' || c === '?') {
      repeat(0, 1);
    } else if (c === '{') {
      const counts = /^\{(\d{1,9})(,(\d{0,9}))?\}/.exec(pattern.slice(i, i + 24));
      if (counts === null) {
        atom(1);
        continue;
      }
      const min = Math.min(Number(counts[1]), MAX_COUNTED_REPEAT);
      const max = counts[2] === undefined ? min : counts[3] === '' ? min + 1 : Math.min(Number(counts[3]), MAX_COUNTED_REPEAT);
      repeat(min, Math.max(min, max, 1));
      i += counts[0].length - 1;
    } else atom(1);
  }
  while (stack.length > 1) atom(groupSize(stack.pop()!));
  return groupSize(stack[0]!) + FIXED;
}

function frame(capturing: boolean): Frame {
  return { capturing, done: 0, empty: 0, current: 0, alternatives: 1, last: 0 };
}

/** A group's alternatives, a branch between each two, an instruction per empty one, and its capture instructions. */
function groupSize(group: Frame): number {
  const empty = group.empty + (group.current === 0 ? 1 : 0);
  return group.done + group.current + group.alternatives - 1 + empty + (group.capturing ? 2 : 0);
}

/**
 * The index of the `]` that closes the class opening at `start` (RE2 syntax: a `]` first in the
 * class, after an optional `^`, is a member; `[:alpha:]` is a member; `\` escapes one character), or
 * the end of the pattern when nothing closes it.
 */
function classEnd(pattern: string, start: number): number {
  let j = start + 1;
  if (pattern[j] === '^') j++;
  if (pattern[j] === ']') j++;
  while (j < pattern.length) {
    const c = pattern[j]!;
    if (c === '\\') j += 2;
    else if (c === '[' && pattern[j + 1] === ':') {
      const close = pattern.indexOf(':]', j + 2);
      j = close < 0 ? j + 1 : close + 2;
    } else if (c === ']') return j;
    else j++;
  }
  return pattern.length - 1;
}
