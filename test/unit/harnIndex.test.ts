// The workspace index (server/src/harn/index/): what each file contributes, and references, document highlights,
// rename and workspace symbols over it, across imports, namespace members and `pub import` re-exports, with a
// broken declaration beside the one asked about.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { HarnAnalysis } from '../../server/src/harn/analysis';
import * as A from '../../server/src/harn/ast';
import {
  allOccurrences,
  FileIndex,
  indexFile,
  indexText,
  mentions,
  nameHash,
  Occurrence,
  occurrenceAt,
  occurrencesNamed,
  rangeOf,
} from '../../server/src/harn/index/fileIndex';
import { highlightsAt, referencesAt } from '../../server/src/harn/index/references';
import { prepareRenameAt, renameAt, RenameEdit } from '../../server/src/harn/index/rename';
import { fuzzyScore, workspaceSymbols } from '../../server/src/harn/index/symbols';
import { parse } from '../../server/src/harn/parser';
import { buildScopes, resolveName, Scope } from '../../server/src/harn/scope';
import { corpusFiles, corpusSkip, readCorpus } from '../support/corpus';
import { memoryIndex, offsetOf } from '../support/harnIndex';

const LIB = '/ws/lib.harn';
const MID = '/ws/mid.harn';
const MAIN = '/ws/main.harn';
const NS = '/ws/ns.harn';
const WILD = '/ws/wild.harn';

const files: Record<string, string> = {
  [LIB]: [
    'pub fn greet(name: string) -> string {',
    '  let greeting = "hi " + name',
    '  return greeting',
    '}',
    'pub struct Point { x: int }',
    'fn helper() { return greet("x") }',
    '',
  ].join('\n'),
  [MID]: ['pub import { greet } from "./lib"', ''].join('\n'),
  [MAIN]: [
    'import { greet } from "./mid"',
    'fn broken( {', // a syntax error in another declaration
    'fn main() {',
    '  var count = 0',
    '  count = count + 1',
    '  let p: Point = nil',
    '  println(greet("a"))',
    '  println(len("abc"))',
    '}',
    '',
  ].join('\n'),
  [NS]: ['import * as lib from "./lib"', 'let s = lib.greet("n")', 'let greet = 1', ''].join('\n'),
  [WILD]: ['import "./lib"', 'let t = greet("w")', 'let q: Point = nil', ''].join('\n'),
};

const { index, analysis } = memoryIndex(files);
const at = (file: string, needle: string, nth = 0): number => offsetOf(files[file] ?? '', needle, nth, 1);
const text = (file: string, range: { start: { line: number; character: number }; end: { line: number; character: number } }): string => {
  const a = analysis(file);
  return a.text.slice(a.lineIndex.offsetAt(range.start), a.lineIndex.offsetAt(range.end));
};

describe('harn index: what a file contributes', () => {
  test('declarations, references, imports and exports, also from a broken file', () => {
    const main = index.get(MAIN);
    assert.ok(main);
    assert.deepEqual(main.importPaths, ['./mid']);
    assert.deepEqual(
      occurrencesNamed(main, 'count').map((o) => o.write),
      [true, true, false],
      'the declaration and the assignment target write; the read reads',
    );
    const lib = index.get(LIB);
    assert.deepEqual([...(lib?.exports.keys() ?? [])].sort(), ['Point', 'greet']);
    assert.deepEqual(index.get(MID)?.exports.get('greet'), { kind: 'reexported', modulePath: './lib' });
    assert.deepEqual(index.get(WILD)?.wildcardImports, ['./lib']);
    assert.ok(main.declarations.some((d) => d.name === 'main' && d.topLevel));
  });

  test('a CRLF file with a BOM gives UTF-16 ranges on the right lines', () => {
    const source = '\uFEFFfn a() {}\r\nfn b() { a() }\r\nlet x = "😀" + a\r\n';
    const fileIndex = indexFile('/ws/crlf.harn', new HarnAnalysis(source));
    const ranges = occurrencesNamed(fileIndex, 'a').map((o) => rangeOf(fileIndex, o));
    assert.deepEqual(
      ranges.map((r) => r.start.line),
      [0, 1, 2],
    );
    assert.equal(ranges[2]?.start.character, 15, 'the emoji counts two UTF-16 units');
  });
});

