// Renders diagnostics for the CLI: text for people, JSON (the DESIGN.md contract), GitHub workflow
// commands and SARIF 2.1.0 for code scanning.

import { capNoteDiagnostic, DiagnosticCap, noCounts, SeverityCounts, sumCounts, workbenchCapView } from '../diagnosticCap';
import { Severity, SEVERITY_ORDER, WorkbenchDiagnostic } from '../diagnostics';

export type OutputFormat = 'text' | 'json' | 'github' | 'sarif';
export const OUTPUT_FORMATS: readonly OutputFormat[] = ['text', 'json', 'github', 'sarif'];

export interface FileDiagnostic extends WorkbenchDiagnostic {
  /** Path relative to the root, with forward slashes. */
  path: string;
}

export function sortDiagnostics(diagnostics: FileDiagnostic[]): FileDiagnostic[] {
  return [...diagnostics].sort(
    (a, b) =>
      (a.path < b.path ? -1 : a.path > b.path ? 1 : 0) ||
      a.range.start.line - b.range.start.line ||
      a.range.start.character - b.range.start.character ||
      SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity],
  );
}

export interface CappedReport {
  /** What is listed: at most MAX_DIAGNOSTICS_PER_FILE per file, each capped file's note right after its last one. */
  diagnostics: FileDiagnostic[];
  /** Every diagnostic found, listed or not, per severity. */
  total: SeverityCounts;
  /** How many were left out, over all files. */
  omitted: number;
}

/**
 * The CLI's one place for the cap (diagnosticCap.ts): each file's diagnostics capped, in the order given
 * (`given`: the gate's finding order) or sorted by path and position (`position`).
 */
export function capPerFile(diagnostics: Iterable<FileDiagnostic>, order: 'given' | 'position'): CappedReport {
  interface Numbered {
    d: FileDiagnostic;
    seq: number;
  }
  const caps = new Map<string, DiagnosticCap<Numbered>>();
  let seq = 0;
  for (const d of diagnostics) {
    let cap = caps.get(d.path);
    if (cap === undefined) caps.set(d.path, (cap = new DiagnosticCap<Numbered>((n) => workbenchCapView(n.d))));
    cap.add({ d, seq: seq++ });
  }
  const kept: Numbered[] = [];
  const notes = new Map<string, FileDiagnostic>();
  const total = noCounts();
  let omitted = 0;
  for (const [path, cap] of caps) {
    const result = cap.finish();
    for (const n of result.kept) kept.push(n);
    for (const s of Object.keys(total) as Severity[]) total[s] += result.total[s];
    omitted += sumCounts(result.omitted);
    const note = capNoteDiagnostic(result);
    if (note !== undefined) notes.set(path, { ...note, path });
  }
  const listed = order === 'position' ? sortDiagnostics(kept.map((n) => n.d)) : kept.sort((a, b) => a.seq - b.seq).map((n) => n.d);
  if (notes.size === 0) return { diagnostics: listed, total, omitted };
  // Each note after its file's last diagnostic.
  const last = new Map<string, number>();
  listed.forEach((d, i) => last.set(d.path, i));
  const out: FileDiagnostic[] = [];
  listed.forEach((d, i) => {
    out.push(d);
    const note = notes.get(d.path);
    if (note !== undefined && last.get(d.path) === i) {
      out.push(note);
      notes.delete(d.path);
    }
  });
  for (const note of notes.values()) out.push(note);
  return { diagnostics: out, total, omitted };
}

/** The JSON report: `{"version": 1, "diagnostics": [...]}`, and `"omitted": N` when the cap left N out. */
export function renderJson(diagnostics: FileDiagnostic[], omitted = 0): string {
  const out = diagnostics.map((d) => {
    const o: Record<string, unknown> = { path: d.path, range: d.range, severity: d.severity, source: d.source, code: d.code, message: d.message };
    if (d.data) o.data = d.data;
    return o;
  });
  return JSON.stringify(omitted > 0 ? { version: 1, diagnostics: out, omitted } : { version: 1, diagnostics: out }, null, 2);
}

export function renderText(diagnostics: FileDiagnostic[], summary: string): string {
  const lines = diagnostics.map(
    (d) => `${d.path}:${d.range.start.line + 1}:${d.range.start.character + 1}: ${d.severity} [${d.source}/${d.code}] ${d.message}`,
  );
  lines.push(summary);
  return lines.join('\n');
}

const GITHUB_LEVEL: Record<Severity, string> = { error: 'error', warning: 'warning', information: 'notice', hint: 'notice' };

/** GitHub workflow command escaping: data escapes %, CR, LF; properties also `:` and `,`. */
function escapeData(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}
function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

export function renderGithub(diagnostics: FileDiagnostic[]): string {
  return diagnostics
    .map((d) => {
      const props = [
        `file=${escapeProperty(d.path)}`,
        `line=${d.range.start.line + 1}`,
        `col=${d.range.start.character + 1}`,
        `endLine=${d.range.end.line + 1}`,
        `endColumn=${d.range.end.character + 1}`,
        `title=${escapeProperty(`${d.source}/${d.code}`)}`,
      ].join(',');
      return `::${GITHUB_LEVEL[d.severity]} ${props}::${escapeData(d.message)}`;
    })
    .join('\n');
}

const SARIF_LEVEL: Record<Severity, string> = { error: 'error', warning: 'warning', information: 'note', hint: 'note' };

export function renderSarif(diagnostics: FileDiagnostic[], toolVersion: string): string {
  const ruleIds = [...new Set(diagnostics.map((d) => `${d.source}/${d.code}`))].sort();
  const results = diagnostics.map((d) => {
    const result: Record<string, unknown> = {
      ruleId: `${d.source}/${d.code}`,
      ruleIndex: ruleIds.indexOf(`${d.source}/${d.code}`),
      level: SARIF_LEVEL[d.severity],
      message: { text: d.message },
      locations: [
        {
          physicalLocation: {
            artifactLocation: { uri: encodeURI(d.path), uriBaseId: 'SRCROOT' },
            // SARIF columns are 1-based and count UTF-16 code units, like our ranges.
            region: {
              startLine: d.range.start.line + 1,
              startColumn: d.range.start.character + 1,
              endLine: d.range.end.line + 1,
              endColumn: d.range.end.character + 1,
            },
          },
        },
      ],
    };
    if (d.data) result.properties = d.data;
    return result;
  });
  const log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'harn-workbench',
            version: toolVersion,
            rules: ruleIds.map((id) => ({ id, name: id.replace(/[^A-Za-z0-9]+/g, '_'), shortDescription: { text: id } })),
          },
        },
        columnKind: 'utf16CodeUnits',
        originalUriBaseIds: { SRCROOT: { uri: './' } },
        results,
      },
    ],
  };
  return JSON.stringify(log, null, 2);
}
