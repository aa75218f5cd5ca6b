// The one cap on diagnostics per file (server/src/diagnosticCap.ts): the most severe earliest kept, a note
// counting the rest, producers' notes folded in, the parser's own note passed through; the editor's store
// capping across buckets; artifact validation staying bounded on a hundred thousand bad rows.

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { Diagnostic, DiagnosticSeverity } from 'vscode-languageserver';
import { crossRowProblems, validateArtifact, validateArtifactFile } from '../../server/src/artifacts/validate';
import { ArtifactProblem } from '../../server/src/artifacts/types';
import {
  capNoteMessage,
  capWorkbenchDiagnostics,
  DiagnosticCap,
  diagnosticTotal,
  MAX_DIAGNOSTICS_PER_FILE,
  noCounts,
  workbenchCapView,
} from '../../server/src/diagnosticCap';
import { Severity, WorkbenchDiagnostic } from '../../server/src/diagnostics';
import { recordingStore } from '../support/recordingStore';

function diagnostic(line: number, severity: Severity, code = 'c', data?: Record<string, unknown>): WorkbenchDiagnostic {
  const d: WorkbenchDiagnostic = {
    range: { start: { line, character: 0 }, end: { line, character: 1 } },
    severity,
    source: 'test',
    code,
    message: `${severity} on ${line}`,
  };
  if (data) d.data = data;
  return d;
}

describe('DiagnosticCap', () => {
  test('over the cap: errors first, then the earliest warnings, kept in the order added; the note at the first left out', () => {
    const input = [...Array.from({ length: 2500 }, (_, i) => diagnostic(i, 'warning')), ...Array.from({ length: 10 }, (_, i) => diagnostic(5000 + i, 'error'))];
    const { kept, note, result } = capWorkbenchDiagnostics(input);
    assert.equal(kept.length, MAX_DIAGNOSTICS_PER_FILE);
    assert.deepEqual(
      kept.map((d) => `${d.severity}@${d.range.start.line}`),
      [...Array.from({ length: 990 }, (_, i) => `warning@${i}`), ...Array.from({ length: 10 }, (_, i) => `error@${5000 + i}`)],
    );
    assert.deepEqual(result.total, { error: 10, warning: 2500, information: 0, hint: 0 });
    assert.deepEqual(result.omitted, { error: 0, warning: 1510, information: 0, hint: 0 });
    assert.deepEqual(note, {
      range: { start: { line: 990, character: 0 }, end: { line: 990, character: 0 } },
      severity: 'warning',
      source: 'harn.workbench',
      code: 'too_many_diagnostics',
      message: '1,510 more problems in this file are not shown (1,510 warnings): at most 1,000 are listed per file, the most severe first.',
      data: { omitted: 1510, error: 0, warning: 1510, information: 0, hint: 0 },
    });
  });

  test('at the cap or under it: everything, in order, and no note', () => {
    const input = Array.from({ length: MAX_DIAGNOSTICS_PER_FILE }, (_, i) => diagnostic(MAX_DIAGNOSTICS_PER_FILE - i, i % 2 ? 'error' : 'hint'));
    const { kept, note } = capWorkbenchDiagnostics(input);
    assert.deepEqual(kept, input);
    assert.equal(note, undefined);
  });

  test("a producer's note is folded into the count (caps compose); the parser's too_many_errors passes through uncounted", () => {
    const producerNote = diagnostic(40, 'error', 'too_many_diagnostics', { omitted: 7, error: 5, warning: 2, information: 0, hint: 0 });
    const parserNote = diagnostic(3, 'error', 'too_many_errors');
    const input = [diagnostic(1, 'information'), parserNote, producerNote, diagnostic(2, 'error'), diagnostic(0, 'hint')];
    const { kept, note, result } = capWorkbenchDiagnostics(input, 2);
    assert.deepEqual(kept, [input[0], parserNote, input[3]]);
    assert.deepEqual(result.total, { error: 6, warning: 2, information: 1, hint: 1 });
    assert.deepEqual(result.omitted, { error: 5, warning: 2, information: 0, hint: 1 });
    assert.equal(note?.severity, 'error');
    assert.deepEqual(note?.range.start, { line: 0, character: 0 });
    assert.equal(
      note?.message,
      '8 more problems in this file are not shown (5 errors, 2 warnings, 1 hint): at most 2 are listed per file, the most severe first.',
    );
    assert.equal(diagnosticTotal(note ? [...kept, note] : kept), 11, 'the note stands for what it left out; the parser note counts one');
  });

  test('a malformed note is an ordinary diagnostic', () => {
    const fake = diagnostic(0, 'warning', 'too_many_diagnostics', { omitted: 'many' });
    assert.deepEqual(capWorkbenchDiagnostics([fake]).kept, [fake]);
  });

  test('messages: singular and plural', () => {
    assert.equal(
      capNoteMessage({ ...noCounts(), information: 1 }),
      '1 more problem in this file is not shown (1 information note): at most 1,000 are listed per file, the most severe first.',
    );
    assert.equal(
      capNoteMessage({ ...noCounts(), error: 1, hint: 1234567 }),
      '1,234,568 more problems in this file are not shown (1 error, 1,234,567 hints): at most 1,000 are listed per file, the most severe first.',
    );
  });

  test('a million diagnostics: bounded (never more than twice the cap held), the same answer as sorting them all', () => {
    let held = 0;
    const cap = new DiagnosticCap<WorkbenchDiagnostic>((d) => {
      held++;
      return workbenchCapView(d);
    });
    const severities: Severity[] = ['hint', 'information', 'warning', 'error'];
    // A fixed pseudo-random order of lines and severities.
    let x = 1;
    const next = (): number => (x = (x * 48271) % 2147483647);
    const input: WorkbenchDiagnostic[] = [];
    for (let i = 0; i < 1_000_000; i++) input.push(diagnostic(next() % 100_000, severities[next() % 4] ?? 'hint'));
    cap.addAll(input);
    const result = cap.finish();
    assert.equal(held, 1_000_000);
    const rank: Record<Severity, number> = { error: 0, warning: 1, information: 2, hint: 3 };
    const expected = input
      .map((d, i) => ({ d, i }))
      .sort((a, b) => rank[a.d.severity] - rank[b.d.severity] || a.d.range.start.line - b.d.range.start.line || a.i - b.i)
      .slice(0, MAX_DIAGNOSTICS_PER_FILE)
      .sort((a, b) => a.i - b.i)
      .map((e) => e.d);
    assert.deepEqual(result.kept, expected);
  });
});

