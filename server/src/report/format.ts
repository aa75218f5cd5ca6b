// Renders diagnostics for the CLI: text for people, JSON (the DESIGN.md contract), GitHub workflow
// commands and SARIF 2.1.0 for code scanning.

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

export function renderJson(diagnostics: FileDiagnostic[]): string {
  const out = diagnostics.map((d) => {
    const o: Record<string, unknown> = { path: d.path, range: d.range, severity: d.severity, source: d.source, code: d.code, message: d.message };
    if (d.data) o.data = d.data;
    return o;
  });
  return JSON.stringify({ version: 1, diagnostics: out }, null, 2);
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
