// The outline's detail snippets: whitespace collapsed as `replace(/\s+/g, ' ')` collapses it, whether or not the
// fast path (no whitespace to collapse: the slice as it is) is taken.

import { strict as assert } from 'node:assert';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { snippet } from '../../server/src/harn/outline';

/** What snippet gives by definition: at most 320 characters read, whitespace collapsed, an ellipsis when cut. */
function expected(source: string, start: number, end: number): string {
  const cut = Math.min(end, start + 320);
  const text = source.slice(start, cut).replace(/\s+/g, ' ');
  return cut < end ? `${text}…` : text;
}

describe('outline detail snippets', () => {
  test('equal to the collapsing replace on any text, ASCII and Unicode whitespace included', () => {
    const unit = fc.constantFrom('a', 'b', ' ', '  ', '\t', '\n', '\r\n', '\v', '\f', '\u00a0', '\u2028', '\u3000', '\ufeff', 'é', '(', ':');
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 60 }), fc.nat(), fc.nat(), (parts, a, b) => {
        const source = parts.join('');
        const start = source.length === 0 ? 0 : a % (source.length + 1);
        const end = start + (source.length === 0 ? 0 : b % (source.length - start + 1));
        return snippet(source, start, end) === expected(source, start, end);
      }),
      { numRuns: 3000 },
    );
  });

  test('a long parameter is cut after 320 characters with an ellipsis, collapsed either way', () => {
    const long = 'x: ' + 'int,  '.repeat(100);
    assert.equal(snippet(long, 0, long.length), expected(long, 0, long.length));
    assert.ok(snippet(long, 0, long.length).endsWith('…'));
    assert.equal(snippet('items: list<int>', 0, 16), 'items: list<int>');
    assert.equal(snippet('items:\n    list<int>', 0, 20), 'items: list<int>');
  });
});
