// AssemblyScript transform (`asc ... --transform ./scripts/asc-out-of-line.mjs`, in package.json's
// asbuild scripts; asc 0.28 does not resolve a relative transform path given in asconfig.json):
// keeps a few functions out of line, whatever Binaryen's inliner would decide: small functions that a
// fresh process runs many times while it compiles its rule globs, inlined where that costs the
// process more than the call saves.
//
// Why it matters: V8 runs WASM on its baseline compiler first and queues an optimizing (TurboFan)
// compile of a function once the function has used up a budget, charged as the size of the code
// each loop iteration or call runs through. A hot loop inlined into a big caller spends the
// caller's budget, and the optimizing compile that follows is of the whole caller: milliseconds of
// background CPU that, on a machine with two cores, compete with the cold start itself. Kept out of
// line, the loop spends its own small budget, and the caller stays on the baseline tier.
//
// The names are checked: a function that no longer exists fails the build.

/** Internal names (assembly/<file>/<function>) of the functions kept out of line. */
const OUT_OF_LINE = [
  // The fixpoint over every instruction of every compiled glob (analyze.ts): inlined, it made
  // analyze() tier up during a 50-pattern cold start, 2 ms of optimizing compile.
  'assembly/glob/analyze/markReachesMatch',
  // The glob translator's output helpers, called from about 70 places (translate.ts, tokens.ts,
  // fastpaths.ts). V8 compiles each function of the module when it is first called, on the main
  // thread; with these inlined, the functions a fresh process compiles to compile and match its rule
  // globs held 31.2 KB of code, without 24.9 KB (the module: 88.8 KB, 82.2 KB).
  'assembly/glob/text/Buf#push',
  'assembly/glob/text/Buf#pushUnit',
  'assembly/glob/text/Buf#pushStr',
  'assembly/glob/fastpaths/emitStr',
  // Slow paths and rare work split from the functions a cold start runs for every path or pattern
  // check (dfa.ts, set.ts). The budget is charged per call as the code up to the return and per
  // loop iteration as the loop's code, so a rarely taken branch inlined into a hot function is paid
  // for on every call. Kept out of line, each of these runs under its own budget: in a fresh
  // process matching 1,000 paths against 50 rule globs, V8 then optimizes 5 functions instead of 8
  // (`node --wasm-tiering-budget=N --trace-wasm-compilation-times build/bench/cold-start.js ours`).
  // Two or more optimizing compiles at once keep both cores of a two-core machine and stall the
  // main thread for milliseconds.
  'assembly/glob/dfa/advance', // a new DFA transition (run() keeps the loop over cached ones)
  'assembly/glob/dfa/acceptsAtEnd', // acceptance at a path's end
  'assembly/glob/dfa/addState', // a new state (intern() keeps the lookup)
  'assembly/glob/dfa/recall', // a state's kept closure
  'assembly/glob/dfa/closureInto', // a closure to compute, and to keep
  'assembly/glob/set/unitsEqual', // the literal comparisons of decide() and contains()
  'assembly/glob/set/hitsOf', // the pattern checks of one path
  'assembly/glob/set/slashPath', // the pass that normalizes one path
  'assembly/glob/set/signPath', // the pass that signs its pairs
  'assembly/glob/set/suffixHolds', // decide()'s suffix check
  'assembly/glob/set/execute', // decide()'s last step, the DFA or the Pike VM
  'assembly/glob/set/contains', // decide()'s infix search
  'assembly/glob/set/noLineTerminator', // decide()'s check of a negated glob's path
];

export default class OutOfLine {
  /**
   * Marks the functions before Binaryen optimizes the module.
   * @param {binaryen.Module} module the compiled module
   */
  afterCompile(module) {
    const binaryen = this.binaryen; // asc's own Binaryen instance, set on the transform by asc
    for (const name of OUT_OF_LINE) {
      if (module.getFunction(name) === 0) {
        throw new Error(`asc-out-of-line: no function ${name} in the module (renamed? update scripts/asc-out-of-line.mjs)`);
      }
      binaryen.setPassArgument('no-inline', name);
      module.runPasses(['no-inline']);
    }
    binaryen.setPassArgument('no-inline', null);
  }
}
