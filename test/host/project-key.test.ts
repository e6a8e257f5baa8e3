// AM-06: the per-project folder key (DSH's session-directory escaping).

import { describe, expect, it } from 'vitest';
import { projectKey } from '../../src/host/index.js';

describe('projectKey', () => {
  it('AM-06 the seed example', () => {
    expect(projectKey('/Users/areslee/Documents/dev/active/my-project')).toBe('--Users-areslee-Documents-dev-active-my-project--');
  });

  it('AM-06 each run of /, \\ or : becomes one -', () => {
    expect(projectKey('C:\\Users\\me\\proj')).toBe('--C-Users-me-proj--');
    expect(projectKey('/a//b/:/c')).toBe('--a-b-c--');
  });

  it('AM-06 keeps [A-Za-z0-9._-] and escapes every other code unit, ~ included, as ~XXXX', () => {
    expect(projectKey('/my proj/a~b')).toBe('--my~0020proj-a~007Eb--');
    expect(projectKey('/项目')).toBe('--~9879~76EE--');
    expect(projectKey('/😀')).toBe('--~D83D~DE00--');
    expect(projectKey('/x.y_z-1')).toBe('--x.y_z-1--');
  });

  it('AM-06 strips leading -, and an empty slug becomes root', () => {
    expect(projectKey('/')).toBe('--root--');
    expect(projectKey('-/-a')).toBe('--a--');
  });

  it('AM-06 cuts the slug to 251 code units', () => {
    const key = projectKey(`/${'a'.repeat(400)}`);
    expect(key).toBe(`--${'a'.repeat(251)}--`);
    expect(key.length).toBe(255);
  });

  it('AM-06 an empty input is an error', () => {
    expect(() => projectKey('')).toThrow(new RangeError('projectKey: projectRoot must not be empty'));
  });
});
