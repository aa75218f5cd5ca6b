// Whether a file lies inside the workspace folders, compared as real paths (every symbolic link resolved), as the
// gate, run records and imports compare theirs: what the server reads on a client's request must be inside.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { isInside } from '../harn/modules';

/** The path with every symbolic link resolved, or undefined when it does not exist or cannot be read. */
export function realPathOf(p: string): string | undefined {
  try {
    return fs.realpathSync.native(p);
  } catch {
    return undefined;
  }
}

/**
 * Why `file` may not be read on request, or undefined when it lies inside a workspace folder. A file that does not
 * exist is judged by its path (reading it then reports it missing); one that exists by its real path, so that a
 * symbolic link inside a folder cannot lead out of it.
 */
export function workspaceRefusal(file: string, roots: readonly string[], realpath: (p: string) => string | undefined = realPathOf): string | undefined {
  const shown = path.basename(file);
  if (roots.length === 0) return `${shown} is not read: no workspace folder is open, and only files inside one are read from disk.`;
  const resolved = path.resolve(file);
  const real = realpath(resolved) ?? resolved;
  const realRoots = roots.map((root) => realpath(root) ?? path.resolve(root));
  if (realRoots.some((root) => isInside(real, root))) return undefined;
  const byPath = roots.some((root) => isInside(resolved, path.resolve(root)));
  return byPath
    ? `${shown} is not read: it is a symbolic link that leads out of the workspace folders.`
    : `${shown} is not read: it is outside the workspace folders, and only files inside them are read from disk.`;
}
