// $DSH_HOME resolution, `~` expansion and the display form.

import { describe, expect, it } from 'vitest';
import { expandHome, homeDisplayPath, resolveDshHome } from '../../src/host/index.js';

const base = { homedir: '/home/u', processCwd: '/work/proc' };

describe('expandHome', () => {
  it('X-10 expands ~, ~/x and ~\\x against the OS home', () => {
    expect(expandHome('~', '/home/u', '/p')).toBe('/home/u');
    expect(expandHome('~/a/b', '/home/u', '/p')).toBe('/home/u/a/b');
    expect(expandHome('~\\a', '/home/u', '/p')).toBe('/home/u/a');
  });

  it('X-10 resolves relative paths against the process cwd and normalizes', () => {
    expect(expandHome('rel/../x', '/home/u', '/work/proc')).toBe('/work/proc/x');
    expect(expandHome('/abs//y/./z/', '/home/u', '/p')).toBe('/abs/y/z');
  });

  it('X-10 leaves ~user and a ~ in the middle alone', () => {
    expect(expandHome('~other/x', '/home/u', '/p')).toBe('/p/~other/x');
    expect(expandHome('/a/~/b', '/home/u', '/p')).toBe('/a/~/b');
  });
});

describe('resolveDshHome', () => {
  it('X-10 default is ~/.dsh, displayed as ~/.dsh', () => {
    expect(resolveDshHome(undefined, { ...base, env: {} })).toEqual({ path: '/home/u/.dsh', display: '~/.dsh' });
  });

  it('X-10 a non-blank DSH_HOME is next, displayed as $DSH_HOME', () => {
    expect(resolveDshHome(undefined, { ...base, env: { DSH_HOME: '/srv/dsh' } })).toEqual({ path: '/srv/dsh', display: '$DSH_HOME' });
    expect(resolveDshHome(undefined, { ...base, env: { DSH_HOME: '~/custom' } })).toEqual({ path: '/home/u/custom', display: '$DSH_HOME' });
  });

  it('X-10 a blank or whitespace DSH_HOME counts as unset', () => {
    for (const blank of ['', '   ', '\t\n']) {
      expect(resolveDshHome(undefined, { ...base, env: { DSH_HOME: blank } })).toEqual({ path: '/home/u/.dsh', display: '~/.dsh' });
    }
  });

  it('X-10 a configured value wins over DSH_HOME', () => {
    expect(resolveDshHome('~/cfg', { ...base, env: { DSH_HOME: '/srv/dsh' } })).toEqual({ path: '/home/u/cfg', display: '$DSH_HOME' });
  });

  it('X-10 the display is ~/.dsh whenever the resolved home equals the default, however it was spelled', () => {
    expect(resolveDshHome('/home/u/.dsh/', { ...base, env: {} }).display).toBe('~/.dsh');
    expect(resolveDshHome(undefined, { ...base, env: { DSH_HOME: '/home/u/x/../.dsh' } })).toEqual({ path: '/home/u/.dsh', display: '~/.dsh' });
  });

  it('X-10 a relative configured home resolves against the process cwd, not a session cwd', () => {
    expect(resolveDshHome('dsh-home', { ...base, env: {} })).toEqual({ path: '/work/proc/dsh-home', display: '$DSH_HOME' });
  });

  it('X-10 homeDisplayPath gives the model-facing path of a file under the home', () => {
    expect(homeDisplayPath({ path: '/home/u/.dsh', display: '~/.dsh' }, 'AGENTS.md')).toBe('~/.dsh/AGENTS.md');
    expect(homeDisplayPath({ path: '/srv', display: '$DSH_HOME' }, 'AGENTS.md')).toBe('$DSH_HOME/AGENTS.md');
  });
});
