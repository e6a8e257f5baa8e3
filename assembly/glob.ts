// The glob ABI (assembly/README.md): compile patterns into self-contained programs (glob/compile.ts)
// and match them against paths one at a time or as a whole set in one call (glob/set.ts).
export {
  globCompile, globCompileSet, globCompileWorkspace, globTranslate, globDetail, globFailedIndex, globNeedWork,
  globNeedOut,
} from "./glob/compile";
export {
  globMatch, globMatchWorkspace, globMatchSet, globSetCacheBytes, globSetCacheReset, globSetWorkspace,
} from "./glob/set";
