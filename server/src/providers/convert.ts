// The one conversion of workbench diagnostics (shared with the CLI) to LSP diagnostics.

import { Diagnostic, DiagnosticSeverity } from 'vscode-languageserver';
import { WorkbenchDiagnostic } from '../diagnostics';

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

