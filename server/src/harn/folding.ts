// Folding ranges for Harn, from tokens rather than the AST so they stay right while a file is broken:
// bracket pairs spanning lines, multi-line strings, block comments, runs of line comments and of imports.

import { HarnAnalysis } from './analysis';
import { TokenKind } from './tokens';

export interface Fold {
  startLine: number;
  endLine: number;
  kind?: 'comment' | 'imports' | 'region';
}

const OPENERS = new Set(['{', '[', '(']);
const CLOSERS: ReadonlyMap<string, string> = new Map([
  ['}', '{'],
  [']', '['],
  [')', '('],
]);

export function foldingRanges(analysis: HarnAnalysis): Fold[] {
  const { lineIndex } = analysis;
  const folds: Fold[] = [];
  const stack: { value: string; line: number }[] = [];
  const addFold = (startLine: number, endLine: number, kind?: Fold['kind']): void => {
    if (endLine > startLine) folds.push(kind ? { startLine, endLine, kind } : { startLine, endLine });
  };

  for (const t of analysis.parsed.tokens) {
    if (t.kind === TokenKind.Punct) {
      if (OPENERS.has(t.value)) stack.push({ value: t.value, line: lineIndex.lineAt(t.start) });
      else if (CLOSERS.has(t.value)) {
        // Pop to the matching opener; unmatched closers are ignored.
        const opener = CLOSERS.get(t.value);
        let i = stack.length - 1;
        while (i >= 0 && stack[i]?.value !== opener) i--;
        const open = stack[i];
        if (!open) continue;
        stack.length = i;
        // Keep the closing bracket's line visible.
        addFold(open.line, lineIndex.lineAt(t.start) - 1);
      }
    } else if (t.kind === TokenKind.String && t.triple) {
      addFold(lineIndex.lineAt(t.start), lineIndex.lineAt(t.end) - 1);
    }
  }

  let runStart = -1;
  let runEnd = -1;
  for (const c of analysis.parsed.comments) {
    const startLine = lineIndex.lineAt(c.start);
    const endLine = lineIndex.lineAt(c.end);
    if (c.kind === 'block' || c.kind === 'doc') {
      addFold(startLine, endLine, 'comment');
      continue;
    }
    if (startLine === runEnd + 1 && runStart >= 0 && lineIndex.lineText(startLine).trimStart().startsWith('//')) {
      runEnd = startLine;
      continue;
    }
    if (runStart >= 0) addFold(runStart, runEnd, 'comment');
    // Only a comment alone on its line starts a run (not one trailing code).
    const alone = lineIndex.lineText(startLine).trimStart().startsWith('//');
    runStart = alone ? startLine : -1;
    runEnd = alone ? startLine : -1;
  }
  if (runStart >= 0) addFold(runStart, runEnd, 'comment');

  let importStart = -1;
  let importEnd = -1;
  for (const stmt of analysis.file.statements) {
    if (stmt.kind === 'ImportDecl') {
      if (importStart < 0) importStart = lineIndex.lineAt(stmt.start);
      importEnd = lineIndex.lineAt(stmt.end);
      continue;
    }
    if (importStart >= 0) addFold(importStart, importEnd, 'imports');
    importStart = -1;
  }
  if (importStart >= 0) addFold(importStart, importEnd, 'imports');
  return folds;
}
