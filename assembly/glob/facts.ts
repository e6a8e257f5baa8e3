// Facts every match of a compiled glob must satisfy, read off the regex AST of the last
// compileRegex() call: literal prefix, suffix and infix, the last two units, how many `/` a match
// holds and which units may follow the prefix. The set matcher checks them before running a
// program; each is a necessary condition, never a sufficient one.

import { Ch } from "./text";
import { classHas } from "./classes";
import {
  astRoot, classBase, kindOf, argA, nextOf, N_CHAR, N_CLASS, N_ANY, N_ASSERT, N_CAT, N_ALT, N_STAR, N_PLUS, N_OPT,
  N_NOT_SLASH, N_NOT_DOT_SLASH,
} from "./regex";
import { UnitSet, UNIT_SET_SIZE, ClassRecord, CLASS_ASCII, addUnit } from "./layout";

// ---- literal prefix, suffix, infix --------------------------------------------------------------
// Necessary conditions read off the top-level concatenation (entering nested groups, skipping
// zero-width assertions): the literal units every match starts and ends with.

let factLen: i32 = 0;
let factStop = false;
let factOptSlash = 0;

function childAt(cat: i32, i: i32): i32 {
  let c = argA(cat);
  for (let k = 0; k < i; k++) c = nextOf(c);
  return c;
}

function prefixWalk(cat: i32, dst: usize, cap: i32): void {
  for (let c = argA(cat); c >= 0 && !factStop; c = nextOf(c)) {
    const k = kindOf(c);
    if (k == N_ASSERT) continue;
    if (k == N_CAT) { prefixWalk(c, dst, cap); continue; }
    if (k != N_CHAR || factLen >= cap) { factStop = true; return; }
    store<u16>(dst + (<usize>(factLen++) << 1), <u16>argA(c));
  }
}

function suffixWalk(cat: i32, dst: usize, cap: i32): void {
  let count = 0;
  for (let c = argA(cat); c >= 0; c = nextOf(c)) count++;
  for (let i = count - 1; i >= 0 && !factStop; i--) {
    const c = childAt(cat, i);
    const k = kindOf(c);
    if (k == N_ASSERT) continue;
    if (k == N_OPT && factLen == 0 && factOptSlash == 0 && kindOf(argA(c)) == N_CHAR && argA(argA(c)) == Ch.SLASH) {
      factOptSlash = 1;
      continue;
    }
    if (k == N_CAT) { suffixWalk(c, dst, cap); continue; }
    if (k == N_ALT) { commonBranchSuffix(c, dst, cap); factStop = true; return; }
    if (k != N_CHAR || factLen >= cap) { factStop = true; return; }
    store<u16>(dst + (<usize>(factLen++) << 1), <u16>argA(c));
  }
}

const BRANCH_CAP: i32 = 64;
const branchA: usize = memory.data(BRANCH_CAP * 2, 8);
const branchB: usize = memory.data(BRANCH_CAP * 2, 8);

/** The literal units a branch (a CAT, or one node) ends with, last first, into `dst`. */
function branchSuffix(n: i32, dst: usize): i32 {
  if (kindOf(n) == N_CHAR) { store<u16>(dst, <u16>argA(n)); return 1; }
  if (kindOf(n) != N_CAT) return 0;
  let count = 0;
  for (let c = argA(n); c >= 0; c = nextOf(c)) count++;
  let len = 0;
  for (let i = count - 1; i >= 0 && len < BRANCH_CAP; i--) {
    const c = childAt(n, i);
    const k = kindOf(c);
    if (k == N_ASSERT) continue;
    if (k != N_CHAR) break;
    store<u16>(dst + (<usize>(len++) << 1), <u16>argA(c));
  }
  return len;
}

/** Appends the longest literal suffix all branches of an ALT share (`.{js,mjs,cjs}` ends in `js`). */
function commonBranchSuffix(alt: i32, dst: usize, cap: i32): void {
  const first = argA(alt);
  let common = branchSuffix(first, branchA);
  for (let b = nextOf(first); b >= 0 && common > 0; b = nextOf(b)) {
    const len = branchSuffix(b, branchB);
    let same = 0;
    while (same < common && same < len && load<u16>(branchA + (<usize>same << 1)) == load<u16>(branchB + (<usize>same << 1))) same++;
    common = same;
  }
  for (let i = 0; i < common && factLen < cap; i++) store<u16>(dst + (<usize>(factLen++) << 1), load<u16>(branchA + (<usize>i << 1)));
}

// The longest run of literal units in the top-level concatenation that is neither its leading run
// (the prefix) nor its trailing one (the suffix): a substring every match contains, such as
// `__tests__` in `**/__tests__/**`.
const INFIX_SCAN: i32 = 1024;
const infixBuf: usize = memory.data(INFIX_SCAN * 2, 8);
let runStart: i32 = 0;
let runLen: i32 = 0;
let bestStart: i32 = 0;
let bestLen: i32 = 0;
let atStart = true;
let unitsSeen: i32 = 0;

