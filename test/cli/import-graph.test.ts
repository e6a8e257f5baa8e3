// Issue 31: the CLI's production paths do not import the test kit. What hosts the plugins offline is
// src/offline-host; src/testing builds on it, not the other way round. Checked on the built output
// (what users install), by letting esbuild follow every static and dynamic import from the bin.

import { join } from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../support/cli.js';

/** Every file of `lib/` the entry reaches, relative to the package root. */
async function reached(entry: string): Promise<string[]> {
  const result = await build({
    entryPoints: [join(packageRoot, entry)], bundle: true, write: false, metafile: true, platform: 'node', format: 'esm',
    packages: 'external', logLevel: 'silent', absWorkingDir: packageRoot,
  });
  return Object.keys(result.metafile.inputs).filter((file) => file.startsWith('lib/'));
}

describe('issue 31: the built CLI does not reach lib/testing', () => {
  it('lib/cli/index.js reaches lib/offline-host and the plugins, and nothing under lib/testing', async () => {
    const files = await reached('lib/cli/index.js');
    expect(files).toContain('lib/offline-host/host.js');
    expect(files).toContain('lib/plugins/workspace-context/index.js');
    expect(files.filter((file) => file.startsWith('lib/testing/'))).toEqual([]);
  });

  it('the offline host does not import the test kit either (the test kit builds on it)', async () => {
    expect((await reached('lib/offline-host/index.js')).filter((file) => file.startsWith('lib/testing/'))).toEqual([]);
    expect(await reached('lib/testing/index.js')).toContain('lib/offline-host/host.js');
  });
});
