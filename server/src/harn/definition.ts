// Go to definition: the declaration a name refers to, in this file or across imports; an import path
// goes to the imported file.

import { HarnAnalysis } from './analysis';
import { ModuleHost, targetAt } from './resolve';

export interface DefinitionLocation {
  file: string;
  /** The target file's analysis, to turn offsets into positions; undefined for a whole-file target. */
  analysis: HarnAnalysis | undefined;
  start: number;
  end: number;
  /** The declaration's full extent (for LocationLink targetRange). */
  fullStart: number;
  fullEnd: number;
  originStart: number;
  originEnd: number;
}

export function definitionAt(analysis: HarnAnalysis, file: string, offset: number, host: ModuleHost): DefinitionLocation | undefined {
  const target = targetAt(analysis, file, offset, host);
  if (!target) return undefined;
  if (target.kind === 'import') {
    if (!target.resolved) return undefined;
    return { file: target.resolved, analysis: undefined, start: 0, end: 0, fullStart: 0, fullEnd: 0, originStart: target.nameStart, originEnd: target.nameEnd };
  }
  if (target.kind !== 'binding') return undefined;
  const { located } = target;
  const decl = located.binding.declaration;
  return {
    file: located.file,
    analysis: located.analysis,
    start: located.binding.nameNode.start,
    end: located.binding.nameNode.end,
    fullStart: decl.start,
    fullEnd: decl.end,
    originStart: target.nameStart,
    originEnd: target.nameEnd,
  };
}
