// The JSON Schema subset DSH accepts for tool schemas (contract §7.1 and correction 1). DSH checks a
// tool's output schema when the tool registers — one violation aborts the boot of the whole plugin
// tree — and renders Code Mode's SDK types only from parameter schemas inside the subset (others
// become `unknown`). The violation texts are DSH's, so the simulated host fails with the message a
// user would see.
//
// The subset: a node is an object holding only `type`, `oneOf`, `properties`, `required`,
// `additionalProperties`, `items`, `enum`, `const` and the annotations `description`, `title`,
// `default`, `examples`. It has one scalar `type` or a `oneOf` of at least two schemas, never both;
// with neither, it may carry annotations only. `properties`/`required`/`additionalProperties`
// belong to objects, `items` to arrays, `enum`/`const` to scalar types.

const CONSTRAINTS = new Set(['type', 'oneOf', 'properties', 'required', 'additionalProperties', 'items', 'enum', 'const']);
const ANNOTATIONS = new Set(['description', 'title', 'default', 'examples']);
const TYPES = ['object', 'array', 'string', 'number', 'integer', 'boolean', 'null'] as const;
type SchemaType = (typeof TYPES)[number];
/** Keywords that need a `type` or `oneOf`, and that a `oneOf` node may not carry. */
const TYPED_KEYWORDS = ['properties', 'required', 'additionalProperties', 'items', 'enum', 'const'] as const;
const KEYWORD_TYPES: Record<(typeof TYPED_KEYWORDS)[number], readonly SchemaType[]> = {
  properties: ['object'],
  required: ['object'],
  additionalProperties: ['object'],
  items: ['array'],
  enum: ['string', 'number', 'integer', 'boolean', 'null'],
  const: ['string', 'number', 'integer', 'boolean', 'null'],
};

type Node = Record<string, unknown>;

const isRecord = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value) && [Object.prototype, null].includes(Object.getPrototypeOf(value));
const has = (node: Node, key: string): boolean => Object.hasOwn(node, key);
const isJsonNumber = (value: unknown): boolean => typeof value === 'number' && Number.isFinite(value) && !Object.is(value, -0);

function scalarMatches(type: SchemaType, value: unknown): boolean {
  switch (type) {
    case 'string': return typeof value === 'string';
    case 'number': return isJsonNumber(value);
    case 'integer': return isJsonNumber(value) && Number.isInteger(value);
    case 'boolean': return typeof value === 'boolean';
    case 'null': return value === null;
    default: return false;
  }
}

function isJsonData(value: unknown, seen = new Set<unknown>()): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return isJsonNumber(value);
  if (typeof value !== 'object' || seen.has(value)) return false;
  seen.add(value);
  const ok = Array.isArray(value) ? value.every((v) => isJsonData(v, seen)) : isRecord(value) && Object.values(value).every((v) => isJsonData(v, seen));
  seen.delete(value);
  return ok;
}

/**
 * Every way `schema` leaves DSH's subset, in DSH's words, depth first.
 * @param schema - a tool's output or parameter schema.
 * @param path - the name of the root in the messages (DSH says `schema`).
 * @returns the violations; empty when DSH accepts the schema.
 */
export function jsonSchemaViolations(schema: unknown, path = 'schema'): string[] {
  const violations: string[] = [];
  visit(schema, path, violations, new Set());
  return violations;
}

