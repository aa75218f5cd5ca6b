// Gate findings as workbench diagnostics (one per range where the finding is shown), shared by the
// language server and the CLI.

import { WorkbenchDiagnostic } from '../diagnostics';
import { LineIndex } from '../text/lineIndex';
import { Finding } from './gate';

export const BOUNDARY_SOURCE = 'harn.boundaries';

export function findingDiagnostics(finding: Finding, lineIndex: LineIndex | undefined): WorkbenchDiagnostic[] {
  const ranges = finding.location.ranges.length ? finding.location.ranges : [{ start: 0, end: 0 }];
  // The path upstream names, when it is not the file the finding is shown in (an anchor or test path).
  const where = finding.path !== finding.location.path ? ` (${finding.path})` : '';
  return ranges.map((r) => ({
    range: lineIndex ? lineIndex.rangeOf(r.start, r.end) : { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
    severity: 'error',
    source: BOUNDARY_SOURCE,
    code: finding.kind,
    message: `${finding.id ? `${finding.id}: ` : ''}${finding.message}${where}`,
    data: { id: finding.id, kind: finding.kind, path: finding.path },
  }));
}
