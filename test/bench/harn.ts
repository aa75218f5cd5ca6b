// Harn parser benchmarks: parse throughput against TypeScript's own parser, and the server's work for
// one keystroke in a 5,000-line file.

import * as fs from 'node:fs';
import * as path from 'node:path';
import ts from 'typescript';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { harnSyntaxDiagnostics } from '../../server/src/diagnostics';
import { toDocumentSymbols } from '../../server/src/providers/harnProvider';
import { HarnAnalysis } from '../../server/src/harn/analysis';
import { changedRange, shiftStatement } from '../../server/src/harn/incremental';
import { LineIndex } from '../../server/src/text/lineIndex';
import { parse } from '../../server/src/harn/parser';
import { median, mulberry32, percentile } from './stats';

type Metric = (name: string, value: number, unit: string, goal: string) => void;

/** Seconds to run `body` once over all inputs. */
function timeOnce(body: () => void): number {
  const start = process.hrtime.bigint();
  body();
  return Number(process.hrtime.bigint() - start) / 1e9;
}

export function runHarnBenchmarks(
  sources: string[],
  metric: Metric,
  wanted: (name: string) => boolean,
  childRate: (side: 'harn' | 'typescript') => number,
): void {
  if (wanted('parse_vs_typescript')) parseVsTypescript(metric, childRate);
  // keystroke_p95_ms itself is keystroke.ts's (a typing session); this one types random characters anywhere.
  if (wanted('keystroke_random')) keystroke(sources);
}

function typescriptLibs(): { name: string; text: string }[] {
  const libDir = path.dirname(require.resolve('typescript/lib/lib.d.ts'));
  return fs
    .readdirSync(libDir)
    .filter((f) => /^lib\..*\.d\.ts$/.test(f) || f === 'lib.d.ts')
    .map((f) => ({ name: f, text: fs.readFileSync(path.join(libDir, f), 'utf8') }));
}

/**
 * Bytes per second of one parser, measured alone in this process: warm up until the JIT has settled,
 * then the median of timed rounds. Run in a child process per side so neither side's garbage and
 * collections are charged to the other.
 */
export function parseRate(side: 'harn' | 'typescript', sources: string[]): number {
  let bytes: number;
  let run: () => void;
  if (side === 'harn') {
    bytes = sources.reduce((n, s) => n + Buffer.byteLength(s), 0);
    run = () => {
      for (const s of sources) parse(s);
    };
  } else {
    const libs = typescriptLibs();
    bytes = libs.reduce((n, l) => n + Buffer.byteLength(l.text), 0);
    run = () => {
      for (const l of libs) ts.createSourceFile(l.name, l.text, ts.ScriptTarget.Latest, false);
    };
  }
  for (let i = 0; i < 15; i++) run();
  const rates: number[] = [];
  for (let round = 0; round < 15; round++) rates.push(bytes / timeOnce(run));
  return median(rates);
}

function parseVsTypescript(metric: Metric, childRate: (side: 'harn' | 'typescript') => number): void {
  // Alternate the two sides five times (each in a fresh child process) and take the median ratio of the pairs.
  const ratios: number[] = [];
  let last = { harn: 0, typescript: 0 };
  for (let pair = 0; pair < 5; pair++) {
    last = { harn: childRate('harn'), typescript: childRate('typescript') };
    ratios.push(last.harn / last.typescript);
  }
  const tsBytes = typescriptLibs().reduce((n, l) => n + Buffer.byteLength(l.text), 0);
  console.log(
    `parse: harn ${(last.harn / 1e6).toFixed(1)} MB/s over the corpus; typescript ${ts.version} ${(last.typescript / 1e6).toFixed(1)} MB/s ` +
      `over its ${typescriptLibs().length} lib files (${(tsBytes / 1e6).toFixed(2)} MB); ratios ${ratios.map((r) => r.toFixed(2)).join(', ')}`,
  );
  metric('parse_vs_typescript', median(ratios), 'x', '>=2');
}

/** Concatenates clean corpus files into a file of about `lines` lines (the 5,000-line file of the keystroke benchmarks). */
export function assembleFile(sources: string[], lines: number): string {
  const parts: string[] = [];
  let count = 0;
  for (const s of sources) {
    if (parse(s).diagnostics.length > 0) continue;
    parts.push(s.endsWith('\n') ? s : s + '\n');
    count += s.split('\n').length;
    if (count >= lines) break;
  }
  return parts.join('').split('\n').slice(0, lines).join('\n') + '\n';
}

