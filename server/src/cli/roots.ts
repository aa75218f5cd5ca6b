// Which root a path belongs to when no --root is given: the nearest folder at or above it that holds the
// loud-boundary registry, searched up to the top of its git repository (a registry above a repository
// belongs to another tree), else that top, else the current folder.

import * as fs from 'node:fs';
import * as path from 'node:path';

export type RootReason = 'option' | 'registry' | 'git' | 'cwd';

export interface FoundRoot {
  /** Absolute. */
  root: string;
  /** --root; a folder holding the registry; the top of a git repository without one; the current folder. */
  reason: RootReason;
}

/** Anything at the path counts (a registry that is a FIFO is still the tree's registry: the gate reports it). */
export function present(file: string): boolean {
  try {
    fs.lstatSync(file);
    return true;
  } catch {
    return false;
  }
}

export class RootFinder {
  /** The answer for every folder asked about or passed through, so a tree of files costs one walk per folder. */
  private readonly byFolder = new Map<string, FoundRoot>();

  constructor(
    private readonly cwd: string,
    private readonly registryPath: string,
  ) {}

  /** The root of an absolute folder. */
  rootOf(folder: string): FoundRoot {
    const passed: string[] = [];
    let found: FoundRoot | undefined;
    for (let dir = folder; ;) {
      found = this.byFolder.get(dir);
      if (found !== undefined) break;
      passed.push(dir);
      if (present(path.join(dir, this.registryPath))) {
        found = { root: dir, reason: 'registry' };
        break;
      }
      if (present(path.join(dir, '.git'))) {
        found = { root: dir, reason: 'git' };
        break;
      }
      const parent = path.dirname(dir);
      if (parent === dir) {
        found = { root: this.cwd, reason: 'cwd' };
        break;
      }
      dir = parent;
    }
    for (const dir of passed) this.byFolder.set(dir, found);
    return found;
  }
}