describe('harn index: references', () => {
  test('a function: its declaration, its uses in the file, the re-export, and every importer (named, namespace, wildcard)', () => {
    const refs = referencesAt(index, MAIN, at(MAIN, 'greet("a")'), true);
    assert.ok(refs);
    const where = refs.map((r) => `${r.file}:${r.range.start.line}:${text(r.file, r.range)}${r.isDeclaration ? ' (decl)' : ''}`);
    assert.deepEqual(where, [
      '/ws/lib.harn:0:greet (decl)',
      '/ws/lib.harn:5:greet',
      '/ws/main.harn:0:greet',
      '/ws/main.harn:6:greet',
      '/ws/mid.harn:0:greet',
      '/ws/ns.harn:1:greet',
      '/ws/wild.harn:1:greet',
    ]);
    // ns.harn's own `let greet` is another binding.
    const withoutDecl = referencesAt(index, LIB, at(LIB, 'greet'), false);
    assert.equal(withoutDecl?.length, 6);
  });

  test('a local variable stays in its function; a type name is followed into type annotations', () => {
    const local = referencesAt(index, LIB, at(LIB, 'greeting', 1), true);
    assert.deepEqual(
      local?.map((r) => r.range.start.line),
      [1, 2],
    );
    const point = referencesAt(index, WILD, at(WILD, 'Point'), true);
    assert.deepEqual(
      point?.map((r) => `${r.file}:${r.range.start.line}`),
      ['/ws/lib.harn:4', '/ws/wild.harn:2'],
      "main.harn's Point is not imported: not lib's",
    );
  });

  test('a builtin: its uses; nothing at all where there is no name', () => {
    assert.deepEqual(
      referencesAt(index, MAIN, at(MAIN, 'len'), true)?.map((r) => r.file),
      [MAIN],
    );
    assert.equal(referencesAt(index, MAIN, offsetOf(files[MAIN] ?? '', '"abc"', 0, 2), true), undefined);
  });

  test('stops when asked to (cancellation)', () => {
    assert.equal(
      referencesAt(index, LIB, at(LIB, 'greet'), true, () => true),
      undefined,
    );
  });
});

describe('harn index: document highlight', () => {
  test('read and write kinds, only in the file, only the same binding', () => {
    const highlights = highlightsAt(index, MAIN, at(MAIN, 'count', 1));
    assert.deepEqual(
      highlights?.map((h) => [h.range.start.line, h.write]),
      [
        [3, true],
        [4, true],
        [4, false],
      ],
    );
    const nsLocal = highlightsAt(index, NS, at(NS, 'greet', 1));
    assert.deepEqual(
      nsLocal?.map((h) => h.range.start.line),
      [2],
      "ns.harn's `let greet` is not lib's greet",
    );
  });
});

function applyEdits(edits: RenameEdit[]): Record<string, string> {
  const out: Record<string, string> = { ...files };
  const byFile = new Map<string, RenameEdit[]>();
  for (const e of edits) byFile.set(e.file, [...(byFile.get(e.file) ?? []), e]);
  for (const [file, list] of byFile) {
    const a = analysis(file);
    let result = a.text;
    for (const e of [...list].sort((x, y) => a.lineIndex.offsetAt(y.range.start) - a.lineIndex.offsetAt(x.range.start))) {
      result = result.slice(0, a.lineIndex.offsetAt(e.range.start)) + e.newText + result.slice(a.lineIndex.offsetAt(e.range.end));
    }
    out[file] = result;
  }
  return out;
}

