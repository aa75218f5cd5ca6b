// Call hierarchy, implementations, type definition and declaration for `.harn` files, across imports, with a
// broken declaration beside the ones asked about.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { HarnAnalysis } from '../../server/src/harn/analysis';
import { implementationsAt, incomingCalls, outgoingCalls, prepareCallHierarchy, topLevelCalls } from '../../server/src/harn/index/navigation';
import { resolveImport } from '../../server/src/harn/modules';
import { ModuleHost } from '../../server/src/harn/resolve';
import { declarationAt, typeDefinitionAt } from '../../server/src/harn/typeDefinition';
import { defined } from '../support/assertions';
import { memoryIndex, offsetOf } from '../support/harnIndex';

const LIB = '/ws/lib.harn';
const MAIN = '/ws/main.harn';

const files: Record<string, string> = {
  [LIB]: [
    'pub fn greet(name: string) -> string {',
    '  return shout(name)',
    '}',
    'fn shout(s) { return upper(s) }',
    'pub struct Point { x: int }',
    'pub interface Shape { fn area(self) -> int }',
    'impl Point { fn norm(self) { return shout("n") } }',
    '',
  ].join('\n'),
  [MAIN]: [
    'import { greet, Point, Shape } from "./lib"',
    'fn broken( {', // a syntax error in another declaration
    'impl Shape for Point { fn area(self) { return 0 } }',
    'fn main(p: Point, items: list<Point>) {',
    '  let a = greet("a")',
    '  let b = greet ("b")',
    '  let f = greet',
    '  let q: Point = nil',
    '  println(q, p, items)',
    '}',
    'greet("top")',
    '',
  ].join('\n'),
};

const { index, analysis } = memoryIndex(files);
const at = (file: string, needle: string, nth = 0, within = 1): number => offsetOf(defined(files[file], file), needle, nth, within);
const textOf = (file: string, range: { start: { line: number; character: number }; end: { line: number; character: number } }): string => {
  const a = analysis(file);
  return a.text.slice(a.lineIndex.offsetAt(range.start), a.lineIndex.offsetAt(range.end));
};
const host: ModuleHost = {
  resolveImport: (from, importPath) => resolveImport(from, importPath, ['/ws'], { isFile: (p) => Object.hasOwn(files, p), realpath: (p) => p }),
  load: (file) => (Object.hasOwn(files, file) ? analysis(file) : undefined),
};

describe('harn call hierarchy', () => {
  test('prepare on a call site or a declaration gives the function; on a variable, nothing', () => {
    const fromCall = defined(prepareCallHierarchy(index, MAIN, at(MAIN, 'greet("a")')));
    assert.equal(fromCall.name, 'greet');
    assert.equal(fromCall.file, LIB);
    assert.equal(fromCall.kind, 'function');
    assert.equal(textOf(LIB, fromCall.selectionRange), 'greet');
    assert.ok(textOf(LIB, fromCall.range).startsWith('pub fn greet'));
    assert.deepEqual(prepareCallHierarchy(index, LIB, at(LIB, 'greet(name')), fromCall);
    assert.equal(prepareCallHierarchy(index, MAIN, at(MAIN, 'let q', 0, 4)), undefined);
  });

  test('incoming calls across files, grouped by caller, a top-level call under its file; a mere reference is no call', () => {
    const greet = defined(prepareCallHierarchy(index, LIB, at(LIB, 'greet(name')));
    const edges = defined(incomingCalls(index, defined(greet.id)));
    assert.deepEqual(
      edges.map((e) => [e.item.name, e.item.kind, e.fromRanges.map((r) => r.start.line)]),
      [
        ['main', 'function', [4, 5]],
        ['main.harn', 'file', [10]],
      ],
    );
    const shout = defined(prepareCallHierarchy(index, LIB, at(LIB, 'shout(s')));
    assert.deepEqual(
      defined(incomingCalls(index, defined(shout.id))).map((e) => [e.item.name, e.item.file]),
      [
        ['greet', LIB],
        ['norm', LIB],
      ],
    );
  });

  test('outgoing calls: each callee once with its call sites; builtins have nowhere to go', () => {
    const main = defined(prepareCallHierarchy(index, MAIN, at(MAIN, 'main(')));
    const edges = outgoingCalls(index, defined(main.id));
    assert.deepEqual(
      edges.map((e) => [e.item.name, e.item.file, e.fromRanges.length]),
      [['greet', LIB, 2]],
    );
    const greet = defined(prepareCallHierarchy(index, LIB, at(LIB, 'greet(name')));
    assert.deepEqual(
      outgoingCalls(index, defined(greet.id)).map((e) => e.item.name),
      ['shout'],
    );
    assert.deepEqual(
      topLevelCalls(index, MAIN).map((e) => [e.item.name, e.fromRanges.map((r) => r.start.line)]),
      [['greet', [10]]],
      "a file's top-level calls, not those in its functions",
    );
    const norm = defined(prepareCallHierarchy(index, LIB, at(LIB, 'norm(')), 'a method, at its declaration');
    assert.deepEqual([norm.name, norm.kind, textOf(LIB, norm.selectionRange)], ['norm', 'method', 'norm']);
    assert.deepEqual(
      outgoingCalls(index, defined(norm.id)).map((e) => e.item.name),
      ['shout'],
    );
  });
});

