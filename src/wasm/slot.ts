// Streaming digests and bounded reads keep their state in WASM memory while they work, but many of
// them may be alive at once (interleaved awaits, several digests). Each kind has one slot; owners
// take turns in it, and the state of an owner that loses the slot is copied out and restored when it
// comes back. One owner working alone never pays for a copy.

import { copyOut, writeBytes } from './memory.js';

export class ContextSlot {
  #owner: object | null = null;
  readonly #saved = new WeakMap<object, Uint8Array>();

  constructor(readonly ptr: number, readonly size: number) {}

  /**
   * Makes `owner` the slot's occupant and returns the slot's address. `init` runs when the owner has
   * no state yet (its first turn); otherwise its saved state is restored.
   */
  enter(owner: object, init: (ptr: number) => void): number {
    if (this.#owner === owner) return this.ptr;
    if (this.#owner !== null) this.#saved.set(this.#owner, copyOut(this.ptr, this.size));
    const saved = this.#saved.get(owner);
    if (saved === undefined) {
      init(this.ptr);
    } else {
      writeBytes(saved, this.ptr);
      this.#saved.delete(owner);
    }
    this.#owner = owner;
    return this.ptr;
  }

  /** Forgets `owner`'s state, current or saved. */
  release(owner: object): void {
    if (this.#owner === owner) this.#owner = null;
    this.#saved.delete(owner);
  }
}
