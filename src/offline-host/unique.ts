// The registration rule the offline host's registries share: one value per name per layer, a
// duplicate is an error, and a removal only removes the value it added.

/**
 * Adds `value` to `map` under `name`, which must be free (else throws
 * `<what> "<name>" is already registered`), calls `onChange`, and returns the removal: it deletes
 * the entry and calls `onChange` again, unless another value has taken the name since.
 */
export function addUnique<T>(map: Map<string, T>, name: string, value: T, what: string, onChange: () => void): () => void {
  if (map.has(name)) throw new Error(`${what} "${name}" is already registered`);
  map.set(name, value);
  onChange();
  return () => {
    if (map.get(name) !== value) return;
    map.delete(name);
    onChange();
  };
}
