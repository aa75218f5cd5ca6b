// A file's index built for no next version leaves its workspace symbols to be made from its text when first read:
// they must be the ones the build makes when it keeps them (an open document's index).

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { HarnAnalysis } from '../../server/src/harn/analysis';
import { indexFile } from '../../server/src/harn/index/fileIndex';
import { MAX_OUTLINE_SYMBOLS } from '../../server/src/outlineCap';
import { corpusFiles, corpusSkip, readCorpus } from '../support/corpus';

function assertSameSymbols(name: string, text: string): number {
  const deferred = indexFile('/ws/a.harn', new HarnAnalysis(text));
  const built = indexFile('/ws/a.harn', new HarnAnalysis(text), { reusable: true });
  assert.deepEqual(deferred.symbols, built.symbols, name);
  // Made once: the same list on the next read.
  assert.equal(deferred.symbols, deferred.symbols, name);
  return built.symbols.length;
}

describe('harn index: symbols made when first read', () => {
  test('every corpus file (whole and cut in half) lists the symbols the full build lists', { skip: corpusSkip }, () => {
    let symbols = 0;
    for (const relative of corpusFiles()) {
      const text = readCorpus(relative);
      symbols += assertSameSymbols(relative, text);
      symbols += assertSameSymbols(`${relative} (first half)`, text.slice(0, text.length >> 1));
    }
    assert.ok(symbols > 1000, `${symbols} symbols`);
  });

  test('a file past the outline cap lists what the capped outline lists', () => {
    const text = Array.from({ length: MAX_OUTLINE_SYMBOLS + 50 }, (_, i) => `fn step_${i}(x) {\n  return x\n}\n`).join('');
    const count = assertSameSymbols('capped', text);
    assert.ok(count > 0 && count <= MAX_OUTLINE_SYMBOLS, `${count} symbols`);
  });

  test('a CRLF file with a BOM and a broken statement', () => {
    assertSameSymbols('crlf', '\uFEFFpub fn a(x) {\r\n  let y = x\r\n}\r\nstruct S {\r\n  f: int\r\n}\r\nfn broken(');
  });
});
