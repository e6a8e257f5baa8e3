// A repository walk that honours .gitignore files (each applies below its directory, as git reads
// them, with the `ignore` package doing the pattern semantics) and never enters `.git`.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ignore, { type Ignore } from 'ignore';

/** Every kept file, as a path relative to the root with `/` separators, in walk order. */
export interface Walk {
  readonly files: string[];
  readonly directories: number;
  readonly ignored: number;
}

/** Walks `root`; `onFile` is called every 1,000 files (for progress). */
export function walkRepository(root: string, onProgress?: (files: number) => void): Walk {
  const files: string[] = [];
  let directories = 0;
  let ignored = 0;
  const visit = (dir: string, rel: string, rules: readonly { base: string; ig: Ignore }[]): void => {
    directories++;
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return; // an unreadable directory is skipped, as git would fail to list it
    }
    let own = rules;
    if (entries.some((e) => e.name === '.gitignore' && e.isFile())) {
      try {
        own = [...rules, { base: rel, ig: ignore().add(readFileSync(join(dir, '.gitignore'), 'utf8')) }];
      } catch {
        // unreadable .gitignore: its rules are not applied
      }
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (entry.name === '.git') continue;
      const path = rel === '' ? entry.name : `${rel}/${entry.name}`;
      const isDir = entry.isDirectory();
      if (own.some(({ base, ig }) => ig.ignores((base === '' ? path : path.slice(base.length + 1)) + (isDir ? '/' : '')))) {
        ignored++;
        continue;
      }
      if (isDir) visit(join(dir, entry.name), path, own);
      else if (entry.isFile()) {
        files.push(path);
        if (files.length % 1000 === 0) onProgress?.(files.length);
      }
    }
  };
  visit(root, '', []);
  return { files, directories, ignored };
}