describe("DiagnosticsStore: the editor's one place for the cap", () => {
  const store = recordingStore;
  const lsp = (line: number, severity: DiagnosticSeverity, code: string): Diagnostic => ({
    range: { start: { line, character: 2 }, end: { line, character: 3 } },
    severity,
    source: 'test',
    code,
    message: code,
  });

  test('200,000 diagnostics in one bucket (a spread would overflow the stack): 1,000 and the note', () => {
    const { store: s, published } = store();
    s.set(
      'file:///a.jsonl',
      'artifacts',
      Array.from({ length: 200_000 }, (_, i) => lsp(i, DiagnosticSeverity.Error, 'invalid_row')),
      3,
    );
    const last = published.at(-1);
    assert.equal(last?.version, 3);
    assert.equal(last?.diagnostics.length, MAX_DIAGNOSTICS_PER_FILE + 1);
    assert.deepEqual(last?.diagnostics.at(-1), {
      range: { start: { line: 1000, character: 2 }, end: { line: 1000, character: 2 } },
      severity: DiagnosticSeverity.Error,
      source: 'harn.workbench',
      code: 'too_many_diagnostics',
      message: '199,000 more problems in this file are not shown (199,000 errors): at most 1,000 are listed per file, the most severe first.',
      data: { omitted: 199000, error: 199000, warning: 0, information: 0, hint: 0 },
    });
  });

  test('across buckets: errors of one producer kept before warnings of another; one note counting both', () => {
    const { store: s, published } = store();
    s.set(
      'file:///r.toml',
      'live',
      Array.from({ length: 1500 }, (_, i) => lsp(i, DiagnosticSeverity.Warning, 'w')),
    );
    s.set(
      'file:///r.toml',
      'gate',
      Array.from({ length: 600 }, (_, i) => lsp(10_000 + i, DiagnosticSeverity.Error, 'e')),
    );
    const list = published.at(-1)?.diagnostics ?? [];
    assert.equal(list.length, MAX_DIAGNOSTICS_PER_FILE + 1);
    assert.equal(list.filter((d) => d.code === 'e').length, 600);
    assert.deepEqual(
      list.filter((d) => d.code === 'w').map((d) => d.range.start.line),
      Array.from({ length: 400 }, (_, i) => i),
    );
    const note = list.at(-1);
    assert.equal(note?.severity, DiagnosticSeverity.Warning);
    assert.equal(note?.message, '1,100 more problems in this file are not shown (1,100 warnings): at most 1,000 are listed per file, the most severe first.');
    assert.deepEqual(note?.range.start, { line: 400, character: 2 });
  });
});