function visit(node: unknown, path: string, out: string[], seen: Set<unknown>): void {
  if (!isRecord(node)) {
    out.push(`${path} must be a schema object`);
    return;
  }
  if (seen.has(node)) {
    out.push(`${path} is circular`);
    return;
  }
  seen.add(node);
  try {
    for (const key of Object.keys(node)) {
      if (CONSTRAINTS.has(key)) continue;
      if (ANNOTATIONS.has(key)) {
        if (!isJsonData(node[key])) out.push(`${path}.${key} annotation must be lossless JSON data`);
      } else {
        out.push(`${path}.${key} is not a supported keyword (subset: type/oneOf/properties/required/additionalProperties/items/enum/const + annotations)`);
      }
    }
    if (has(node, 'description') && typeof node.description !== 'string') out.push(`${path}.description must be a string`);
    if (has(node, 'title') && typeof node.title !== 'string') out.push(`${path}.title must be a string`);
    if (has(node, 'type') && has(node, 'oneOf')) {
      out.push(`${path} cannot declare both type and oneOf`);
      return;
    }
    if (!has(node, 'type') && !has(node, 'oneOf')) {
      for (const key of TYPED_KEYWORDS) if (has(node, key)) out.push(`${path}.${key} requires type or oneOf`);
      return;
    }
    if (has(node, 'oneOf')) {
      const { oneOf } = node;
      if (!Array.isArray(oneOf) || oneOf.length < 2) out.push(`${path}.oneOf must be an array of at least two schemas`);
      else oneOf.forEach((branch, i) => visit(branch, `${path}.oneOf[${i}]`, out, seen));
      for (const key of TYPED_KEYWORDS) if (has(node, key)) out.push(`${path}.${key} is not supported beside oneOf`);
      return;
    }
    const { type } = node;
    if (typeof type !== 'string' || !(TYPES as readonly string[]).includes(type)) {
      out.push(Array.isArray(type) ? `${path}.type must be a single type string (type arrays are not supported)` : `${path}.type must be one of ${TYPES.join('/')}`);
      return;
    }
    const schemaType = type as SchemaType;
    for (const key of TYPED_KEYWORDS) if (has(node, key) && !KEYWORD_TYPES[key].includes(schemaType)) out.push(`${path}.${key} is not supported on type "${schemaType}"`);
    if (schemaType === 'object') {
      const { properties } = node;
      if (has(node, 'properties')) {
        if (!isRecord(properties)) out.push(`${path}.properties must be an object of schemas`);
        else for (const [key, value] of Object.entries(properties)) visit(value, `${path}.properties.${key}`, out, seen);
      }
      if (has(node, 'required')) {
        const { required } = node;
        if (!Array.isArray(required) || required.some((entry) => typeof entry !== 'string')) out.push(`${path}.required must be an array of strings`);
        else for (const key of required as string[]) if (!(isRecord(properties) && has(properties, key))) out.push(`${path}.required names "${key}" which is not in properties`);
      }
      if (has(node, 'additionalProperties') && typeof node.additionalProperties !== 'boolean') out.push(`${path}.additionalProperties must be a boolean`);
    } else if (schemaType === 'array') {
      if (has(node, 'items')) visit(node.items, `${path}.items`, out, seen);
    } else {
      const allowed = node.enum;
      const enumValid = Array.isArray(allowed) && allowed.length > 0 && allowed.every((entry) => scalarMatches(schemaType, entry));
      if (has(node, 'enum') && !enumValid) out.push(`${path}.enum must be a non-empty array of ${schemaType} values`);
      if (has(node, 'const')) {
        if (!scalarMatches(schemaType, node.const)) out.push(`${path}.const must be a ${schemaType} value`);
        else if (enumValid && !(allowed as unknown[]).includes(node.const)) out.push(`${path}.const must be one of ${path}.enum when both are declared`);
      }
    }
  } finally {
    seen.delete(node);
  }
}

/** DSH's refusal of a schema outside the subset (`code: 'UNSUPPORTED_SCHEMA'`, the violations listed). */
export class UnsupportedSchemaError extends Error {
  readonly code = 'UNSUPPORTED_SCHEMA';
  constructor(readonly violations: readonly string[]) {
    super(`unsupported JSON schema: ${violations.join('; ')}`);
    this.name = 'UnsupportedSchemaError';
  }
}

/**
 * Throws as DSH's tool registry does when `schema` leaves the subset.
 * @param schema - a tool's output schema.
 * @throws UnsupportedSchemaError listing every violation.
 */
export function assertSupportedJsonSchema(schema: unknown): void {
  const violations = jsonSchemaViolations(schema);
  if (violations.length > 0) throw new UnsupportedSchemaError(violations);
}