function infixWalk(cat: i32): void {
  for (let c = argA(cat); c >= 0; c = nextOf(c)) {
    const k = kindOf(c);
    if (k == N_ASSERT) continue;
    if (k == N_CAT) { infixWalk(c); continue; }
    if (k == N_CHAR && unitsSeen < INFIX_SCAN) {
      store<u16>(infixBuf + (<usize>unitsSeen << 1), <u16>argA(c));
      if (runLen == 0) runStart = unitsSeen;
      runLen++;
      unitsSeen++;
      continue;
    }
    if (runLen > bestLen && !atStart) { bestStart = runStart; bestLen = runLen; }
    runLen = 0;
    atStart = false;
    unitsSeen++; // a gap in the buffer: runs never span it
  }
}

/** The infix (see above) into `dst`, at most `cap` units; its length, 0 if there is none. */
export function literalInfix(dst: usize, cap: i32): i32 {
  runStart = 0; runLen = 0; bestStart = 0; bestLen = 0; atStart = true; unitsSeen = 0;
  if (astRoot() < 0 || kindOf(astRoot()) != N_CAT) return 0;
  infixWalk(astRoot());
  const len = min(bestLen, cap);
  memory.copy(dst, infixBuf + (<usize>bestStart << 1), <usize>len << 1);
  return len;
}

/** The literal units every match of the last compiled source starts with, into `dst`; the count. */
export function literalPrefix(dst: usize, cap: i32): i32 {
  factLen = 0;
  factStop = false;
  if (astRoot() >= 0 && kindOf(astRoot()) == N_CAT) prefixWalk(astRoot(), dst, cap);
  return factLen;
}

/**
 * The literal units every match ends with, written last-first into `dst`; the count, with bit 30
 * set when an optional `/` may follow them (picomatch's trailing `\/?`).
 */
export function literalSuffix(dst: usize, cap: i32): i32 {
  factLen = 0;
  factStop = false;
  factOptSlash = 0;
  if (astRoot() >= 0 && kindOf(astRoot()) == N_CAT) suffixWalk(astRoot(), dst, cap);
  return factLen | (factOptSlash << 30);
}

// ---- slash bounds and the units after the prefix ----------------------------------------------

/** Stands for "no upper bound" in slash counts. */
export const SLASHES_UNBOUNDED: i32 = 0x7fffffff;
let boundMin: i32 = 0;
let boundMax: i32 = 0;

// @ts-ignore: decorator
@inline function addBound(a: i32, b: i32): i32 {
  return a == SLASHES_UNBOUNDED || b == SLASHES_UNBOUNDED ? SLASHES_UNBOUNDED : a + b;
}

function canBeSlash(n: i32): bool {
  const k = kindOf(n);
  if (k == N_CHAR) return argA(n) == Ch.SLASH;
  if (k == N_CLASS) return classHas(classBase() + <usize>argA(n), Ch.SLASH);
  return k == N_ANY;
}

/** Fewest and most `/` units a match of node `n` can contain (into boundMin/boundMax). */
function slashBounds(n: i32): void {
  const k = kindOf(n);
  if (k == N_CAT) {
    let lo = 0, hi = 0;
    for (let c = argA(n); c >= 0; c = nextOf(c)) {
      slashBounds(c);
      lo = addBound(lo, boundMin);
      hi = addBound(hi, boundMax);
    }
    boundMin = lo; boundMax = hi;
    return;
  }
  if (k == N_ALT) {
    let lo = SLASHES_UNBOUNDED, hi = 0;
    for (let c = argA(n); c >= 0; c = nextOf(c)) {
      slashBounds(c);
      lo = min(lo, boundMin);
      hi = max(hi, boundMax);
    }
    boundMin = lo; boundMax = hi;
    return;
  }
  if (k == N_STAR || k == N_PLUS || k == N_OPT) {
    slashBounds(argA(n));
    if (k != N_PLUS) boundMin = 0;
    if (k != N_OPT && boundMax > 0) boundMax = SLASHES_UNBOUNDED;
    return;
  }
  boundMin = k == N_CHAR && argA(n) == Ch.SLASH ? 1 : 0;
  boundMax = canBeSlash(n) ? 1 : 0;
}

/** The fewest `/` units a match contains, and (through slashMax()) the most. */
export function slashMin(): i32 {
  if (astRoot() < 0) { boundMin = 0; boundMax = SLASHES_UNBOUNDED; return 0; }
  slashBounds(astRoot());
  return boundMin;
}
export function slashMax(): i32 {
  return boundMax;
}

// First-unit sets are layout.ts UnitSets (the "may end here" word only for the set after the
// prefix).

const allBut: usize = memory.data(16, 16);

/** Adds every ASCII unit but `a` and `b`, and the non-ASCII ones, to the set. */
function addAllBut(set: usize, a: u32, b: u32): void {
  v128.store(allBut, i32x4.splat(-1));
  store<u32>(allBut + ((a >> 5) << 2), load<u32>(allBut + ((a >> 5) << 2)) & ~(1 << (a & 31)));
  store<u32>(allBut + ((b >> 5) << 2), load<u32>(allBut + ((b >> 5) << 2)) & ~(1 << (b & 31)));
  v128.store(set, v128.or(v128.load(set), v128.load(allBut)));
  changetype<UnitSet>(set).nonAscii = 1;
}

