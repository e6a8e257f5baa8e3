// Glob bench inputs: a monorepo-shaped list of file paths generated from a fixed seed, and 50 rule
// patterns of the kind rule files list under `paths:`. Paths are already normalized (forward slashes,
// no leading `./`), so picomatch and our engine see the same strings.

import { random } from './inputs.js';

/** Rule `paths:` entries as projects write them: most (path, pattern) pairs do not match. */
export const RULE_PATTERNS: readonly string[] = [
  'src/**/*.ts',
  'packages/*/src/**/*.{ts,tsx}',
  '**/*.md',
  'docs/[a-c]*/**',
  '**/*.test.ts',
  '**/__tests__/**',
  '*.json',
  '.github/**/*.yml',
  'packages/{api,web}/**',
  '**/*.{js,mjs,cjs}',
  'apps/*/src/app/**/page.tsx',
  '**/README.md',
  'scripts/?*.sh',
  '**/migrations/*.sql',
  '{src,lib}/**/index.ts',
  '**/*.spec.{ts,tsx}',
  'packages/ui/src/components/**/*.tsx',
  '**/*.d.ts',
  '**/package.json',
  '**/tsconfig*.json',
  'apps/web/**/*.{css,scss}',
  '**/*.stories.tsx',
  'packages/*/.storybook/**',
  'docs/**/*.mdx',
  '**/{vite,vitest,jest}.config.{ts,js,mjs}',
  '**/assets/**/*.{png,svg,jpg}',
  'services/*/db/**',
  'packages/core/src/**',
  '.github/workflows/*.yml',
  '**/hooks/use*.ts',
  '**/*.{yml,yaml}',
  'lib/**/*.js',
  'apps/*/public/**',
  '**/[A-Z]*.tsx',
  'packages/*/src/index.ts',
  '**/.eslintrc.*',
  'tools/**',
  '**/__snapshots__/*.snap',
  '**/fixtures/**/*.json',
  '**/CHANGELOG.md',
  'src/**/[!_]*.ts',
  'apps/{admin,web}/src/**/*.{ts,tsx}',
  '**/*.py',
  'infra/**/*.tf',
  'packages/*/test/**/*.ts',
  'src/**/*.{test,spec}.ts',
  '**/i18n/**/*.json',
  '**/Dockerfile*',
  '**/*.{graphql,gql}',
  'packages/*/package.json',
];

