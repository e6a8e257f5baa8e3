// Invariants of the pure pieces (CP-09, CP-11), checked on random input with fast-check.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { slimSchema } from '../../../src/plugins/context-profiles/placeholders.js';
import { firstSentence } from '../../../src/plugins/context-profiles/resolve.js';

const KEPT = ['type', 'properties', 'items', 'required', 'enum', 'anyOf', 'oneOf', 'allOf', 'additionalProperties', 'nullable'];
const annotation = fc.record({ description: fc.string(), title: fc.string(), default: fc.jsonValue(), examples: fc.array(fc.jsonValue()), example: fc.jsonValue(), format: fc.string() }, { requiredKeys: [] });
const schema = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: 'small' },
    fc.tuple(fc.constantFrom('string', 'number', 'integer', 'boolean', 'null'), annotation).map(([type, a]) => ({ type, ...a })),
    fc.tuple(fc.dictionary(fc.string({ minLength: 1 }), tie('node'), { maxKeys: 4 }), annotation).map(([properties, a]) => ({ type: 'object', properties, required: Object.keys(properties).slice(0, 1), ...a })),
    fc.tuple(tie('node'), annotation).map(([items, a]) => ({ type: 'array', items, ...a })),
    fc.tuple(fc.array(tie('node'), { minLength: 2, maxLength: 3 }), annotation).map(([anyOf, a]) => ({ anyOf, ...a })),
  ),
})).node;

/** Every property path with its type, as a list of strings. */
function skeleton(node: unknown, path = '$'): string[] {
  if (node === null || typeof node !== 'object') return [];
  const n = node as Record<string, unknown>;
  const own = n.type !== undefined ? [`${path}:${String(n.type)}`] : [];
  const props = Object.entries((n.properties as Record<string, unknown> | undefined) ?? {}).flatMap(([k, v]) => skeleton(v, `${path}.${JSON.stringify(k)}`));
  const items = n.items !== undefined ? skeleton(n.items, `${path}[]`) : [];
  const alts = ((n.anyOf as unknown[] | undefined) ?? []).flatMap((v, i) => skeleton(v, `${path}|${i}`));
  return [...own, ...props, ...items, ...alts];
}

function keys(node: unknown): string[] {
  if (node === null || typeof node !== 'object') return [];
  if (Array.isArray(node)) return node.flatMap(keys);
  const n = node as Record<string, unknown>;
  return Object.entries(n).flatMap(([k, v]) => [k, ...(k === 'properties' ? Object.values(v as object).flatMap(keys) : keys(v))]);
}

describe('invariants', () => {
  it('CP-09 the slim schema keeps every property name and type and no other keyword', () => {
    fc.assert(fc.property(schema, (s) => {
      const slim = slimSchema(s);
      expect(skeleton(slim)).toEqual(skeleton(s));
      expect(keys(slim).filter((k) => !KEPT.includes(k))).toEqual([]);
      expect(slimSchema(slim)).toEqual(slim);
    }));
  });

  it('CP-11 the first sentence is a prefix of the trimmed description and never longer than its first line', () => {
    fc.assert(fc.property(fc.string(), (d) => {
      const s = firstSentence(d);
      expect(d.trim().startsWith(s)).toBe(true);
      expect(s.length).toBeLessThanOrEqual(d.trim().split(/[\r\n]/)[0]!.length);
    }));
  });
});
