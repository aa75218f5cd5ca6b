// The shared surrogate-pair cuts (server/src/text/surrogates.ts): a hover's JSON, a tree label and a call hierarchy
// detail cut with them, never keeping half of a character.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { cutCodePoints, cutUtf16, isHighSurrogate, isLowSurrogate } from '../../server/src/text/surrogates';

/** Strings rich in pairs and lone halves: the cases a cut can get wrong. */
const tricky = fc.array(fc.constantFrom('a', 'é', '😀', '\ud83d', '\ude00', '\udbff\udfff', ' ', '…'), { maxLength: 20 }).map((pieces) => pieces.join(''));
const LONE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const text = fc.oneof(tricky, fc.string({ unit: 'binary', maxLength: 30 }), fc.string({ unit: 'grapheme', maxLength: 20 }));

describe('surrogates: cutting text without keeping half of a character', () => {
  test('the checks', () => {
    assert.deepEqual([0xd7ff, 0xd800, 0xdbff, 0xdc00].map(isHighSurrogate), [false, true, true, false]);
    assert.deepEqual([0xdbff, 0xdc00, 0xdfff, 0xe000].map(isLowSurrogate), [false, true, true, false]);
    assert.equal(isHighSurrogate(NaN), false);
  });

  test('cutUtf16: a pair at the cut is dropped whole, text that fits is kept', () => {
    assert.equal(cutUtf16('ab😀c', 3), 'ab');
    assert.equal(cutUtf16('ab😀c', 4), 'ab😀');
    assert.equal(cutUtf16('abc', 3), 'abc');
    assert.equal(cutUtf16('abc', 0), '');
    assert.equal(cutUtf16('a\ud83dbc', 2), 'a', 'a lone high surrogate at the cut is dropped too');
  });

  test('cutUtf16, any text and length: a prefix of at most max units, one less only for a high surrogate, no pair split', () => {
    fc.assert(
      fc.property(text, fc.nat(35), (s, max) => {
        const cut = cutUtf16(s, max);
        assert.ok(s.startsWith(cut));
        assert.ok(cut.length <= max);
        const last = cut.charCodeAt(cut.length - 1);
        if (cut.length < s.length) assert.ok(!(isHighSurrogate(last) && isLowSurrogate(s.charCodeAt(cut.length))), `a pair split: ${JSON.stringify(cut)}`);
        // Well-formed text is never cut after a high surrogate (a lone one already in the text may stay, as before).
        if (!LONE.test(s)) assert.ok(!isHighSurrogate(last), JSON.stringify(cut));
        if (s.length <= max) assert.equal(cut, s);
        else assert.equal(cut.length, isHighSurrogate(s.charCodeAt(max - 1)) ? max - 1 : max);
      }),
      { numRuns: 2000 },
    );
  });

  test('cutCodePoints: a pair counts as one, a lone half as one', () => {
    assert.equal(cutCodePoints('😀😀😀', 2), '😀😀');
    assert.equal(cutCodePoints('a\ude00\ud83db', 3), 'a\ude00\ud83d');
    assert.equal(cutCodePoints('abc', 5), 'abc');
    assert.equal(cutCodePoints('abc', 0), '');
  });

  test('cutCodePoints, any text and count: a prefix of at most max code points, the first max of Array.from', () => {
    fc.assert(
      fc.property(text, fc.nat(25), (s, max) => {
        const cut = cutCodePoints(s, max);
        assert.ok(s.startsWith(cut));
        assert.ok(Array.from(cut).length <= max);
        assert.equal(cut, Array.from(s).slice(0, max).join(''));
      }),
      { numRuns: 2000 },
    );
  });
});