const PACKAGES = [
  'api', 'web', 'core', 'ui', 'utils', 'cli', 'auth', 'db', 'shared', 'config', 'eslint-config',
  'tsconfig', 'logger', 'http-client', 'feature_flags', 'analytics', 'billing', 'search-index',
  'notifications', 'i18n', 'design-tokens', 'icons', 'forms', 'router', 'state', 'testing-utils',
  'markdown', 'parser', 'compiler', 'runtime', 'legacy', 'sdk.js', 'worker', 'queue', 'cache',
  'storage', 'media', 'payments', 'email-templates', 'telemetry',
];
const APPS = ['web', 'admin', 'docs-site', 'mobile', 'marketing', 'dashboard'];
const SERVICES = ['gateway', 'users', 'orders', 'inventory', 'mailer', 'search'];
const DOC_SECTIONS = [
  'api', 'architecture', 'blog', 'changelog', 'contributing', 'deployment', 'guides', 'how-to',
  'reference', 'tutorials', 'security', 'ops', 'adr', 'Getting_Started',
];
const WORDS = [
  'user', 'account', 'session', 'token', 'button', 'modal', 'table', 'list', 'item', 'order', 'cart',
  'price', 'invoice', 'report', 'chart', 'graph', 'node', 'edge', 'tree', 'path', 'route', 'page',
  'layout', 'header', 'footer', 'sidebar', 'menu', 'form', 'field', 'input', 'select', 'date',
  'time', 'format', 'parse', 'render', 'store', 'reducer', 'action', 'effect', 'query', 'mutation',
  'schema', 'model', 'entity', 'repository', 'service', 'controller', 'handler', 'middleware',
  'config', 'env', 'logger', 'error', 'retry', 'cache', 'queue', 'worker', 'job', 'event', 'stream',
  'buffer', 'file', 'upload', 'image', 'avatar', 'theme', 'color', 'icon', 'search', 'filter',
  'sort', 'page', 'util', 'helper', 'client', 'server', 'socket', 'auth', 'permission', 'role',
];
const DIRS = [
  'components', 'hooks', 'lib', 'utils', 'services', 'models', 'store', 'api', 'features', 'pages',
  'views', 'internal', 'core', 'helpers', 'types', 'adapters', 'i18n', 'styles', 'fixtures',
  'handlers', 'routes', 'plugins', 'common', 'legacy', 'v2', 'experimental', 'io', 'data',
];
const ROUTES = ['dashboard', 'settings', 'users', '[id]', '(auth)', 'login', 'billing', 'reports', 'api', 'profile', '[...slug]'];
const CONFIGS = [
  'package.json', 'tsconfig.json', 'tsconfig.build.json', 'vite.config.ts', 'vitest.config.ts',
  'jest.config.js', 'README.md', 'CHANGELOG.md', '.eslintrc.json', '.prettierrc', 'babel.config.cjs',
  'rollup.config.mjs', 'Dockerfile', 'Makefile', 'LICENSE', 'project.json', '.gitignore',
];
const ROOT_FILES = [
  'package.json', 'tsconfig.json', 'tsconfig.base.json', 'pnpm-workspace.yaml', 'turbo.json',
  'README.md', 'CHANGELOG.md', 'CONTRIBUTING.md', 'LICENSE', '.eslintrc.json', '.prettierrc',
  '.editorconfig', '.nvmrc', '.gitignore', '.env.example', 'Dockerfile', 'docker-compose.yml',
  'renovate.json', 'biome.json', 'nx.json', 'lerna.json', '.npmrc',
];
const DOT_FILES = [
  '.github/workflows/ci.yml', '.github/workflows/release.yml', '.github/workflows/codeql.yml',
  '.github/workflows/deploy-preview.yml', '.github/ISSUE_TEMPLATE/bug_report.md',
  '.github/ISSUE_TEMPLATE/feature_request.yml', '.github/dependabot.yml', '.github/CODEOWNERS',
  '.github/actions/setup-node/action.yml', '.vscode/settings.json', '.vscode/extensions.json',
  '.husky/pre-commit', '.husky/commit-msg', '.changeset/config.json', '.devcontainer/devcontainer.json',
];
const SOURCE_EXTS = ['ts', 'ts', 'ts', 'ts', 'ts', 'tsx', 'tsx', 'tsx', 'js', 'js', 'd.ts', 'mjs', 'cjs'];
const ASSET_EXTS = ['png', 'svg', 'jpg', 'webp', 'ico', 'woff2', 'gif'];

type Next = () => number;

const pick = <T>(next: Next, list: readonly T[]): T => list[(next() * list.length) | 0]!;
const between = (next: Next, lo: number, hi: number): number => lo + ((next() * (hi - lo + 1)) | 0);

/** A file stem: kebab, snake, camel or Pascal case, sometimes with a dotted role (`user.service`). */
function stem(next: Next, pascal = false): string {
  const n = between(next, 1, 3);
  const words = Array.from({ length: n }, () => pick(next, WORDS));
  const style = pascal ? 3 : (next() * 4) | 0;
  const cap = (w: string): string => w[0]!.toUpperCase() + w.slice(1);
  let name: string;
  if (style === 0) name = words.join('-');
  else if (style === 1) name = words.join('_');
  else if (style === 2) name = words[0]! + words.slice(1).map(cap).join('');
  else name = words.map(cap).join('');
  if (!pascal && next() < 0.12) name += `.${pick(next, ['service', 'controller', 'module', 'utils', 'types', 'schema'])}`;
  if (next() < 0.04) name = `_${name}`;
  return name;
}

/** 0..max nested source directories (more shallow than deep, as in real trees). */
function dirs(next: Next, max: number): string[] {
  const out: string[] = [];
  while (out.length < max && next() < 0.62) out.push(next() < 0.8 ? pick(next, DIRS) : stem(next));
  return out;
}

const join = (...parts: Array<string | string[]>): string => parts.flat().join('/');

