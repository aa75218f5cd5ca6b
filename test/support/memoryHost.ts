// A ModuleHost over an in-memory file map, for the pure .harn feature modules.

import { HarnAnalysis } from '../../server/src/harn/analysis';
import { resolveImport } from '../../server/src/harn/modules';
import { ModuleHost } from '../../server/src/harn/resolve';

/** Resolves imports among `files` (within `roots`) and analyses each file once. */
export function memoryHost(files: Readonly<Record<string, string>>, roots: string[] = ['/ws']): ModuleHost {
  const cache = new Map<string, HarnAnalysis>();
  return {
    resolveImport: (from, importPath) => resolveImport(from, importPath, roots, { isFile: (p) => Object.hasOwn(files, p), realpath: (p) => p }),
    load: (file) => {
      const text = files[file];
      if (text === undefined) return undefined;
      let analysis = cache.get(file);
      if (!analysis) cache.set(file, (analysis = new HarnAnalysis(text)));
      return analysis;
    },
  };
}
