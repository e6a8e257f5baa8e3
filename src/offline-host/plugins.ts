// Mounting a plugin module as DSH's loader does (contract §1.1): refuse a default export, validate
// the config synchronously through the Standard Schema interface (issues become
// `invalid config:\n  - <message> (at <path>)`), then `apply` with the validated value in a fiber
// whose disposal removes everything the plugin registered.

import type { PluginModule, StandardIssue, StandardSchema } from '../host/cordis.js';

/** The error DSH's loader raises for rejected config. */
export class ConfigValidationError extends Error {
  override readonly name = 'ValidationError';
  constructor(readonly issues: readonly StandardIssue[]) {
    super(`invalid config:\n${issues.map((issue) => `  - ${issue.message}${formatPath(issue.path)}`).join('\n')}`);
  }
}

/**
 * Validates `raw` with `schema['~standard'].validate` and returns the validated value (defaults
 * filled). Throws `ConfigValidationError` on issues, and an Error if validation is asynchronous,
 * which DSH refuses.
 */
export function validateConfig<C>(schema: StandardSchema<C>, raw: unknown): C {
  const result = schema['~standard'].validate(raw);
  if (result instanceof Promise || typeof (result as { then?: unknown })?.then === 'function') {
    throw new Error('invalid config: Config validation must be synchronous');
  }
  const checked = result as { value: C; issues?: undefined } | { issues: readonly StandardIssue[] };
  if (checked.issues !== undefined) throw new ConfigValidationError(checked.issues);
  return (checked as { value: C }).value;
}

/** Throws unless `module` has DSH's plugin shape: `name`, `apply`, optional `Config`, no default export. */
export function assertPluginModule(module: unknown): asserts module is PluginModule {
  const m = module as Partial<PluginModule> & { default?: unknown };
  if (m === null || typeof m !== 'object') throw new TypeError('plugin module must be a module namespace object');
  if ('default' in m) throw new TypeError(`plugin module ${String(m.name)} has a default export; DSH's loader would load it instead of the namespace`);
  if (typeof m.name !== 'string' || m.name === '') throw new TypeError('plugin module must export a non-empty string `name`');
  if (typeof m.apply !== 'function') throw new TypeError(`plugin module ${m.name} must export an \`apply\` function`);
  if (m.Config !== undefined && typeof m.Config?.['~standard']?.validate !== 'function') {
    throw new TypeError(`plugin module ${m.name}: Config must implement the Standard Schema interface`);
  }
}

function formatPath(path: StandardIssue['path']): string {
  if (path === undefined || path.length === 0) return '';
  const keys = path.map((p) => String(typeof p === 'object' ? p.key : p));
  return ` (at ${keys.join('.')})`;
}