describe('harn implementation', () => {
  test('the impl blocks of a type, across files, and of an interface', () => {
    const ofPoint = defined(implementationsAt(index, MAIN, at(MAIN, 'for Point', 0, 5)));
    assert.deepEqual(ofPoint.map((i) => [i.file, textOf(i.file, i.range).slice(0, 20)]).sort(), [
      [LIB, 'impl Point { fn norm'],
      [MAIN, 'impl Shape for Point'],
    ]);
    const ofShape = defined(implementationsAt(index, LIB, at(LIB, 'Shape {')));
    assert.deepEqual(
      ofShape.map((i) => [i.file, i.range.start.line]),
      [[MAIN, 2]],
    );
    assert.equal(implementationsAt(index, LIB, at(LIB, 'greet(name')), undefined, 'a function has no impl blocks');
    const nested = 'pipeline p(task) {\n  struct Box { v: int }\n  impl Box { fn get(self) { return self.v } }\n}\n';
    const inPipeline = memoryIndex({ '/ws/n.harn': nested }).index;
    assert.deepEqual(
      defined(implementationsAt(inPipeline, '/ws/n.harn', offsetOf(nested, 'Box {', 0, 1))).map((i) => i.range.start.line),
      [2],
      'an impl declared inside a pipeline',
    );
  });
});

describe('harn type definition and declaration', () => {
  test("a variable's and a parameter's declared type, through `list<…>` and imports; a type is its own", () => {
    const a = analysis(MAIN);
    const targets = (offset: number): string[] => typeDefinitionAt(a, MAIN, offset, host).map((d) => `${d.file}:${files[d.file]?.slice(d.start, d.end)}`);
    assert.deepEqual(targets(at(MAIN, 'println(q', 0, 8)), [`${LIB}:Point`]);
    assert.deepEqual(targets(at(MAIN, 'p, items', 0, 0)), [`${LIB}:Point`]);
    assert.deepEqual(targets(at(MAIN, 'items)')), [`${LIB}:Point`]);
    assert.deepEqual(targets(at(MAIN, ': Point,', 0, 2)), [`${LIB}:Point`]);
    assert.deepEqual(targets(at(MAIN, 'let a', 0, 4)), [], 'no annotation, no type definition');
  });

  test('an imported name is declared by its import; anything else by its definition', () => {
    const a = analysis(MAIN);
    const greetDecl = defined(declarationAt(a, MAIN, at(MAIN, 'greet("a")'), host));
    assert.equal(greetDecl.file, MAIN);
    assert.equal(greetDecl.start, at(MAIN, 'greet,', 0, 0));
    const qDecl = defined(declarationAt(a, MAIN, at(MAIN, 'println(q', 0, 8), host));
    assert.equal(qDecl.start, at(MAIN, 'q: Point', 0, 0));
    const crlf = new HarnAnalysis('struct P { x: int }\r\nfn f(v: P) { return v }\r\n');
    const located = typeDefinitionAt(crlf, '/ws/c.harn', crlf.text.indexOf('v }'), host);
    assert.deepEqual(
      located.map((d) => d.start),
      [7],
    );
  });
});
