// The one cap on diagnostics per file, shared by every producer and both consumers (README "CLI"):
// at most MAX_DIAGNOSTICS_PER_FILE diagnostics of a file are listed — the most severe first (errors,
// then warnings, information, hints), and within a severity the earliest in the file — and one more, a
// `too_many_diagnostics` note, says how many were left out and of which severities. Pure.
//
// Caps compose: a producer that stops collecting past the cap (artifact validation, which must stay
// bounded in memory on a million bad rows) leaves its own note with the counts in `data`; a consumer
// (the editor's publication across producers, the CLI's report) folds such notes into its own count,
// so a file always ends with one note that counts everything left out. Because each producer keeps its
// most severe earliest diagnostics, the union of what they keep holds what the consumer keeps.
// The parser's own `too_many_errors` note (harn/parser.ts) is passed through as it is: it is not counted
// against the cap and never left out.
//
// Memory: DiagnosticCap holds at most 2 × max items, whatever it is fed.

import { z } from 'zod';
import type { Severity, WorkbenchDiagnostic } from './diagnostics';

export const MAX_DIAGNOSTICS_PER_FILE = 1000;

/** The code of the note that ends a capped file. */
export const TOO_MANY_DIAGNOSTICS = 'too_many_diagnostics';
/** The parser's own note (harn/parser.ts), passed through unchanged and uncounted. */
const PASSED_THROUGH_NOTES: ReadonlySet<string> = new Set(['too_many_errors']);

export const CAP_NOTE_SOURCE = 'harn.workbench';

export type SeverityCounts = Record<Severity, number>;

const SEVERITY_RANK: Record<Severity, number> = { error: 0, warning: 1, information: 2, hint: 3 };
const SEVERITIES: readonly Severity[] = ['error', 'warning', 'information', 'hint'];

const count = z.number().int().nonnegative();
/** `data` of a `too_many_diagnostics` note. */
export const CapNoteDataSchema = z.object({ omitted: count, error: count, warning: count, information: count, hint: count });
export type CapNoteData = z.infer<typeof CapNoteDataSchema>;

export function noCounts(): SeverityCounts {
  return { error: 0, warning: 0, information: 0, hint: 0 };
}

export function sumCounts(counts: SeverityCounts): number {
  return counts.error + counts.warning + counts.information + counts.hint;
}

/** The counts a `too_many_diagnostics` note stands for, or undefined when the diagnostic is no such note. */
export function capNoteCounts(code: unknown, data: unknown): SeverityCounts | undefined {
  if (code !== TOO_MANY_DIAGNOSTICS) return undefined;
  const parsed = CapNoteDataSchema.safeParse(data);
  if (!parsed.success) return undefined;
  const { error, warning, information, hint } = parsed.data;
  return { error, warning, information, hint };
}

/** The most severe severity with a non-zero count (error when none). */
export function worstSeverity(counts: SeverityCounts): Severity {
  return SEVERITIES.find((s) => counts[s] > 0) ?? 'error';
}

