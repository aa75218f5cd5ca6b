// A workspace index over an in-memory file map (the pure index modules' tests and benchmarks), and a way to find
// the offset of a marked name in a file.

import { HarnAnalysis } from '../../server/src/harn/analysis';
import { indexFile } from '../../server/src/harn/index/fileIndex';
import { WorkspaceIndex } from '../../server/src/harn/index/workspaceIndex';
import { resolveImport } from '../../server/src/harn/modules';

export function memoryIndex(
  files: Readonly<Record<string, string>>,
  roots: string[] = ['/ws'],
): { index: WorkspaceIndex; analysis: (file: string) => HarnAnalysis } {
  const index = new WorkspaceIndex((from, importPath) =>
    resolveImport(from, importPath, roots, { isFile: (p) => Object.hasOwn(files, p), realpath: (p) => p }),
  );
  const analyses = new Map<string, HarnAnalysis>();
  for (const [file, text] of Object.entries(files)) {
    const analysis = new HarnAnalysis(text);
    analyses.set(file, analysis);
    index.set(indexFile(file, analysis));
  }
  return {
    index,
    analysis: (file) => {
      const found = analyses.get(file);
      if (!found) throw new Error(`no file ${file}`);
      return found;
    },
  };
}

/** The offset of the `nth` (0-based) occurrence of `needle` in `text`, plus `within` characters into it. */
export function offsetOf(text: string, needle: string, nth = 0, within = 0): number {
  let at = -1;
  for (let i = 0; i <= nth; i++) {
    at = text.indexOf(needle, at + 1);
    if (at < 0) throw new Error(`'${needle}' #${nth} not found`);
  }
  return at + within;
}
