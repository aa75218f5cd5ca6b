// Resolving `import "…"` paths to files. Relative paths are resolved against the importing file's
// folder, with `.harn` added when missing; `std/…` paths resolve into a Harn checkout's stdlib when the
// workspace holds one (crates/harn-stdlib/src/stdlib or crates/harn-modules/src/stdlib).
//
// An import never leads out of the workspace roots: not by its path (`../…`, absolute), and not through a
// symbolic link, since the target's real path (every link resolved) must lie inside a root's real path too, as
// the gate and run records check theirs. With no root at all (a lone file), paths are not restricted.

import * as path from 'node:path';

export interface FileProbe {
  isFile(fsPath: string): boolean;
  /** The path with every symbolic link resolved, or undefined when it cannot be resolved. */
  realpath(fsPath: string): string | undefined;
}

/** Where an import leads: a file, a file refused because its real path is outside every root, or nowhere. */
export type ImportResolution = { kind: 'found'; file: string } | { kind: 'refused'; file: string; reason: string } | { kind: 'missing' };

const STDLIB_FOLDERS = ['crates/harn-stdlib/src/stdlib', 'crates/harn-modules/src/stdlib'];

export function resolveImportPath(fromFile: string, importPath: string, workspaceRoots: readonly string[], probe: FileProbe): ImportResolution {
  if (importPath.length === 0 || importPath.includes('\0')) return { kind: 'missing' };
  const candidates: string[] = [];
  const withExtension = (p: string): string[] => (p.endsWith('.harn') ? [p] : [p + '.harn', path.join(p, 'mod.harn')]);
  if (importPath.startsWith('std/')) {
    const rest = importPath.slice(4);
    for (const root of workspaceRoots) {
      for (const folder of STDLIB_FOLDERS) candidates.push(...withExtension(path.join(root, folder, rest)));
    }
  } else if (!path.isAbsolute(importPath)) {
    candidates.push(...withExtension(path.resolve(path.dirname(fromFile), importPath)));
  }
  let realRoots: string[] | undefined;
  for (const candidate of candidates) {
    // Never follow an import out of the workspace roots, by its path or by a symbolic link on the way.
    if (workspaceRoots.length === 0) {
      if (probe.isFile(candidate)) return { kind: 'found', file: candidate };
      continue;
    }
    if (!workspaceRoots.some((root) => isInside(candidate, root)) || !probe.isFile(candidate)) continue;
    realRoots ??= workspaceRoots.map((root) => probe.realpath(root) ?? root);
    const real = probe.realpath(candidate);
    // The first existing candidate is the module Harn would load: a refused one is not skipped for the next.
    if (real === undefined || !realRoots.some((root) => isInside(real, root))) {
      return { kind: 'refused', file: candidate, reason: 'is a symbolic link that leads out of the workspace' };
    }
    return { kind: 'found', file: candidate };
  }
  return { kind: 'missing' };
}

/** The file an import path refers to, or undefined when there is none inside the workspace. */
export function resolveImport(fromFile: string, importPath: string, workspaceRoots: readonly string[], probe: FileProbe): string | undefined {
  const resolution = resolveImportPath(fromFile, importPath, workspaceRoots, probe);
  return resolution.kind === 'found' ? resolution.file : undefined;
}

export function isInside(candidate: string, root: string): boolean {
  const relative = path.relative(root, candidate);
  return relative === '' || (relative !== '..' && !relative.startsWith('..' + path.sep) && !path.isAbsolute(relative));
}
