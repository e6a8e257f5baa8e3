// examples/browser/ in headless Chromium (Debian's /usr/bin/chromium, driven by the pinned
// playwright-core devDependency), served over loopback HTTP so the page fetches the .wasm.

import { inject } from 'vitest';
import { runBrowserExample } from '../../bench/runtime-tools.js';
import { describeRuntime, ROOT, type Demo } from './support.js';

describeRuntime('Chromium', async () => {
  const { value, text } = await runBrowserExample(ROOT, inject('runtimeTools'), false);
  return { demo: value as Demo, text: `${text}\n` };
});