describe('artifact validation stays bounded', () => {
  const ROWS = 130_000;
  const BAD = '{}\n'.repeat(ROWS);
  const expectedNote: Omit<ArtifactProblem, 'severity'> & { severity: string } = {
    line: 1000,
    startCharacter: 0,
    endLine: 1000,
    endCharacter: 0,
    code: 'too_many_diagnostics',
    severity: 'error',
    message: '129,001 more problems in this file are not shown (129,000 errors, 1 warning): at most 1,000 are listed per file, the most severe first.',
    data: { omitted: 129001, error: 129000, warning: 1, information: 0, hint: 0 },
  };

  test(`validateArtifact: ${ROWS} rows without a type → the first 1,000 and one note (the incomplete_source warning left out)`, () => {
    const { problems, summaries } = validateArtifact('transcript', BAD);
    assert.equal(summaries.length, ROWS);
    assert.equal(problems.length, 1001);
    assert.deepEqual(
      problems.slice(0, 1000).map((p) => `${p.line}:${p.startCharacter}-${p.endCharacter} ${p.code}`),
      Array.from({ length: 1000 }, (_, i) => `${i}:0-2 invalid_row`),
    );
    assert.deepEqual(problems[1000], expectedNote);
  });

  test('validateArtifactFile: the same from disk', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'harn-cap-'));
    try {
      const file = path.join(dir, 'llm_transcript.jsonl');
      fs.writeFileSync(file, BAD);
      const { problems } = validateArtifactFile('transcript', file);
      assert.equal(problems.length, 1001);
      assert.deepEqual(problems[1000], expectedNote);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('cross-row problems are capped too (5,000 boundary failures), errors kept first; crossRowProblems still lists all', () => {
    const event = (index: number, extra: Record<string, unknown> = {}): string =>
      JSON.stringify({
        index,
        emitted_at_ms: 1,
        frame_depth: null,
        execution_id: 'x',
        type: 'boundary_failure',
        session_id: 's',
        boundary: 'b',
        kind: 'dropped',
        owner: 'harness',
        detail: 'd',
        ...extra,
      });
    const rows = ['{"type":"x"}'];
    for (let i = 0; i < 5000; i++) rows.push(event(i));
    rows.push(event(5000, { unreported: true }));
    // Line 0: two envelope errors (no index, no emitted_at_ms) and an unknown type (information).
    const { problems, summaries } = validateArtifact('eventLog', rows.join('\n') + '\n');
    assert.equal(crossRowProblems('eventLog', summaries).length, 5001);
    assert.equal(problems.length, 1001);
    const errors = problems.filter((p) => p.severity === 'error' && p.code !== 'too_many_diagnostics');
    assert.deepEqual(
      errors.map((p) => `${p.line} ${p.code}`),
      ['0 invalid_row', '0 invalid_row', '5001 unreported_boundary_failure'],
    );
    assert.equal(problems.filter((p) => p.code === 'boundary_failure').length, 997);
    assert.equal(
      problems.at(-1)?.message,
      '4,004 more problems in this file are not shown (4,003 warnings, 1 information note): at most 1,000 are listed per file, the most severe first.',
    );
  });
});
