// Call hierarchy through method calls: `Type.m()`, `self.m()` in an `impl` and `v.m()` with `v` of a declared type
// are calls of the `impl` method, across two files, one with a syntax error in another declaration; a method called
// on a value whose type is not declared is left out.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { HarnAnalysis } from '../../server/src/harn/analysis';
import { indexFile } from '../../server/src/harn/index/fileIndex';
import { CallEdge, CallItem, incomingCalls, outgoingCalls, prepareCallHierarchy, topLevelCalls } from '../../server/src/harn/index/navigation';
import { defined } from '../support/assertions';
import { memoryIndex, offsetOf } from '../support/harnIndex';

const GEOM = '/ws/geom.harn';
const APP = '/ws/app.harn';

const files: Record<string, string> = {
  [GEOM]: [
    'pub struct Point { x: int }',
    'pub interface Shape { fn area(self) -> int }',
    'impl Point {',
    '  pub fn new(x: int) -> Point { return Point { x: x } }',
    '  fn scale(self, k: int) -> Point { return Point.new(self.x * k) }',
    '  fn twice(self) -> Point { return self.scale(2) }',
    '}',
    '',
  ].join('\n'),
  [APP]: [
    'import { Point, Shape } from "./geom"',
    'fn broken(a, {', // a syntax error in another declaration
    '  let x = )',
    '}',
    'impl Shape for Point { fn area(self) -> int { return self.x } }',
    'fn grow(p: Point) -> Point {',
    '  let q = p.scale(3)',
    '  let r = Point.new(1)',
    '  let u = origin()',
    '  u.scale(9)',
    '  return q.scale (2)',
    '}',
    'pipeline main(task) {',
    '  let p: Point = Point.new(2)',
    '  log(p.twice(), p.area())',
    '}',
    'Point.new(0)',
    '',
  ].join('\n'),
};

const { index, analysis } = memoryIndex(files);
const at = (file: string, needle: string, nth = 0, within = 0): number => offsetOf(defined(files[file], file), needle, nth, within);
const textOf = (item: CallItem): string => {
  const a = analysis(item.file);
  return a.text.slice(a.lineIndex.offsetAt(item.selectionRange.start), a.lineIndex.offsetAt(item.selectionRange.end));
};
const prepare = (file: string, needle: string, within = 0): CallItem => defined(prepareCallHierarchy(index, file, at(file, needle, 0, within)), needle);
/** Each edge as [caller or callee, its kind, its file, the lines of the calls]. */
const summary = (edges: CallEdge[] | undefined): [string, string, string, number[]][] =>
  defined(edges).map((e) => [e.item.name, e.item.kind, e.item.file, e.fromRanges.map((r) => r.start.line)]);