const plural = (n: number, word: string): string => `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;
const SEVERITY_NOUN: Record<Severity, string> = { error: 'error', warning: 'warning', information: 'information note', hint: 'hint' };

/** The note's message, e.g. "129,000 more problems in this file are not shown (129,000 errors): at most 1,000 are listed per file, the most severe first." */
export function capNoteMessage(omitted: SeverityCounts, max = MAX_DIAGNOSTICS_PER_FILE): string {
  const parts = SEVERITIES.filter((s) => omitted[s] > 0).map((s) => plural(omitted[s], SEVERITY_NOUN[s]));
  const total = sumCounts(omitted);
  return (
    `${total.toLocaleString('en-US')} more ${total === 1 ? 'problem' : 'problems'} in this file ${total === 1 ? 'is' : 'are'} not shown (${parts.join(', ')}): ` +
    `at most ${max.toLocaleString('en-US')} are listed per file, the most severe first.`
  );
}

export function capNoteData(omitted: SeverityCounts): CapNoteData {
  return { omitted: sumCounts(omitted), ...omitted };
}

export interface CapPosition {
  line: number;
  character: number;
}

/** What the cap needs to know of an item. */
export interface CapView extends CapPosition {
  severity: Severity;
  code: unknown;
  data: unknown;
}

export interface CapResult<T> {
  /** What is kept, in the order it was added (passed-through notes included). */
  kept: T[];
  /** Every diagnostic seen, per severity: kept or left out, here or by a producer whose note was folded in. */
  total: SeverityCounts;
  /** Those left out, per severity. */
  omitted: SeverityCounts;
  /** Where the first diagnostic left out is (where the note goes); undefined when none was. */
  firstOmitted: CapPosition | undefined;
}

interface Held<T> {
  item: T;
  rank: number;
  line: number;
  character: number;
  seq: number;
}

const byRank = <T>(a: Held<T>, b: Held<T>): number => a.rank - b.rank || a.line - b.line || a.character - b.character || a.seq - b.seq;

/**
 * Keeps the `max` most important of a stream of diagnostics (severity, then position), counting the rest.
 * Holds at most 2 × max of them at any time: past that it sorts and drops down to max.
 */
export class DiagnosticCap<T> {
  private held: Held<T>[] = [];
  private readonly passed: { item: T; seq: number }[] = [];
  private seq = 0;
  private readonly total = noCounts();
  private readonly omitted = noCounts();
  private firstOmitted: CapPosition | undefined;

  constructor(
    private readonly view: (item: T) => CapView,
    private readonly max = MAX_DIAGNOSTICS_PER_FILE,
  ) {}

  add(item: T): void {
    const v = this.view(item);
    const folded = capNoteCounts(v.code, v.data);
    if (folded !== undefined) {
      this.leftOut(folded, v);
      return;
    }
    if (typeof v.code === 'string' && PASSED_THROUGH_NOTES.has(v.code)) {
      this.passed.push({ item, seq: this.seq++ });
      return;
    }
    this.total[v.severity]++;
    this.held.push({ item, rank: SEVERITY_RANK[v.severity], line: v.line, character: v.character, seq: this.seq++ });
    if (this.held.length >= 2 * this.max) this.trim();
  }

  addAll(items: Iterable<T>): void {
    for (const item of items) this.add(item);
  }

  /** Counts left out elsewhere (a producer's note), the first of them at `at`. */
  leftOut(counts: SeverityCounts, at: CapPosition): void {
    if (sumCounts(counts) === 0) return;
    for (const s of SEVERITIES) {
      this.total[s] += counts[s];
      this.omitted[s] += counts[s];
    }
    if (this.firstOmitted === undefined || before(at, this.firstOmitted)) this.firstOmitted = { line: at.line, character: at.character };
  }

  private trim(): void {
    if (this.held.length <= this.max) return;
    this.held.sort(byRank);
    for (let i = this.max; i < this.held.length; i++) {
      const dropped = this.held[i];
      if (dropped === undefined) continue; // i < length
      this.omitted[SEVERITIES[dropped.rank] ?? 'error']++;
      if (this.firstOmitted === undefined || before(dropped, this.firstOmitted)) this.firstOmitted = { line: dropped.line, character: dropped.character };
    }
    this.held.length = this.max;
  }

  finish(): CapResult<T> {
    this.trim();
    const kept = [...this.held.map(({ item, seq }) => ({ item, seq })), ...this.passed].sort((a, b) => a.seq - b.seq).map((h) => h.item);
    return { kept, total: { ...this.total }, omitted: { ...this.omitted }, firstOmitted: this.firstOmitted };
  }
}

function before(a: CapPosition, b: CapPosition): boolean {
  return a.line < b.line || (a.line === b.line && a.character < b.character);
}

/** How many diagnostics a list stands for: each counts one, a `too_many_diagnostics` note the number it left out. */
export function diagnosticTotal(items: Iterable<{ code: unknown; data?: unknown }>): number {
  let n = 0;
  for (const item of items) {
    const folded = capNoteCounts(item.code, item.data);
    n += folded === undefined ? 1 : sumCounts(folded);
  }
  return n;
}

/** The note ending a capped file, as a workbench diagnostic at the first one left out; undefined when nothing was. */
export function capNoteDiagnostic(result: CapResult<unknown>, max = MAX_DIAGNOSTICS_PER_FILE): WorkbenchDiagnostic | undefined {
  const at = result.firstOmitted;
  if (at === undefined || sumCounts(result.omitted) === 0) return undefined;
  const position = { line: at.line, character: at.character };
  return {
    range: { start: position, end: { ...position } },
    severity: worstSeverity(result.omitted),
    source: CAP_NOTE_SOURCE,
    code: TOO_MANY_DIAGNOSTICS,
    message: capNoteMessage(result.omitted, max),
    data: capNoteData(result.omitted),
  };
}

/** A workbench diagnostic as the cap sees it. */
export function workbenchCapView(d: WorkbenchDiagnostic): CapView {
  return { severity: d.severity, line: d.range.start.line, character: d.range.start.character, code: d.code, data: d.data };
}

/** Caps one file's workbench diagnostics: what is kept, in order, then the note when some were left out. */
export function capWorkbenchDiagnostics<T extends WorkbenchDiagnostic>(
  diagnostics: Iterable<T>,
  max = MAX_DIAGNOSTICS_PER_FILE,
): { kept: T[]; note: WorkbenchDiagnostic | undefined; result: CapResult<T> } {
  const cap = new DiagnosticCap<T>(workbenchCapView, max);
  cap.addAll(diagnostics);
  return finishWorkbenchCap(cap, max);
}

/** What a cap fed workbench diagnostics kept, and its note. */
export function finishWorkbenchCap<T extends WorkbenchDiagnostic>(
  cap: DiagnosticCap<T>,
  max = MAX_DIAGNOSTICS_PER_FILE,
): { kept: T[]; note: WorkbenchDiagnostic | undefined; result: CapResult<T> } {
  const result = cap.finish();
  return { kept: result.kept, note: capNoteDiagnostic(result, max), result };
}