/**
 * Random characters (brackets and quotes too) at random places, a third of them deletions: damage that accumulates
 * as no one types, where most keystrokes change the structure around them. Printed beside keystroke_p95_ms (a
 * typing session) to show what a full re-parse costs; not a goal.
 */
function keystroke(sources: string[]): void {
  const text = assembleFile(sources, 5000);
  let doc = TextDocument.create('file:///bench.harn', 'harn', 1, text);
  let analysis = new HarnAnalysis(text);
  const random = mulberry32(42);
  const samples: number[] = [];
  const split = { edited: [] as number[], diagnostics: [] as number[], outline: [] as number[] };
  const incremental: number[] = [];
  const inner = { diff: [] as number[], lineIndex: [] as number[], shift: [] as number[] };
  const full: number[] = [];
  const alphabet = 'abcdefghijklmnopqrstuvwxyz (){}[]".,=\n';
  const since = (started: bigint): number => Number(process.hrtime.bigint() - started) / 1e6;
  // What the server does per keystroke: apply the incremental change, re-parse from the previous version
  // (HarnAnalysis.edited, as HarnWorkspace.analysisOf does), then compute the diagnostics and the outline it sends back.
  const serverWork = (offset: number, insert: boolean, record: boolean): void => {
    const position = doc.positionAt(offset);
    const change = insert
      ? { range: { start: position, end: position }, text: alphabet.charAt(Math.floor(random() * alphabet.length)) }
      : { range: { start: position, end: doc.positionAt(offset + 1) }, text: '' };
    const previousText = doc.getText();
    const previousLines = analysis.lineIndex;
    doc = TextDocument.update(doc, [change], doc.version + 1);
    let started = process.hrtime.bigint();
    analysis = HarnAnalysis.edited(analysis, doc.getText());
    const editedMs = since(started);
    started = process.hrtime.bigint();
    harnSyntaxDiagnostics(analysis);
    const diagnosticsMs = since(started);
    started = process.hrtime.bigint();
    toDocumentSymbols(analysis.outline, analysis);
    const outlineMs = since(started);
    if (!record) return;
    split.edited.push(editedMs);
    split.diagnostics.push(diagnosticsMs);
    split.outline.push(outlineMs);
    (analysis.reparsed === 'full' ? full : incremental).push(editedMs);
    if (analysis.reparsed !== 'full') {
      // Of an incremental step, outside the time measured: what finding the edit, the line index and shifting the
      // statements after it cost (the shift again by 0, over the same lists), the rest being the one statement's
      // re-lex and re-parse.
      const reparsed = analysis.reparsed;
      started = process.hrtime.bigint();
      const change = changedRange(previousText, doc.getText());
      inner.diff.push(since(started));
      started = process.hrtime.bigint();
      LineIndex.edited(previousLines, doc.getText(), change.from, change.oldTo, change.newTo);
      inner.lineIndex.push(since(started));
      started = process.hrtime.bigint();
      for (const stmt of analysis.file.statements) if (stmt.start >= reparsed.to) shiftStatement(stmt, 0);
      inner.shift.push(since(started));
    }
  };
  for (let i = 0; i < 20; i++) serverWork(Math.floor(random() * doc.getText().length), true, false);
  for (let i = 0; i < 200; i++) {
    const offset = Math.floor(random() * doc.getText().length);
    const started = process.hrtime.bigint();
    serverWork(offset, random() < 0.7, true);
    samples.push(since(started));
  }
  const shown = (xs: number[]): string => (xs.length ? `median ${median(xs).toFixed(2)} p95 ${percentile(xs, 95).toFixed(2)} ms` : 'none');
  console.log(
    `keystroke (random characters anywhere): ${doc.lineCount} lines, ${doc.getText().length} chars; median ${median(samples).toFixed(2)} ms, max ${Math.max(...samples).toFixed(2)} ms`,
  );
  console.log(
    `keystroke (random) split: edited ${shown(split.edited)} (one statement re-read in ${incremental.length} of ${samples.length}: ${shown(incremental)}; ` +
      `full parse in ${full.length}: ${shown(full)}); diagnostics ${shown(split.diagnostics)}; outline ${shown(split.outline)}`,
  );
  console.log(
    `keystroke (random) split of an incremental step: finding the edit ${shown(inner.diff)}; line index ${shown(inner.lineIndex)}; ` +
      `shifting the statements after it ${shown(inner.shift)}`,
  );
  console.log(`keystroke (random characters anywhere): p95 ${percentile(samples, 95).toFixed(2)} ms (not a goal: see keystroke_p95_ms)`);
}