describe('call hierarchy through method calls', () => {
  test('prepare on a method call or its declaration gives the method, its impl as detail; a call on an untyped value, nothing', () => {
    assert.ok(analysis(APP).parsed.diagnostics.length > 0, 'app.harn is broken');
    const scale = prepare(APP, 'p.scale', 2);
    assert.deepEqual([scale.name, scale.kind, scale.file, scale.detail, textOf(scale)], ['scale', 'method', GEOM, 'impl Point', 'scale']);
    assert.deepEqual(prepare(GEOM, 'fn scale', 3), scale, 'at its declaration');
    assert.deepEqual(prepare(GEOM, 'self.scale', 5), scale, 'a self call');
    assert.deepEqual(prepare(APP, 'Point.new(1)', 6), prepare(GEOM, 'fn new', 3), 'a Type.m() call');
    assert.equal(prepareCallHierarchy(index, APP, at(APP, 'u.scale', 0, 2)), undefined, 'u has no declared type');
    assert.equal(prepareCallHierarchy(index, GEOM, at(GEOM, 'x: int', 0, 0)), undefined, 'a field is no callable');
    const area = prepare(APP, 'p.area', 2);
    assert.deepEqual([area.name, area.kind, area.file, area.detail], ['area', 'method', APP, 'impl Shape for Point'], 'an impl in another file than its type');
  });

  test("incoming calls of a method: every call resolving to it, across files, grouped by caller; untyped values' calls left out", () => {
    const scale = prepare(GEOM, 'fn scale', 3);
    assert.deepEqual(summary(incomingCalls(index, defined(scale.id))), [
      ['grow', 'function', APP, [6]], // not u.scale(9) nor q.scale (2): neither has a declared type
      ['twice', 'method', GEOM, [5]],
    ]);
    const twiceCaller = defined(incomingCalls(index, defined(scale.id)))[1];
    assert.equal(twiceCaller?.item.detail, 'impl Point', 'a calling method carries its impl too');
    const create = prepare(GEOM, 'fn new', 3);
    assert.deepEqual(summary(incomingCalls(index, defined(create.id))), [
      ['grow', 'function', APP, [7]],
      ['main', 'pipeline', APP, [13]],
      ['app.harn', 'file', APP, [16]],
      ['scale', 'method', GEOM, [4]],
    ]);
    assert.deepEqual(summary(incomingCalls(index, defined(prepare(APP, 'p.area', 2).id))), [['main', 'pipeline', APP, [14]]]);
  });

  test('outgoing calls: method calls that resolve beside function calls, in order of first call', () => {
    assert.deepEqual(summary(outgoingCalls(index, defined(prepare(APP, 'fn grow', 3).id))), [
      ['scale', 'method', GEOM, [6]],
      ['new', 'method', GEOM, [7]],
    ]);
    assert.deepEqual(summary(outgoingCalls(index, defined(prepare(APP, 'pipeline main', 9).id))), [
      ['new', 'method', GEOM, [13]],
      ['twice', 'method', GEOM, [14]],
      ['area', 'method', APP, [14]],
    ]);
    assert.deepEqual(summary(outgoingCalls(index, defined(prepare(GEOM, 'fn twice', 3).id))), [['scale', 'method', GEOM, [5]]]);
    assert.deepEqual(summary(outgoingCalls(index, defined(prepare(GEOM, 'fn scale', 3).id))), [['new', 'method', GEOM, [4]]]);
    assert.deepEqual(summary(topLevelCalls(index, APP)), [['new', 'method', GEOM, [16]]]);
  });

  test('a method of an impl whose type does not resolve: its declaration prepares, no call can be seen as its', () => {
    const text = 'impl Ghost { fn boo(self) { return 1 } }\nfn f(g: Ghost) { g.boo() }\n';
    const alone = memoryIndex({ '/ws/g.harn': text }).index;
    const boo = defined(prepareCallHierarchy(alone, '/ws/g.harn', offsetOf(text, 'boo(self', 0, 1)));
    assert.deepEqual([boo.name, boo.kind, boo.detail], ['boo', 'method', 'impl Ghost']);
    assert.deepEqual(incomingCalls(alone, defined(boo.id)), []);
  });

  test('a long impl head is cut to a short detail, by code points', () => {
    // A comment inside the head is part of it as written.
    const text = `struct P { x: int }\ninterface T { fn m(self) }\nimpl T /* ${'😀'.repeat(100)} */ for P { fn m(self) { return 1 } }\n`;
    const alone = memoryIndex({ '/ws/l.harn': text }).index;
    const m = defined(prepareCallHierarchy(alone, '/ws/l.harn', offsetOf(text, 'm(self) {', 0, 0)));
    const detail = defined(m.detail);
    assert.equal(Array.from(detail).length, 80);
    assert.ok(detail.startsWith('impl T /* 😀') && detail.endsWith('😀…'), detail);
    assert.doesNotMatch(detail, /[\uD800-\uDBFF](?![\uDC00-\uDFFF])/, 'no half surrogate pair');
  });

  test("an open document's index, re-indexed after an edit from its previous one, answers the same", () => {
    const open = memoryIndex(files).index;
    const before = new HarnAnalysis(defined(files[APP]));
    const first = indexFile(APP, before, { reusable: true });
    const editedText = before.text.replace('Point.new(1)', 'Point.new(10)');
    const second = indexFile(APP, HarnAnalysis.edited(before, editedText), { previous: first });
    open.set(second);
    assert.ok(second.reusedStatements > 0, 'the edit re-indexed one declaration');
    const create = defined(prepareCallHierarchy(open, GEOM, at(GEOM, 'fn new', 0, 3)));
    assert.deepEqual(summary(incomingCalls(open, defined(create.id))), summary(incomingCalls(index, defined(prepare(GEOM, 'fn new', 3).id))));
    const grow = defined(prepareCallHierarchy(open, APP, editedText.indexOf('fn grow') + 3));
    assert.deepEqual(
      summary(outgoingCalls(open, defined(grow.id))).map((e) => e[0]),
      ['scale', 'new'],
    );
  });
});
