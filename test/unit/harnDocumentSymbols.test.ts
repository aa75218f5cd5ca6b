// The document symbols of an open `.harn` document are made statement by statement and kept for the statements an
// edit leaves alone (documentSymbolsOf): after every edit of a random sequence, each applied by HarnAnalysis.edited
// to the previous step's analysis, they must be exactly what converting the document's whole outline gives.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { DocumentSymbol } from 'vscode-languageserver';
import { HarnAnalysis } from '../../server/src/harn/analysis';
import { MAX_OUTLINE_SYMBOLS } from '../../server/src/outlineCap';
import { omittedSymbolsNote } from '../../server/src/providers/convert';
import { documentSymbolsOf, toDocumentSymbols } from '../../server/src/providers/harnProvider';
import { corpusFiles, corpusSkip, readCorpus } from '../support/corpus';
import { applyEdit, edit, Edit, generatedFile } from '../support/harnEdits';

/** The symbols made from the whole outline of the text, from scratch. */
function fromScratch(text: string): DocumentSymbol[] {
  const analysis = new HarnAnalysis(text);
  const { symbols, omitted, firstOmitted } = analysis.cappedOutline;
  const converted = toDocumentSymbols(symbols, analysis);
  if (omitted > 0) converted.push(omittedSymbolsNote(omitted, analysis.lineIndex.positionAt(firstOmitted ?? text.length)));
  return converted;
}

/** Runs the edits from `source`, asking for the symbols at every step; returns how many steps were incremental parses. */
function runSequence(source: string, edits: readonly Edit[]): number {
  let analysis = new HarnAnalysis(source);
  assert.deepStrictEqual(documentSymbolsOf(analysis), fromScratch(source));
  let incremental = 0;
  edits.forEach((e, step) => {
    analysis = HarnAnalysis.edited(analysis, applyEdit(analysis, e));
    if (analysis.reparsed !== 'full') incremental++;
    assert.deepStrictEqual(documentSymbolsOf(analysis), fromScratch(analysis.text), `step ${step} (${JSON.stringify(e)})`);
  });
  return incremental;
}

describe('harn document symbols: kept per statement across edits', () => {
  test('equal to the whole outline converted after every edit of a sequence, on generated files', (t) => {
    let steps = 0;
    let incremental = 0;
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1000 }), fc.array(edit, { minLength: 1, maxLength: 10 }), (seed, edits) => {
        steps += edits.length;
        incremental += runSequence(generatedFile(seed, 8), edits);
      }),
      { numRuns: 120 },
    );
    t.diagnostic(`${incremental} of ${steps} steps re-parsed one statement`);
    // The kept symbols were really read: most steps kept every statement but one.
    assert.ok(incremental >= steps * 0.3, `${incremental} of ${steps} steps re-parsed one statement`);
  });

  test('equal to the whole outline converted after every edit of a sequence, on corpus files', { skip: corpusSkip }, () => {
    const sources = corpusFiles()
      .map(readCorpus)
      .filter((s) => s.length < 60_000);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: sources.length - 1 }), fc.array(edit, { minLength: 1, maxLength: 6 }), (i, edits) => {
        runSequence(sources[i] as string, edits);
      }),
      { numRuns: 150 },
    );
  });

  test('a statement after the edited one on the same line moves right: its symbols are made again', () => {
    const before = new HarnAnalysis('fn a() { 1 }; fn b() {}\nfn c() {}\n');
    documentSymbolsOf(before);
    const after = HarnAnalysis.edited(before, 'fn a() { 123 }; fn b() {}\nfn c() {}\n');
    assert.notEqual(after.reparsed, 'full');
    const symbols = documentSymbolsOf(after);
    assert.deepStrictEqual(
      symbols.map((s) => [s.name, s.selectionRange.start]),
      [
        ['a', { line: 0, character: 3 }],
        ['b', { line: 0, character: 19 }],
        ['c', { line: 1, character: 3 }],
      ],
    );
    assert.deepStrictEqual(symbols, fromScratch(after.text));
  });

  test('a line added above shifts the statements below it; the statements above keep their objects', () => {
    const text = 'fn a() {\n  1\n}\nfn b() {}\n';
    const before = new HarnAnalysis(text);
    const first = documentSymbolsOf(before);
    const after = HarnAnalysis.edited(before, text.replace('  1\n', '  1\n  2\n'));
    const second = documentSymbolsOf(after);
    assert.deepStrictEqual(second, fromScratch(after.text));
    assert.equal(second[1]?.range.start.line, 4);
    // `a` was re-parsed (the edit is in it); `b` moved a line down, so its symbol is new too.
    assert.notEqual(second[1], first[1]);
    const typed = HarnAnalysis.edited(after, after.text.replace('fn b() {}', 'fn b() { 3 }'));
    const third = documentSymbolsOf(typed);
    // Typing in `b` leaves `a` where it was: its symbol is the one made before.
    assert.equal(third[0], second[0]);
    assert.deepStrictEqual(third, fromScratch(typed.text));
  });

  test('past the cap, the outline is cut as the whole outline is, with its note', () => {
    const fields = Array.from({ length: 60 }, (_, i) => `  f${i}: int`).join('\n');
    const text = Array.from({ length: Math.ceil(MAX_OUTLINE_SYMBOLS / 61) + 2 }, (_, i) => `struct S${i} {\n${fields}\n}\n`).join('');
    const analysis = new HarnAnalysis(text);
    const symbols = documentSymbolsOf(analysis);
    assert.deepStrictEqual(symbols, fromScratch(text));
    assert.match(symbols.at(-1)?.name ?? '', /more symbols not shown/);
  });
});
