// The DeepSeek V3 tokenizer ABI (assembly/README.md, "Tokenizer"): load the table into a state the
// host places (tokenizer/state.ts), count or encode UTF-16 text chunk by chunk (tokenizer/encode.ts,
// tokenizer/bpe.ts), decode ids (tokenizer/decode.ts).
export { tokStateBytes, tokLoad, tokInfo } from "./tokenizer/state";
export { tokEncode, tokConsumed, tokDetail, tokDetail2 } from "./tokenizer/encode";
export { tokDecodeLength, tokDecode } from "./tokenizer/decode";