/** Adds the units node `n` can start with; returns whether it can match the empty string. */
function firstUnits(n: i32, set: usize): bool {
  const k = kindOf(n);
  if (k == N_CHAR) { addUnit(set, argA(n)); return false; }
  if (k == N_CLASS) {
    const rec = changetype<ClassRecord>(classBase() + <usize>argA(n));
    const mask = changetype<usize>(rec) + CLASS_ASCII;
    v128.store(set, v128.or(v128.load(set), v128.load(mask)));
    if (rec.negated != 0 || rec.ranges > 0) changetype<UnitSet>(set).nonAscii = 1;
    return false;
  }
  if (k == N_ANY) { addAllBut(set, 10, 13); return false; }
  if (k == N_NOT_SLASH) { addAllBut(set, Ch.SLASH, Ch.SLASH); return false; }
  if (k == N_NOT_DOT_SLASH) { addAllBut(set, Ch.SLASH, Ch.DOT); return false; }
  if (k == N_ASSERT) return true;
  if (k == N_CAT) {
    for (let c = argA(n); c >= 0; c = nextOf(c)) if (!firstUnits(c, set)) return false;
    return true;
  }
  if (k == N_ALT) {
    let nullable = false;
    for (let c = argA(n); c >= 0; c = nextOf(c)) if (firstUnits(c, set)) nullable = true;
    return nullable;
  }
  const inner = firstUnits(argA(n), set);
  return k == N_PLUS ? inner : true;
}

let skipLeft: i32 = 0;
let afterDone = false;

function afterWalk(cat: i32, set: usize): void {
  for (let c = argA(cat); c >= 0 && !afterDone; c = nextOf(c)) {
    const k = kindOf(c);
    if (k == N_ASSERT) continue;
    if (k == N_CAT) { afterWalk(c, set); continue; }
    if (k == N_CHAR && skipLeft > 0) { skipLeft--; continue; }
    if (!firstUnits(c, set)) afterDone = true;
  }
}

/**
 * The units that can follow the literal prefix (`prefixLen` units) in a match, into the UnitSet at
 * `set`; its `mayEnd` says whether a match may end right after the prefix.
 */
export function unitsAfterPrefix(prefixLen: i32, set: usize): void {
  memory.fill(set, 0, UNIT_SET_SIZE);
  const after = changetype<UnitSet>(set);
  if (astRoot() < 0 || kindOf(astRoot()) != N_CAT) { memory.fill(set, 0xff, 16); after.nonAscii = 1; after.mayEnd = 1; return; }
  skipLeft = prefixLen;
  afterDone = false;
  afterWalk(astRoot(), set);
  if (!afterDone) after.mayEnd = 1;
}

// ---- suffix keys: the last two units a match can end with ---------------------------------------

/** Packs the last unit and the one before it. */
// @ts-ignore: decorator
@inline export function suffixKey(last: u32, before: u32): u32 {
  return last | (before << 16);
}

const trail: usize = memory.data(8, 8);

/**
 * The possible (last, second-to-last) unit pairs of a match, ignoring a trailing optional `/`,
 * written as u32 keys to `dst` (at most `cap`); returns how many, or -1 when they cannot be listed
 * (then every path is a candidate). `**\/*.{ts,tsx}` gives `ts` and `sx`.
 */
export function suffixKeys(dst: usize, cap: i32): i32 {
  if (astRoot() < 0 || kindOf(astRoot()) != N_CAT) return -1;
  // The trailing literal units (at most two), then the node before them.
  let cat = astRoot();
  let tail = 0;
  while (true) {
    let count = 0;
    for (let c = argA(cat); c >= 0; c = nextOf(c)) count++;
    let i = count - 1;
    let descended = false;
    for (; i >= 0; i--) {
      const c = childAt(cat, i);
      const k = kindOf(c);
      if (k == N_ASSERT) continue;
      if (k == N_OPT && tail == 0 && kindOf(argA(c)) == N_CHAR && argA(argA(c)) == Ch.SLASH) continue;
      if (k == N_CHAR) {
        store<u32>(trail + (<usize>tail << 2), argA(c));
        tail++;
        if (tail == 2) { store<u32>(dst, suffixKey(load<u32>(trail), load<u32>(trail + 4))); return 1; }
        continue;
      }
      if (k == N_CAT) { cat = c; descended = true; break; }
      if (k != N_ALT) return -1;
      // Each branch supplies the missing units.
      let keys = 0;
      for (let b = argA(c); b >= 0; b = nextOf(b)) {
        const len = branchSuffix(b, branchA);
        if (len + tail < 2 || keys >= cap) return -1;
        const last = tail == 1 ? load<u32>(trail) : <u32>load<u16>(branchA);
        const before = tail == 1 ? <u32>load<u16>(branchA) : <u32>load<u16>(branchA + 2);
        store<u32>(dst + (<usize>keys << 2), suffixKey(last, before));
        keys++;
      }
      return keys;
    }
    if (!descended) return -1;
  }
}
