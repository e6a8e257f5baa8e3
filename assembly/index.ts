// The module's exports: one C-like ABI of pointers and lengths, documented in README.md here.
export {
  sha1Init, sha1Update, sha1UpdateUtf16, sha1Final, sha1FinalHex, sha1Hex, sha1HexUtf16,
} from "./sha1";
export {
  sha256Init, sha256Update, sha256UpdateUtf16, sha256Final, sha256FinalHex, sha256Hex, sha256HexUtf16,
} from "./sha256";
export { sha1BatchHex, sha256BatchHex } from "./batch";
export { utf16ToUtf8, utf8LengthUtf16, utf8CutUtf16, utf8Decode } from "./utf8";
export { codePointCountUtf16, codePointOffsetUtf16 } from "./codepoints";
export { readInit, readUpdateUtf16, readUpdateBytes, readFinish } from "./read";
export { heapBase } from "./util/memory";
export {
  globCompile, globCompileWorkspace, globTranslate, globDetail, globMatch, globMatchSet, globMatchWorkspace,
  globSetCacheBytes, globSetCacheReset, globSetWorkspace, globCompileSet, globFailedIndex, globNeedWork, globNeedOut,
} from "./glob";
export {
  tokStateBytes, tokLoad, tokInfo, tokEncode, tokConsumed, tokDetail, tokDetail2, tokDecodeLength, tokDecode,
} from "./tokenizer";
