// Resolving `import "…"` paths to files. Relative paths are resolved against the importing file's
// folder, with `.harn` added when missing; `std/…` paths resolve into a Harn checkout's stdlib when the
// workspace holds one (crates/harn-stdlib/src/stdlib or crates/harn-modules/src/stdlib).

import * as path from 'node:path';

export interface FileProbe {
  isFile(fsPath: string): boolean;
}

const STDLIB_FOLDERS = ['crates/harn-stdlib/src/stdlib', 'crates/harn-modules/src/stdlib'];

export function resolveImport(fromFile: string, importPath: string, workspaceRoots: readonly string[], probe: FileProbe): string | undefined {
  if (importPath.length === 0 || importPath.includes('\0')) return undefined;
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
  for (const candidate of candidates) {
    // Never follow an import out of the workspace roots (or, with no roots, out of the importing folder tree).
    const allowed = workspaceRoots.length === 0 || workspaceRoots.some((root) => isInside(candidate, root));
    if (allowed && probe.isFile(candidate)) return candidate;
  }
  return undefined;
}

export function isInside(candidate: string, root: string): boolean {
  const relative = path.relative(root, candidate);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}
