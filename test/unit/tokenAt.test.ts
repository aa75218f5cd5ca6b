// HarnAnalysis.tokenAt: the token under a cursor, and between two tokens the word (a cursor just after a name
// followed by punctuation is on the name, wherever the binary search lands).

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { HarnAnalysis } from '../../server/src/harn/analysis';

describe('tokenAt', () => {
  test('a cursor right after a name followed by `,` `)` `.` or `(` is on the name, at every position of a long list', () => {
    const names = Array.from({ length: 64 }, (_, i) => `p${i}`);
    for (const text of [`f(${names.join(', ')})`, `f(${names.join(',')})`, `let x = [${names.map((n) => `${n}.y`).join(',')}]`]) {
      const analysis = new HarnAnalysis(text);
      for (const name of names) {
        const end = text.indexOf(name + (text.includes(`${name}.`) ? '.' : '')) + name.length;
        assert.equal(analysis.tokenAt(end)?.value, name, `the cursor just after ${name} in ${text.slice(0, 30)}…`);
      }
    }
  });

  test('inside a word, at its start, and on punctuation away from words', () => {
    const analysis = new HarnAnalysis('let total = add(1, 2)');
    assert.equal(analysis.tokenAt(5)?.value, 'total');
    assert.equal(analysis.tokenAt(4)?.value, 'total');
    assert.equal(analysis.tokenAt('let total = add'.length)?.value, 'add', 'before `(`: the name');
    assert.equal(analysis.tokenAt('let total = add(1'.length + 1)?.value, ',', 'after `1,` and before a space: the comma');
  });
});
