// The one conversion of workbench diagnostics (shared with the CLI) to LSP diagnostics, and the symbol that
// ends a capped outline (outlineCap.ts).

import { Diagnostic, DiagnosticSeverity, DocumentSymbol, Position, SymbolKind } from 'vscode-languageserver';
import { WorkbenchDiagnostic } from '../diagnostics';
import { omittedSymbolsDetail, omittedSymbolsName } from '../outlineCap';

const SEVERITIES = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  information: DiagnosticSeverity.Information,
  hint: DiagnosticSeverity.Hint,
} as const;

export function toLspDiagnostic(d: WorkbenchDiagnostic): Diagnostic {
  const out: Diagnostic = { range: d.range, severity: SEVERITIES[d.severity], source: d.source, code: d.code, message: d.message };
  if (d.data) out.data = d.data;
  return out;
}

/** The last top-level symbol of a capped outline: "… N more symbols not shown", at the first one left out. */
export function omittedSymbolsNote(omitted: number, at: Position): DocumentSymbol {
  const range = { start: at, end: at };
  return { name: omittedSymbolsName(omitted), detail: omittedSymbolsDetail(), kind: SymbolKind.Null, range, selectionRange: range, children: [] };
}
