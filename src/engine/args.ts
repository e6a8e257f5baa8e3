// Argument checks shared by the engine facade. Errors name the function, the argument, the value and
// the limit, so a caller can tell what to fix without reading our source.

/** A short, safe rendering of any value for an error message. */
export function describe(value: unknown): string {
  if (typeof value === 'string') return value.length > 40 ? `a string of length ${value.length}` : JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (Array.isArray(value)) return `an array of length ${value.length}`;
  if (ArrayBuffer.isView(value)) return `a ${value.constructor.name} of ${value.byteLength} bytes`;
  if (typeof value === 'function') return 'a function';
  return `an object (${Object.prototype.toString.call(value).slice(8, -1)})`;
}

// The built-in %TypedArray%.prototype getters read internal slots: an object cannot fake them, and
// a subclass cannot override them. Only they decide what is written into WASM memory.
const typedArrayPrototype = Object.getPrototypeOf(Uint8Array.prototype) as object;
function intrinsicGetter(key: PropertyKey): (this: unknown) => unknown {
  return Object.getOwnPropertyDescriptor(typedArrayPrototype, key)!.get! as (this: unknown) => unknown;
}
const typedArrayName = intrinsicGetter(Symbol.toStringTag);
const typedArrayBuffer = intrinsicGetter('buffer') as (this: Uint8Array) => ArrayBufferLike;
const typedArrayOffset = intrinsicGetter('byteOffset') as (this: Uint8Array) => number;
const typedArrayLength = intrinsicGetter('length') as (this: Uint8Array) => number;

/** True for a real Uint8Array or subclass (Buffer), from this realm or another. */
export function isBytes(value: unknown): value is Uint8Array {
  return ArrayBuffer.isView(value) && typedArrayName.call(value) === 'Uint8Array';
}

/**
 * Whether the view's ArrayBuffer was detached (transferred or structured-cloned away). A detached
 * view reads as length 0, so only those are asked; constructing a view over a detached buffer
 * throws, which is the test that works on Node 20 (ArrayBuffer.prototype.detached is newer).
 */
function isDetached(bytes: Uint8Array): boolean {
  if (typedArrayLength.call(bytes) !== 0) return false;
  try {
    new Uint8Array(typedArrayBuffer.call(bytes), 0, 0);
    return false;
  } catch {
    return true;
  }
}

/**
 * `bytes` as a plain Uint8Array view of the same memory, so that no subclass override (length,
 * subarray) can change what reaches WASM memory. Plain Uint8Arrays pass through untouched. A view
 * whose ArrayBuffer was detached is a TypeError naming the function and the argument.
 */
export function plainBytes(fn: string, name: string, bytes: Uint8Array): Uint8Array {
  if (isDetached(bytes)) throw new TypeError(`${fn}: ${name} is a Uint8Array whose ArrayBuffer is detached (transferred); it has no bytes to read`);
  if (Object.getPrototypeOf(bytes) === Uint8Array.prototype) return bytes;
  return new Uint8Array(typedArrayBuffer.call(bytes), typedArrayOffset.call(bytes), typedArrayLength.call(bytes));
}

/** A string as it is, or bytes through plainBytes; anything else is a TypeError. */
export function textArg(fn: string, name: string, value: unknown): string | Uint8Array {
  if (typeof value === 'string') return value;
  if (isBytes(value)) return plainBytes(fn, name, value);
  throw new TypeError(`${fn}: ${name} must be a string or a Uint8Array, got ${describe(value)}`);
}

export function expectString(fn: string, name: string, value: unknown): asserts value is string {
  if (typeof value !== 'string') throw new TypeError(`${fn}: ${name} must be a string, got ${describe(value)}`);
}

/**
 * A limit: a non-negative integer, or Infinity when `allowInfinity`. Other numbers are a RangeError,
 * non-numbers a TypeError.
 */
export function expectLimit(fn: string, name: string, value: unknown, allowInfinity: boolean): number {
  if (typeof value !== 'number') throw new TypeError(`${fn}: ${name} must be a number, got ${describe(value)}`);
  if (value === Infinity && allowInfinity) return value;
  if (!Number.isSafeInteger(value) || value < 0) {
    const range = allowInfinity ? `an integer from 0 to ${Number.MAX_SAFE_INTEGER} or Infinity` : `an integer from 0 to ${Number.MAX_SAFE_INTEGER}`;
    throw new RangeError(`${fn}: ${name} must be ${range}, got ${describe(value)}`);
  }
  return value;
}
