// Configuration (WC-02, WC-04..WC-09, WC-45, X-16): what DSH's loader accepts, rejects (naming the
// key) and how the accepted value is normalized.

import { describe, expect, it } from 'vitest';
import { baselineIdentity, resolveConfig, type Config } from '../../../src/plugins/workspace-context/config.js';
import { createTestHost } from '../../../src/testing/index.js';
import { identity, workspaceContext } from '../../support/workspace-context.js';

const environment = { env: {}, homedir: '/home/user', processCwd: '/work' };
const mountWith = (config: unknown) => createTestHost({ cwd: '/repo' }).use(workspaceContext, config);

describe('Config (WC-04..WC-07, X-16)', () => {
  it('WC-04 WC-06 WC-07 fills the documented defaults', () => {
    expect(workspaceContext.Config({ maxBytes: 65536 })).toEqual({
      maxBytes: 65536,
      projectRootMarkers: ['.git'],
      maxSourceBytes: 1048576,
      instructionFileCandidates: ['AGENTS.md', 'CLAUDE.md'],
      localInstructionFileCandidates: ['AGENTS.local.md', 'CLAUDE.local.md'],
      allowedLinkTargets: [],
    });
  });

  it('WC-05 maxBytes is required and must be a number; the error names the key', () => {
    expect(() => mountWith({})).toThrow('invalid config:\n  - $.maxBytes missing required value (at maxBytes)');
    expect(() => mountWith({ maxBytes: '64k' })).toThrow('invalid config:\n  - $.maxBytes expected number but got 64k (at maxBytes)');
  });

  it('WC-06 maxSourceBytes must be a positive integer', () => {
    expect(() => mountWith({ maxBytes: 1, maxSourceBytes: 0 })).toThrow('$.maxSourceBytes expected number >= 1 but got 0 (at maxSourceBytes)');
    expect(() => mountWith({ maxBytes: 1, maxSourceBytes: 1.5 })).toThrow('$.maxSourceBytes expected number multiple of 1 but got 1.5 (at maxSourceBytes)');
    expect(() => mountWith({ maxBytes: 1, maxSourceBytes: 'big' })).toThrow('(at maxSourceBytes)');
  });

  it('WC-07 [R] dshHome must be a string and the lists arrays of strings', () => {
    expect(() => mountWith({ maxBytes: 1, dshHome: 3 })).toThrow('$.dshHome expected string but got 3 (at dshHome)');
    expect(() => mountWith({ maxBytes: 1, projectRootMarkers: '.git' })).toThrow('(at projectRootMarkers)');
    expect(() => mountWith({ maxBytes: 1, instructionFileCandidates: ['AGENTS.md', 7] })).toThrow('(at instructionFileCandidates.1)');
    expect(() => mountWith({ maxBytes: 1, localInstructionFileCandidates: {} })).toThrow('(at localInstructionFileCandidates)');
  });

  it('WC-02 WC-05 the deployed value 65536 and disabling values are accepted at load', () => {
    for (const maxBytes of [65536, 0, -5, Number.NaN, Number.POSITIVE_INFINITY]) expect(() => mountWith({ maxBytes })).not.toThrow();
  });

  it('the module has no inject: the fs provider is optional (WC-03)', () => {
    expect('inject' in workspaceContext).toBe(false);
  });
});

describe('resolveConfig (WC-05, WC-08, WC-09)', () => {
  const resolve = (config: Partial<Config>, env: Record<string, string> = {}) => resolveConfig({ maxBytes: 100, ...config }, { ...environment, env });

  it('WC-08 drops empty, dot and path-like candidates, keeps order and repeats, probes each name once', () => {
    const r = resolve({ instructionFileCandidates: ['A.md', '', '.', '..', 'x/y.md', 'x\\y.md', 'B.md', 'A.md'], localInstructionFileCandidates: ['B.md', 'L.md'] });
    expect([r.instructionFileCandidates, r.localInstructionFileCandidates, r.candidateNames]).toEqual([
      ['A.md', 'B.md', 'A.md'], ['B.md', 'L.md'], ['A.md', 'B.md', 'L.md'],
    ]);
  });

  it('WC-05 only a positive finite maxBytes enables loading', () => {
    expect([1, 0, -1, Number.NaN, Number.POSITIVE_INFINITY].map((maxBytes) => resolve({ maxBytes }).enabled)).toEqual([true, false, false, false, false]);
  });

  it('WC-09 X-10 home: configured, then a non-blank DSH_HOME, then ~/.dsh; ~ forms expand', () => {
    expect(resolve({}).dshHome).toEqual({ path: '/home/user/.dsh', display: '~/.dsh' });
    expect(resolve({}, { DSH_HOME: '   ' }).dshHome).toEqual({ path: '/home/user/.dsh', display: '~/.dsh' });
    expect(resolve({}, { DSH_HOME: '/opt/dsh' }).dshHome).toEqual({ path: '/opt/dsh', display: '$DSH_HOME' });
    expect(resolve({ dshHome: '~/x' }, { DSH_HOME: '/opt/dsh' }).dshHome).toEqual({ path: '/home/user/x', display: '$DSH_HOME' });
    expect(resolve({ dshHome: 'rel' }).dshHome).toEqual({ path: '/work/rel', display: '$DSH_HOME' });
    expect(resolve({ dshHome: '~' }).dshHome.path).toBe('/home/user');
  });

  it('WC-45 the identity is DSH\'s JSON, root relative to the cwd, without the home', () => {
    const r = resolve({ maxBytes: 65536, dshHome: '/somewhere' });
    expect(baselineIdentity(r, '/repo/a/b', '/repo')).toBe(identity('../..'));
    expect(baselineIdentity(r, '/repo', '/repo')).toBe(
      '{"projectRoot":"","projectRootMarkers":[".git"],"maxBytes":65536,"maxSourceBytes":1048576,"instructionFileCandidates":["AGENTS.md","CLAUDE.md"],"localInstructionFileCandidates":["AGENTS.local.md","CLAUDE.local.md"]}',
    );
  });
});
