// Untrusted JSON (the state file, the panel's request bodies, the translation cache), read without
// two traps (issue 32, items 12 and 13). Depth: V8's JSON.parse takes any nesting, but everything
// that walks the value afterwards (JSON.stringify in a message or a comparison) recurses, and a body
// nested 100,000 levels deep threw "Maximum call stack size exceeded"; a linear scan refuses such
// text before it is parsed. Keys: a plain object answers `constructor`, `toString` or `__proto__`
// from Object.prototype, and assigning `__proto__` replaces the prototype instead of adding a key;
// so keys that come from data are read only as own properties (`own`) and written as data
// properties (`fromEntries`, `put`).

/** How deep the state file and request bodies may nest: the state's own shape needs 5 levels. */
export const MAX_JSON_DEPTH = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;

/**
 * How deep `text` nests objects and arrays, counting only brackets outside strings; it stops
 * counting once past `limit`. Linear in the text, constant space.
 * @param text - JSON text (valid or not).
 * @param limit - the depth past which counting stops.
 * @returns the greatest depth seen, at most `limit + 1`.
 */
export function jsonDepth(text: string, limit: number): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) {
      inString = true;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > deepest && (deepest = depth) > limit) return deepest;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
    }
  }
  return deepest;
}

/**
 * `JSON.parse`, refusing text that nests deeper than `maxDepth` before parsing it.
 * @param text - the JSON text.
 * @param maxDepth - the deepest nesting accepted.
 * @returns the parsed value.
 * @throws SyntaxError for text JSON.parse rejects, or that nests too deep (naming the limit).
 */
export function parseJson(text: string, maxDepth = MAX_JSON_DEPTH): unknown {
  if (jsonDepth(text, maxDepth) > maxDepth) throw new SyntaxError(`it nests objects and arrays more than ${maxDepth} levels deep; the limit is ${maxDepth}`);
  return JSON.parse(text) as unknown;
}

/**
 * `record[key]` when `key` is the record's own property, else undefined: never a value inherited
 * from Object.prototype (`constructor`, `toString`, `__proto__`, …).
 * @param record - a record whose keys come from data (or undefined).
 * @param key - the key to look up.
 * @returns the own value, or undefined.
 */
export function own<T>(record: Readonly<Record<string, T>> | undefined, key: string): T | undefined {
  return record !== undefined && Object.hasOwn(record, key) ? record[key] : undefined;
}

/**
 * Sets `record[key]` as an own data property, even for `__proto__` (an assignment would replace the prototype).
 * @param record - the record to change.
 * @param key - the key.
 * @param value - the value.
 */
export function put<T>(record: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(record, key, { value, writable: true, enumerable: true, configurable: true });
}

/**
 * A record from entries, every key an own data property (`Object.fromEntries` defines, never assigns).
 * @param entries - key-value pairs; a later pair with the same key wins.
 * @returns the record.
 */
export function fromEntries<T>(entries: Iterable<readonly [string, T]>): Record<string, T> {
  return Object.fromEntries(entries) as Record<string, T>;
}
