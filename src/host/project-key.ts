// The per-project folder key (spec AM-06), the same escaping DSH uses for its session directories,
// so a project's memory folder name is predictable and matches what users see elsewhere in DSH.

/** Upper bound on the escaped slug between the `--` fences, in UTF-16 code units. */
export const PROJECT_KEY_SLUG_MAX = 251;

const SEPARATORS = new Set(['/', '\\', ':']);
const KEPT = /^[A-Za-z0-9._-]$/;

/**
 * `--` + slug + `--`, where the slug is `projectRoot` with each run of `/`, `\` or `:` turned into
 * one `-`, every code unit outside `[A-Za-z0-9._-]` (including `~`) written as `~XXXX` (uppercase
 * hex), leading `-` stripped, an empty result written as `root`, and the whole cut to 251 code units.
 * `/Users/a/my-project` → `--Users-a-my-project--`. An empty input throws: there is no project.
 */
export function projectKey(projectRoot: string): string {
  if (projectRoot === '') throw new RangeError('projectKey: projectRoot must not be empty');
  let slug = '';
  for (let i = 0; i < projectRoot.length; i++) {
    const unit = projectRoot[i]!;
    if (SEPARATORS.has(unit)) {
      if (!SEPARATORS.has(projectRoot[i - 1] ?? '')) slug += '-';
    } else if (KEPT.test(unit)) slug += unit;
    else slug += `~${unit.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
  }
  slug = slug.replace(/^-+/, '');
  if (slug === '') slug = 'root';
  return `--${slug.slice(0, PROJECT_KEY_SLUG_MAX)}--`;
}
