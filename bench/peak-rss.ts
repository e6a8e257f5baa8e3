// Loaded with `node --import ./build/bench/peak-rss.js …` by million.ts: when the process exits, writes
// its peak resident set size (process.resourceUsage().maxRSS, KiB) and its wall time since start as
// JSON to the file named by DSH_BENCH_PEAK_RSS_FILE.

import { writeFileSync } from 'node:fs';

const file = process.env.DSH_BENCH_PEAK_RSS_FILE;
if (file !== undefined && file !== '') {
  process.on('exit', () => {
    writeFileSync(file, JSON.stringify({ maxRssKiB: process.resourceUsage().maxRSS, uptimeMs: process.uptime() * 1000 }));
  });
}
