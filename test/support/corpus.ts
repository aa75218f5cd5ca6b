// Locates the shared Harn corpus (spec §4). It lives in ../shared beside the repository in every
// session and in CI, but not in a user's clone: tests that read it must skip when it is absent.

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** The repository root: the nearest folder above this file (or the bundle built from it) with package.json. */
export const repoRoot = findRepoRoot(__dirname);

function findRepoRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) return path.resolve(__dirname, '..', '..');
  }
}

export const corpusRoot = path.resolve(repoRoot, '..', 'shared', 'corpus');

/** Undefined when the corpus is present; otherwise the reason to pass as `{ skip }` to node:test. */
export const corpusSkip: string | undefined = existsSync(corpusRoot)
  ? undefined
  : `Harn corpus not found at ${corpusRoot} (it sits beside the repository in sessions and CI, not in a plain clone)`;

/** Every `.harn` file under the corpus, as paths relative to corpusRoot with `/` separators, sorted. */
export function corpusFiles(): string[] {
  if (corpusSkip) return [];
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (name.endsWith('.harn')) out.push(path.relative(corpusRoot, full).split(path.sep).join('/'));
    }
  };
  walk(corpusRoot);
  return out;
}

export function readCorpus(relative: string): string {
  return readFileSync(path.join(corpusRoot, relative), 'utf8');
}

/** The sibling `.error` file's text (spec §4.2), or undefined when there is none. */
export function readExpectedError(relative: string): string | undefined {
  const errorPath = path.join(corpusRoot, relative.replace(/\.harn$/, '.error'));
  return existsSync(errorPath) ? readFileSync(errorPath, 'utf8') : undefined;
}
