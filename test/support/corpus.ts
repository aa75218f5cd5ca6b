// Locates the shared Harn corpus (spec §4). It lives in ../shared beside the repository in every
// session and in CI, but not in a user's clone: tests that read it skip when it is absent, except
// with CI=true (CI always has it): there they run and fail, saying that it is missing.

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

/** CI=true (or 1): ../shared must be there, so a test that needs it fails instead of skipping. */
export const sharedRequired = /^(true|1)$/i.test(process.env.CI ?? '');

/** Why the corpus cannot be read, or undefined when it is present. */
export const corpusMissing: string | undefined = existsSync(corpusRoot)
  ? undefined
  : `Harn corpus not found at ${corpusRoot} (it sits beside the repository in sessions and CI, not in a plain clone)`;

/**
 * The reason to pass as `{ skip }` to node:test when the corpus is absent; undefined when it is present,
 * and also when it is absent under CI=true, so that the tests needing it run and fail (see requireCorpus).
 */
export const corpusSkip: string | undefined = sharedRequired ? undefined : corpusMissing;

/** Throws, saying why, when the corpus is absent; every reader below calls it first. */
export function requireCorpus(): void {
  if (corpusMissing) throw new Error(sharedRequired ? `${corpusMissing}; CI=true, so a test that needs ../shared fails instead of skipping` : corpusMissing);
}

/** The absolute path of a corpus file given relative to corpusRoot (throws when the corpus is absent). */
export function corpusPath(relative: string): string {
  requireCorpus();
  return path.join(corpusRoot, relative);
}

/**
 * Every `.harn` file under the corpus, as paths relative to corpusRoot with `/` separators, sorted; empty
 * when the corpus is absent and tests may skip (under CI=true this throws instead).
 */
export function corpusFiles(): string[] {
  if (corpusSkip) return [];
  requireCorpus();
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
  return readFileSync(corpusPath(relative), 'utf8');
}

/** The sibling `.error` file's text (spec §4.2), or undefined when there is none. */
export function readExpectedError(relative: string): string | undefined {
  const errorPath = corpusPath(relative.replace(/\.harn$/, '.error'));
  return existsSync(errorPath) ? readFileSync(errorPath, 'utf8') : undefined;
}