describe('harn index: rename', () => {
  test('prepareRename gives the name and its range; refuses keywords, builtins, strings and unresolved names', () => {
    const target = prepareRenameAt(index, analysis(MAIN), MAIN, at(MAIN, 'greet("a")'));
    assert.ok(!('refused' in target));
    assert.equal(target.placeholder, 'greet');
    const refusal = (file: string, offset: number): string => {
      const r = prepareRenameAt(index, analysis(file), file, offset);
      assert.ok('refused' in r, `refused at ${offset}`);
      return r.refused;
    };
    assert.match(refusal(MAIN, at(MAIN, 'len')), /'len' is a builtin/);
    assert.match(refusal(MAIN, at(MAIN, 'fn main')), /'fn' is a keyword/);
    assert.match(refusal(MAIN, offsetOf(files[MAIN] ?? '', '"abc"', 0, 2)), /string cannot be renamed/);
    const danglingText = 'import { gone } from "./missing"\nlet y = gone\n';
    const dangling = memoryIndex({ '/ws/d.harn': danglingText });
    const r = prepareRenameAt(dangling.index, dangling.analysis('/ws/d.harn'), '/ws/d.harn', offsetOf(danglingText, 'gone', 1, 1));
    assert.ok('refused' in r);
    assert.match(r.refused, /'gone' is not declared in the workspace/);
  });

  test('renames across files, through the re-export, and every rewritten file parses as before', () => {
    const edits = renameAt(index, analysis(MID), MID, at(MID, 'greet'), 'salute');
    assert.ok(Array.isArray(edits));
    assert.equal(edits.length, 7);
    const renamed = applyEdits(edits);
    for (const [file, source] of Object.entries(renamed)) {
      const before = new HarnAnalysis(files[file] ?? '').parsed.diagnostics.length;
      assert.equal(new HarnAnalysis(source).parsed.diagnostics.length, before, `${file} parses as before`);
    }
    assert.match(renamed[LIB] ?? '', /pub fn salute\(name/);
    assert.match(renamed[LIB] ?? '', /return salute\("x"\)/);
    assert.match(renamed[NS] ?? '', /lib\.salute\("n"\)\nlet greet = 1/);
    assert.equal(renamed[WILD], 'import "./lib"\nlet t = salute("w")\nlet q: Point = nil\n');
    const again = memoryIndex(renamed);
    assert.equal(referencesAt(again.index, LIB, at(LIB, 'greet'), true)?.length, 7, 'the renamed declaration keeps all its references');
  });

  test('refuses a new name that is not an identifier, a keyword, or already used where the rename reaches', () => {
    const refused = (file: string, offset: number, newName: string): string => {
      const r = renameAt(index, analysis(file), file, offset, newName);
      assert.ok(r && 'refused' in r, `${newName} refused`);
      return r.refused;
    };
    assert.match(refused(LIB, at(LIB, 'greet'), '1abc'), /not a Harn identifier/);
    assert.match(refused(LIB, at(LIB, 'greet'), 'while'), /keyword/);
    // helper is declared in lib.harn, which the rename touches.
    assert.match(refused(LIB, at(LIB, 'greet'), 'helper'), /'helper' is already used in ws\/lib\.harn at line 6/);
    // A local rename meets a parameter of the same function.
    assert.match(refused(LIB, at(LIB, 'greeting'), 'name'), /already used/);
    // The same local name in another function is no collision.
    const twoFns = memoryIndex({ '/ws/t.harn': 'fn a() { let v = 1\n return v }\nfn b() { let w = 2\n return w }\n' });
    const ok = renameAt(twoFns.index, twoFns.analysis('/ws/t.harn'), '/ws/t.harn', 14, 'w');
    assert.ok(Array.isArray(ok) && ok.length === 2);
  });

  test('refuses a name another wildcard import already brings into a touched file', () => {
    const clash = memoryIndex({
      '/ws/a.harn': 'pub fn one() {}\n',
      '/ws/b.harn': 'pub fn two() {}\n',
      '/ws/c.harn': 'import "./a"\nimport "./b"\nlet x = one()\n',
    });
    const r = renameAt(clash.index, clash.analysis('/ws/a.harn'), '/ws/a.harn', 8, 'two');
    assert.ok(r && 'refused' in r);
    assert.match(r.refused, /ws\/c\.harn already sees a 'two' from ws\/b\.harn through a wildcard import/);
  });

  test('refuses a name that a file seeing the declaration through a wildcard import, without naming it, already uses', () => {
    const unseen = memoryIndex({
      '/ws/a.harn': 'pub fn one() {}\n',
      '/ws/b.harn': 'pub fn two() {}\n',
      '/ws/d.harn': 'import "./a"\nimport "./b"\nlet y = two()\n',
    });
    const r = renameAt(unseen.index, unseen.analysis('/ws/a.harn'), '/ws/a.harn', 8, 'two');
    assert.ok(r && 'refused' in r);
    assert.match(r.refused, /ws\/d\.harn sees 'one' through a wildcard import and already uses a 'two'/);
    const fine = renameAt(unseen.index, unseen.analysis('/ws/a.harn'), '/ws/a.harn', 8, 'three');
    assert.ok(Array.isArray(fine) && fine.length === 1);
  });
});

describe('harn index: workspace symbols', () => {
  test('fuzzy, ranked: exact, prefix, humps, substring, subsequence', () => {
    assert.ok((fuzzyScore('gus', 'get_user_session') ?? 0) > (fuzzyScore('gus', 'bogus_value') ?? 0));
    assert.ok((fuzzyScore('gU', 'getUser') ?? 0) > (fuzzyScore('gU', 'aging_user') ?? 0));
    assert.ok((fuzzyScore('get', 'getUser') ?? 0) > (fuzzyScore('get', 'forget') ?? 0));
    assert.equal(fuzzyScore('xyz', 'getUser'), undefined);
    const names = ['forget_it', 'getUser', 'get', 'get_user_id', 'target'];
    const files2 = Object.fromEntries(names.map((n, i) => [`/ws/s${i}.harn`, `fn ${n}() {}\n`]));
    const found = workspaceSymbols(memoryIndex(files2).index, 'get');
    assert.deepEqual(
      found?.map((m) => m.symbol.name),
      ['get', 'getUser', 'get_user_id', 'target', 'forget_it'],
    );
    const humps = workspaceSymbols(memoryIndex(files2).index, 'gui');
    assert.deepEqual(
      humps?.map((m) => m.symbol.name),
      ['get_user_id'],
    );
  });

  test('methods and fields have their container; local variables and imports are left out', () => {
    const { index: symbolsIndex } = memoryIndex({
      '/ws/m.harn': 'import { x } from "./n"\nstruct Box { size: int }\nimpl Box {\n  fn open(self) { let inner = 1 }\n}\n',
    });
    const all = workspaceSymbols(symbolsIndex, '');
    assert.deepEqual(all?.map((m) => `${m.symbol.name}:${m.symbol.kind}:${m.symbol.container ?? ''}`).sort(), [
      'Box:impl:',
      'Box:struct:',
      'open:method:Box',
      'size:field:Box',
    ]);
  });
});

describe('harn index: one pass building the scopes and reading the names', { skip: corpusSkip }, () => {
  // Each corpus file whole, and cut in half (a broken file: unclosed blocks, a declaration read partly).
  const sources = (): Array<[string, string]> =>
    corpusFiles().flatMap((relative): Array<[string, string]> => {
      const text = readCorpus(relative);
      return [
        [relative, text],
        [`${relative} (first half)`, text.slice(0, text.length >> 1)],
      ];
    });

  test('the visitor of buildScopes sees every node of the tree exactly once, and the scopes are the same', () => {
    let nodes = 0;
    for (const [name, text] of sources()) {
      const file = parse(text).file;
      const seen = new Map<A.AnyNode, number>();
      const scopes = buildScopes(file, (node) => seen.set(node, (seen.get(node) ?? 0) + 1));
      let walked = 0;
      A.walk(file, (node) => {
        walked++;
        if (seen.get(node) !== 1) assert.fail(`${name}: ${node.kind} at ${node.start} seen ${seen.get(node) ?? 0} times`);
      });
      assert.equal(seen.size, walked, `${name}: the visitor saw nodes the walk does not reach`);
      nodes += walked;
      assert.deepEqual(scopeShape(scopes.root), scopeShape(buildScopes(file).root), name);
      // The resolvers find a child scope by binary search: siblings in source order, none inside another.
      const inOrder = (scope: Scope): boolean =>
        scope.children.every((c, i) => i === 0 || (scope.children[i - 1] as Scope).end <= c.start) && scope.children.every(inOrder);
      assert.ok(inOrder(scopes.root), `${name}: child scopes in source order`);
    }
    assert.ok(nodes > 100_000, `${nodes} nodes`);
  });

  test("resolved statement by statement, every local occurrence is what scope.ts's resolveName gives over the whole file", () => {
    let checked = 0;
    for (const [name, text] of sources()) {
      const analysis = new HarnAnalysis(text);
      const index = indexFile('/f.harn', analysis);
      const declared = new Set(index.declarations.map((d) => d.start));
      for (const o of allOccurrences(index)) {
        if (o.ref.kind !== 'local') continue;
        checked++;
        // A declaration is its own ref; a reference's is the binding resolveName finds from its offset.
        const expected = declared.has(o.start) ? o.start : resolveName(analysis.scopes, o.name, o.start)?.nameNode.start;
        if (o.ref.declStart !== expected) assert.fail(`${name}: ${o.name} at ${o.start} refers to ${o.ref.declStart}, resolveName says ${expected}`);
      }
      const sorted = allOccurrences(index).every((o, i, all) => i === 0 || (all[i - 1] as Occurrence).start <= o.start);
      assert.ok(sorted, `${name}: occurrences in source order`);
    }
    assert.ok(checked > 10_000, `${checked} local occurrences`);
  });

  test("every name the index reads back (from the text where it was, by its hash) is the tree's", () => {
    let checked = 0;
    for (const [name, text] of sources()) {
      const analysis = new HarnAnalysis(text);
      const index = indexFile('/f.harn', analysis);
      // Every identifier and name of the tree that the index holds an occurrence for bears the tree's text.
      A.walk(analysis.file, (node) => {
        const tree = node.kind === 'Identifier' ? node.name : node.kind === 'Name' ? node.text : undefined;
        if (tree === undefined) return;
        const o = occurrenceAt(index, node.start);
        if (!o || o.start !== node.start || o.end !== node.end) return;
        checked++;
        if (o.name !== tree) assert.fail(`${name}: the occurrence at ${node.start} reads ${JSON.stringify(o.name)}, the tree ${JSON.stringify(tree)}`);
      });
      for (const o of allOccurrences(index)) {
        if (!mentions(index, o.name) || !occurrencesNamed(index, o.name).some((x) => x.start === o.start))
          assert.fail(`${name}: ${o.name} at ${o.start} is not found by its name`);
      }
      for (const d of index.declarations) assert.equal(d.name, occurrenceAt(index, d.start)?.name, `${name}: the declaration at ${d.start}`);
    }
    assert.ok(checked > 30_000, `${checked} names`);
  });

  test("a file read from disk, parsed lean (no docs, no comments, no string values nor plain strings' parts but module paths), is indexed as from the full tree", () => {
    const contents = (index: FileIndex): unknown => ({
      tables: Array.from(index.tables),
      spelled: [...index.spelled],
      namesApart: index.namesApart,
      otherRefs: index.otherRefs,
      exports: [...index.exports],
      imports: [index.importPaths, index.wildcardImports, index.pubWildcardImports],
      declarations: index.declarations,
      symbols: index.symbols,
    });
    let withDocs = 0;
    let withLineBreaks = 0;
    for (const [name, text] of sources()) {
      const full = parse(text);
      const lean = parse(text, { lean: true });
      A.walk(full.file, (node) => {
        if ('doc' in node && node.doc !== undefined) withDocs++;
        if (node.kind === 'String' && node.value?.includes('\n')) withLineBreaks++;
      });
      assert.equal(lean.diagnostics.length, full.diagnostics.length, name);
      assert.deepEqual(contents(indexText('/f.harn', text)), contents(indexFile('/f.harn', new HarnAnalysis(text))), name);
    }
    // The corpus has what a lean parse leaves out (the test would not tell otherwise).
    assert.ok(withDocs > 300 && withLineBreaks > 100, `${withDocs} docs, ${withLineBreaks} strings whose value holds a line break`);
  });

  test('indexes of files read from disk, whose tables share blocks, keep them as made while others are made after', () => {
    const kept = sources().map(([name, text]) => ({ name, text, index: indexFile('/f.harn', new HarnAnalysis(text)) }));
    const shared = new Set(kept.map((k) => k.index.tables.buffer));
    assert.ok(shared.size < kept.length / 4, `${kept.length} indexes in ${shared.size} blocks`);
    for (const { name, text, index } of kept) {
      // An index kept for a next version has tables of its own: the same integers.
      const own = indexFile('/f.harn', new HarnAnalysis(text), { reusable: true });
      assert.notEqual(own.tables.buffer, index.tables.buffer);
      assert.deepEqual(Array.from(index.tables), Array.from(own.tables), name);
    }
  });
});

/** A scope tree as plain data (bindings by name, kind and offset). */
function scopeShape(scope: Scope): unknown {
  return {
    start: scope.start,
    end: scope.end,
    bindings: scope.bindings.map((b) => `${b.kind} ${b.name}@${b.nameNode.start}>${b.visibleFrom}`),
    children: scope.children.map(scopeShape),
  };
}

describe('harn index: tables of files read from disk', () => {
  test('a file too large to share a block, then small files: each keeps its own tables and answers', () => {
    const large = Array.from({ length: 1000 }, (_, i) => `fn f${i}(a) { return g${i}(a) }`).join('\n');
    const small = 'fn lonely(x) { return x }\n';
    const big = indexText('/ws/large.harn', large);
    const after = [indexText('/ws/a.harn', small), indexText('/ws/b.harn', small)];
    // Larger than an eighth of a block but smaller than one: a block of its own, which the next files do not write into.
    assert.ok(big.tables.length * 8 > 1 << 16 && big.tables.length < 1 << 16, `${big.tables.length} integers`);
    assert.notEqual(after[0]?.tables.buffer, big.tables.buffer);
    assert.equal(occurrencesNamed(big, 'f999').length, 1);
    assert.equal(occurrencesNamed(big, 'g17').length, 1);
    for (const index of after) {
      assert.equal(mentions(index, 'lonely'), true);
      assert.equal(mentions(index, 'f1'), false);
      assert.deepEqual(
        occurrencesNamed(index, 'x').map((o) => o.start),
        [small.indexOf('x'), small.lastIndexOf('x')],
      );
    }
  });
});

describe('harn index: names', () => {
  test('a name written otherwise than it reads (`m . Thing`) is read back as the tree has it, and found by it', () => {
    const text = 'import * as m from "./m"\nfn h(v: m . Thing) -> m.Thing { return v }\n';
    const index = indexFile('/ws/a.harn', new HarnAnalysis(text));
    const found = occurrencesNamed(index, 'm.Thing').map((o) => text.slice(o.start, o.end));
    assert.deepEqual(found, ['m . Thing', 'm.Thing']);
    assert.deepEqual(occurrencesNamed(index, 'm . Thing'), []);
    assert.equal(occurrenceAt(index, text.indexOf('m . Thing'))?.name, 'm.Thing');
  });

  test('two names sharing a hash are told apart: neither is mentioned where only the other is', () => {
    // Found by search: FNV-1a of these two, kept to 31 bits, is the same.
    assert.equal(nameHash('n36hv'), nameHash('nadhe'));
    const index = indexFile('/ws/a.harn', new HarnAnalysis('fn n36hv() {}\nfn main() { n36hv() }\n'));
    assert.equal(mentions(index, 'n36hv'), true);
    assert.equal(mentions(index, 'nadhe'), false);
    assert.deepEqual(occurrencesNamed(index, 'nadhe'), []);
    assert.equal(occurrencesNamed(index, 'n36hv').length, 2);
  });

  test('two names sharing a hash in one file: each finds its own occurrences only', () => {
    const text = 'fn n36hv() {}\nfn nadhe() { n36hv() }\nfn main() { nadhe()\n n36hv() }\n';
    const index = indexFile('/ws/a.harn', new HarnAnalysis(text));
    assert.equal(index.namesApart, false);
    assert.deepEqual(
      occurrencesNamed(index, 'nadhe').map((o) => o.start),
      [text.indexOf('nadhe'), text.indexOf('nadhe()\n')],
    );
    assert.equal(occurrencesNamed(index, 'n36hv').length, 3);
    assert.equal(indexFile('/ws/b.harn', new HarnAnalysis('fn n36hv() {}\nfn main() { n36hv() }\n')).namesApart, true);
  });
});

describe('harn index: namespaces re-exported by `pub import * as`', () => {
  const STD = '/ws/crates/harn-stdlib/src/stdlib';
  const nsFiles: Record<string, string> = {
    [`${STD}/ui.harn`]: 'pub fn page(title) { return title }\npub import * as forms from "./ui/forms"\n',
    [`${STD}/ui/forms.harn`]: 'pub fn field(name) { return name }\n',
    '/ws/main.harn': 'import * as ui from "std/ui"\nlet p = ui.page("t")\nlet f = ui.forms.field("x")\nfn broken( {\n',
  };
  const { index: nsIndex, analysis: nsAnalysis } = memoryIndex(nsFiles);

  test("`ui.forms.field` is a reference to forms.harn's field, and renamed with it", () => {
    const main = nsFiles['/ws/main.harn'] ?? '';
    const refs = referencesAt(nsIndex, '/ws/main.harn', offsetOf(main, 'field', 0, 1), true);
    assert.deepEqual(
      refs?.map((r) => `${r.file.replace(STD, 'std')}:${r.range.start.line}`),
      ['std/ui/forms.harn:0', '/ws/main.harn:2'],
    );
    const forms = referencesAt(nsIndex, '/ws/main.harn', offsetOf(main, 'forms', 0, 1), true);
    assert.deepEqual(
      forms?.map((r) => `${r.file.replace(STD, 'std')}:${r.range.start.line}`),
      ['std/ui.harn:1', '/ws/main.harn:2'],
      'the namespace name itself',
    );
    const edits = renameAt(nsIndex, nsAnalysis(`${STD}/ui/forms.harn`), `${STD}/ui/forms.harn`, 8, 'input');
    assert.ok(Array.isArray(edits));
    assert.deepEqual(edits.map((e) => `${e.file.replace(STD, 'std')}:${e.range.start.line}:${e.range.start.character}`).sort(), [
      '/ws/main.harn:2:17',
      'std/ui/forms.harn:0:7',
    ]);
  });
});
