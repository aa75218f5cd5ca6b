// Lists a folder's files the way git sees untracked-plus-tracked files: every `.gitignore` on the way
// down (deeper files override shallower ones, the last matching line wins, `!` re-includes) and
// `.git/info/exclude` apply; an ignored folder is never entered, so nothing inside it can be
// re-included, as in git. `.git` itself and symbolic links are skipped.

import * as fs from 'node:fs';
import * as path from 'node:path';
import ignore, { Ignore } from 'ignore';
import { readFileTextSync } from './files';

interface IgnoreLevel {
  /** Folder of the .gitignore, relative to the walk root, posix, '' for the root. */
  base: string;
  rules: Ignore;
}

export interface WalkOptions {
  /** Called with the root-relative posix path of each file; only files it accepts are returned. */
  accept?: (relativePath: string) => boolean;
  /**
   * Called with the root-relative posix path of each folder that is not ignored; a folder it refuses is
   * not entered. Only a shortcut: it must refuse only folders that hold nothing `accept` would take.
   */
  enter?: (relativePath: string) => boolean;
}

export function walkFiles(root: string, options: WalkOptions = {}): string[] {
  const out: string[] = [];
  const rootLevel = readIgnoreFile(path.join(root, '.gitignore'), '');
  const exclude = readIgnoreFile(path.join(root, '.git', 'info', 'exclude'), '');
  const levels: IgnoreLevel[] = [];
  if (exclude) levels.push(exclude);
  if (rootLevel) levels.push(rootLevel);
  visit(root, '', levels, options, out);
  return out.sort();
}

/**
 * Whether one root-relative posix path is one walkFiles would not list: inside `.git`, under an ignored folder, or
 * ignored itself (a file created later is judged without walking the tree: only the `.gitignore`s on its way are read).
 */
export function isPathIgnored(root: string, relativePath: string): boolean {
  const parts = relativePath.split('/');
  if (parts.includes('.git')) return true;
  const levels: IgnoreLevel[] = [];
  const exclude = readIgnoreFile(path.join(root, '.git', 'info', 'exclude'), '');
  if (exclude) levels.push(exclude);
  for (let depth = 0; depth < parts.length; depth++) {
    const base = parts.slice(0, depth).join('/');
    if (depth > 0 && isIgnored(levels, base, true)) return true;
    const own = readIgnoreFile(path.join(root, ...parts.slice(0, depth), '.gitignore'), base);
    if (own) levels.push(own);
  }
  return isIgnored(levels, relativePath, false);
}

function readIgnoreFile(file: string, base: string): IgnoreLevel | undefined {
  // Only a regular file is read: a `.gitignore` that is a FIFO or a folder is no ignore file (git skips it too).
  const read = readFileTextSync(file);
  if (!read.ok) return undefined;
  const text = read.text;
  // A file of comments and blank lines only (git's default .git/info/exclude) ignores nothing: skip it.
  if (text.split('\n').every((line) => line.startsWith('#') || /^ *\r?$/.test(line))) return undefined;
  return { base, rules: ignore({ allowRelativePaths: true }).add(text) };
}

export function isIgnored(levels: readonly IgnoreLevel[], relativePath: string, isDirectory: boolean): boolean {
  let ignored = false;
  for (const level of levels) {
    const local = level.base === '' ? relativePath : relativePath.slice(level.base.length + 1);
    const result = level.rules.test(isDirectory ? local + '/' : local);
    if (result.ignored) ignored = true;
    else if (result.unignored) ignored = false;
  }
  return ignored;
}

function visit(folder: string, relative: string, levels: IgnoreLevel[], options: WalkOptions, out: string[]): void {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(folder, { withFileTypes: true });
  } catch {
    return;
  }
  // Only a folder that lists a `.gitignore` can have one (no failed read, and its exception, elsewhere).
  const own = relative === '' || !entries.some((e) => e.name === '.gitignore') ? undefined : readIgnoreFile(path.join(folder, '.gitignore'), relative);
  const active = own ? [...levels, own] : levels;
  for (const entry of entries) {
    if (entry.isSymbolicLink()) continue;
    const rel = relative === '' ? entry.name : `${relative}/${entry.name}`;
    if (entry.isDirectory()) {
      if (entry.name === '.git') continue;
      if (options.enter && !options.enter(rel)) continue;
      if (isIgnored(active, rel, true)) continue;
      visit(path.join(folder, entry.name), rel, active, options, out);
    } else if (entry.isFile()) {
      if (isIgnored(active, rel, false)) continue;
      if (!options.accept || options.accept(rel)) out.push(rel);
    }
  }
}