/** One path of a kind drawn by weight; every path has 1–9 segments, most 3–7. */
function onePath(next: Next): string {
  const r = next();
  const pkg = `packages/${pick(next, PACKAGES)}`;
  if (r < 0.34) {
    // Package source: ts and tsx mostly, some js and declaration files; hooks/ holds useThing files.
    const ext = pick(next, SOURCE_EXTS);
    const d = dirs(next, 5);
    let base: string;
    if (d[d.length - 1] === 'hooks' && ext !== 'd.ts') base = `use${stem(next, true)}`;
    else if (next() < 0.08) base = 'index';
    else if (ext === 'tsx' && next() < 0.1) base = `${stem(next, true)}.stories`;
    else base = stem(next, ext === 'tsx' && next() < 0.8);
    return join(pkg, 'src', d, `${base}.${ext}`);
  }
  if (r < 0.46) {
    // Tests: next to the code, in __tests__, or in a test/ tree; some snapshots and fixtures.
    const t = next();
    const ext = next() < 0.7 ? 'ts' : 'tsx';
    if (t < 0.35) return join(pkg, 'src', dirs(next, 4), `${stem(next)}.${next() < 0.6 ? 'test' : 'spec'}.${ext}`);
    if (t < 0.6) return join(pkg, 'src', dirs(next, 3), '__tests__', `${stem(next)}.test.${ext}`);
    if (t < 0.75) return join(pkg, 'src', dirs(next, 3), '__tests__', '__snapshots__', `${stem(next)}.test.${ext}.snap`);
    if (t < 0.9) return join(pkg, 'test', dirs(next, 3), `${stem(next)}.${next() < 0.5 ? 'test.ts' : 'ts'}`);
    return join(pkg, 'test', 'fixtures', dirs(next, 2), `${stem(next)}.${pick(next, ['json', 'txt', 'md', 'yaml'])}`);
  }
  if (r < 0.55) {
    // Apps: Next.js-style routes, components, public assets, styles.
    const app = `apps/${pick(next, APPS)}`;
    const t = next();
    if (t < 0.4) {
      const routes = Array.from({ length: between(next, 0, 4) }, () => pick(next, ROUTES));
      return join(app, 'src', 'app', routes, pick(next, ['page.tsx', 'page.tsx', 'layout.tsx', 'route.ts', 'loading.tsx', 'error.tsx']));
    }
    if (t < 0.7) return join(app, 'src', dirs(next, 4), `${stem(next, next() < 0.6)}.${pick(next, ['tsx', 'ts', 'css', 'module.scss'])}`);
    return join(app, 'public', dirs(next, 2), `${stem(next)}.${pick(next, ASSET_EXTS)}`);
  }
  if (r < 0.66) {
    // Docs: sections with nested pages, mostly Markdown, some MDX and images.
    const section = `docs/${pick(next, DOC_SECTIONS)}`;
    const ext = next() < 0.7 ? 'md' : next() < 0.7 ? 'mdx' : pick(next, ['png', 'svg']);
    const file = next() < 0.06 ? 'README' : `${next() < 0.2 ? `${between(next, 1, 40)}-` : ''}${stem(next)}`;
    return join(section, dirs(next, 3), `${file}.${ext}`);
  }
  if (r < 0.74) {
    // Package assets, locales and styles.
    const t = next();
    if (t < 0.5) return join(pkg, next() < 0.5 ? 'assets' : 'src/assets', dirs(next, 2), `${stem(next)}.${pick(next, ASSET_EXTS)}`);
    if (t < 0.8) return join(pkg, 'src', 'i18n', pick(next, ['en', 'de', 'fr', 'ja', 'zh-CN', 'pt_BR']), `${stem(next)}.json`);
    return join(pkg, 'src', 'styles', dirs(next, 1), `${stem(next)}.${pick(next, ['css', 'scss'])}`);
  }
  if (r < 0.8) {
    // Configs at various depths.
    const t = next();
    if (t < 0.15) return pick(next, ROOT_FILES);
    if (t < 0.75) return join(pkg, pick(next, CONFIGS));
    if (t < 0.85) return join(pkg, '.storybook', pick(next, ['main.ts', 'preview.tsx', 'manager.js']));
    return join(`apps/${pick(next, APPS)}`, pick(next, CONFIGS));
  }
  if (r < 0.83) {
    // Dotfiles and dot directories: changesets pile up by the dozen, workflows, per-package tooling.
    const t = next();
    if (t < 0.35) return join('.changeset', `${pick(next, WORDS)}-${pick(next, WORDS)}-${pick(next, WORDS)}.md`);
    if (t < 0.55) return pick(next, DOT_FILES);
    if (t < 0.7) return join(pkg, '.storybook', `${stem(next)}.${pick(next, ['ts', 'tsx', 'js'])}`);
    if (t < 0.8) return join('.github', 'workflows', `${stem(next).replace(/[._]/g, '-')}.yml`);
    if (t < 0.9) return join(pkg, pick(next, ['.eslintrc.cjs', '.eslintrc.json', '.env.local', '.env.test', '.npmignore', '.prettierrc.json']));
    return join(`apps/${pick(next, APPS)}`, '.vscode', `${stem(next)}.json`);
  }
  if (r < 0.87) {
    // Services with SQL migrations, GraphQL schemas, Dockerfiles.
    const svc = `services/${pick(next, SERVICES)}`;
    const t = next();
    if (t < 0.45) return join(svc, 'db', 'migrations', `${20200101 + between(next, 0, 60000)}_${stem(next).replace(/[-.]/g, '_')}.sql`);
    if (t < 0.6) return join(svc, 'db', 'seeds', `${stem(next)}.sql`);
    if (t < 0.75) return join(svc, 'graphql', dirs(next, 2), `${stem(next)}.${next() < 0.7 ? 'graphql' : 'gql'}`);
    if (t < 0.85) return join(svc, pick(next, ['Dockerfile', 'Dockerfile.dev', 'README.md', 'package.json']));
    return join(svc, 'src', dirs(next, 4), `${stem(next)}.${pick(next, ['ts', 'py', 'go'])}`);
  }
  if (r < 0.95) {
    // Root src/ and lib/ of the workspace's own tooling.
    const root = next() < 0.65 ? 'src' : 'lib';
    const ext = root === 'lib' && next() < 0.6 ? 'js' : 'ts';
    return join(root, dirs(next, 6), `${next() < 0.1 ? 'index' : stem(next)}${next() < 0.1 ? '.test' : ''}.${ext}`);
  }
  if (r < 0.97) return join('scripts', dirs(next, 1), `${stem(next)}.${pick(next, ['sh', 'sh', 'mjs', 'py', 'ts'])}`);
  if (r < 0.985) return join('tools', dirs(next, 3), `${stem(next)}.${pick(next, ['ts', 'js', 'py', 'json'])}`);
  return join('infra', pick(next, ['terraform', 'k8s', 'helm']), dirs(next, 3), `${stem(next)}.${pick(next, ['tf', 'yaml', 'yml', 'tfvars'])}`);
}

/**
 * `count` distinct monorepo file paths from a fixed seed: packages, apps, docs, services, dotfiles,
 * assets and configs at depths 1–9, in a shuffled order (as a directory walk of many packages
 * would interleave them).
 */
export function monorepoPaths(count = 100_000, seed = 42): string[] {
  const next = random(seed);
  const seen = new Set<string>();
  const out: string[] = [];
  // The fixed dotfile and root lists are small, so drawing stops when `count` distinct paths exist.
  while (out.length < count) {
    const path = onePath(next);
    if (path.split('/').length > 9 || seen.has(path)) continue;
    seen.add(path);
    out.push(path);
  }
  return out;
}

/** Every `step`-th path: a subset with the same mix of kinds as the whole list. */
export function everyNth(paths: readonly string[], step: number): string[] {
  return paths.filter((_, i) => i % step === 0);
}

/**
 * The baseline's `which`: indices of the matchers that accept `path`, ascending. Lives here rather
 * than in glob.bench.ts so that cold-start.ts can use it without loading either library eagerly.
 */
export function matchingIndices(matchers: ReadonlyArray<(path: string) => boolean>, path: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < matchers.length; i++) if (matchers[i]!(path)) out.push(i);
  return out;
}
