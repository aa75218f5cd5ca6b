// Members in the workspace index (harn/index/members.ts): enum variants, struct fields and `impl` methods, found
// where their type is known statically (the type itself, a struct literal, a declared type), across files, and
// refused for rename where it is not.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { HarnAnalysis } from '../../server/src/harn/analysis';
import { indexFile, refAt } from '../../server/src/harn/index/fileIndex';
import { highlightsAt, referencesAt } from '../../server/src/harn/index/references';
import { prepareRenameAt, renameAt, RenameEdit } from '../../server/src/harn/index/rename';
import { memoryIndex, offsetOf } from '../support/harnIndex';

const SHAPES = '/ws/shapes.harn';
const MAIN = '/ws/main.harn';
const files: Record<string, string> = {
  [SHAPES]: [
    'pub enum Color {',
    '  Red,',
    '  Green',
    '}',
    'pub struct Point {',
    '  x: int',
    '  y: int',
    '}',
    'impl Point {',
    '  fn scale(self, k) { return Point { x: self.x * k, y: self.y * k } }',
    '}',
    'pub fn origin() -> Point { return Point { x: 0, y: 0 } }',
    '',
  ].join('\n'),
  [MAIN]: [
    'import { Color, Point, origin } from "./shapes"',
    'fn paint(c: Color) -> string {',
    '  match c {',
    '    Color.Red -> { return "red" }',
    '    Color.Green -> { return "green" }',
    '  }',
    '  return "?"',
    '}',
    'fn shift(p: Point) {',
    '  p.x = p.x + 1',
    '  let q = origin()',
    '  log(q.x)',
    '  return Point.scale(p, 2)',
    '}',
    'let red = Color.Red',
    '',
  ].join('\n'),
};
const { index, analysis } = memoryIndex(files);

/** The offset `within` characters into the `nth` occurrence of `needle` in `file`. */
const at = (file: string, needle: string, nth = 0, within = 0): number => offsetOf(files[file] ?? '', needle, nth, within);

/** The references at an offset, as `file:text@offset` (the text the range covers). */
function refs(file: string, offset: number, includeDeclaration = true): string[] {
  const found = referencesAt(index, file, offset, includeDeclaration);
  assert.ok(found, `references at ${file}:${offset}`);
  return found.map((r) => {
    const a = analysis(r.file);
    const start = a.lineIndex.offsetAt(r.range.start);
    return `${r.file.slice(4)}:${a.text.slice(start, a.lineIndex.offsetAt(r.range.end))}@${start}`;
  });
}

function applyEdits(edits: RenameEdit[]): Record<string, string> {
  const out: Record<string, string> = { ...files };
  for (const file of new Set(edits.map((e) => e.file))) {
    const a = analysis(file);
    const offsets = edits
      .filter((e) => e.file === file)
      .map((e) => ({ from: a.lineIndex.offsetAt(e.range.start), to: a.lineIndex.offsetAt(e.range.end), text: e.newText }));
    let text = a.text;
    for (const e of offsets.sort((x, y) => y.from - x.from)) text = text.slice(0, e.from) + e.text + text.slice(e.to);
    out[file] = text;
  }
  return out;
}

describe('harn index: members', () => {
  test('an enum variant: its declaration, `Color.Red` in match arms and expressions of the importing file', () => {
    const found = refs(MAIN, at(MAIN, 'Color.Red', 0, 7));
    assert.deepEqual(found, [
      `main.harn:Red@${at(MAIN, 'Color.Red', 0, 6)}`,
      `main.harn:Red@${at(MAIN, 'Color.Red', 1, 6)}`,
      `shapes.harn:Red@${at(SHAPES, 'Red')}`,
    ]);
    // Without the declaration; and the same answer from the declaration itself.
    assert.equal(refs(MAIN, at(MAIN, 'Color.Red', 0, 7), false).length, 2);
    assert.deepEqual(refs(SHAPES, at(SHAPES, 'Red', 0, 1)), found);
    // `Green` is another member.
    assert.equal(refs(MAIN, at(MAIN, 'Color.Green', 0, 7)).length, 2);
  });

  test('a struct field: declaration, struct literals, `self.x` in a method, `p.x` with `p: Point`; `q.x` is not found', () => {
    const found = refs(SHAPES, at(SHAPES, 'x: int'));
    const xs = found.map((f) => f.split('@')[0]);
    // shapes: the field, the two literals' keys and `self.x`; main: `p.x = …` and `p.x` read.
    assert.deepEqual(xs, ['main.harn:x', 'main.harn:x', 'shapes.harn:x', 'shapes.harn:x', 'shapes.harn:x', 'shapes.harn:x']);
    assert.ok(found.includes(`shapes.harn:x@${at(SHAPES, 'self.x', 0, 5)}`));
    // `q = origin()` has no declared type: `q.x` is not among them.
    assert.ok(!found.includes(`main.harn:x@${at(MAIN, 'q.x', 0, 2)}`));
    assert.ok(found.includes(`main.harn:x@${at(MAIN, 'p.x', 0, 2)}`));
    assert.equal(referencesAt(index, MAIN, at(MAIN, 'q.x', 0, 2), true), undefined);
  });

  test('a method of an `impl` block called as `Type.method(…)`', () => {
    const found = refs(MAIN, at(MAIN, 'Point.scale', 0, 7));
    assert.deepEqual(found, [`main.harn:scale@${at(MAIN, 'Point.scale', 0, 6)}`, `shapes.harn:scale@${at(SHAPES, 'scale')}`]);
  });

  test('document highlight: the assignment to a field is a write, its read is not', () => {
    const lights = highlightsAt(index, MAIN, at(MAIN, 'p.x', 0, 2));
    assert.ok(lights);
    assert.deepEqual(
      lights.map((h) => h.write),
      [true, false],
    );
  });

  test('rename of a variant and of a field renames exactly their occurrences, and the files parse as before', () => {
    const variant = renameAt(index, analysis(MAIN), MAIN, at(MAIN, 'Color.Red', 1, 7), 'Crimson');
    assert.ok(Array.isArray(variant));
    const renamed = applyEdits(variant);
    assert.match(renamed[SHAPES] ?? '', /^ {2}Crimson,$/m);
    assert.equal((renamed[MAIN] ?? '').match(/Color\.Crimson/g)?.length, 2);
    assert.doesNotMatch(renamed[MAIN] ?? '', /\bRed\b/);
    assert.match(renamed[MAIN] ?? '', /"red"/);

    const field = renameAt(index, analysis(SHAPES), SHAPES, at(SHAPES, 'x: int'), 'left');
    assert.ok(Array.isArray(field));
    const moved = applyEdits(field);
    assert.match(moved[MAIN] ?? '', /p\.left = p\.left \+ 1/);
    assert.match(moved[MAIN] ?? '', /log\(q\.x\)/);
    assert.match(moved[SHAPES] ?? '', /Point \{ left: 0, y: 0 \}/);
    assert.match(moved[SHAPES] ?? '', /Point \{ left: self\.left \* k, y: self\.y \* k \}/);
    for (const [file, source] of Object.entries(moved)) {
      assert.equal(new HarnAnalysis(source).parsed.diagnostics.length, analysis(file).parsed.diagnostics.length, `${file} parses as before`);
    }
  });

  test('rename refuses a member whose type is not declared, and a new name its type already has', () => {
    const refusal = prepareRenameAt(index, analysis(MAIN), MAIN, at(MAIN, 'q.x', 0, 2));
    assert.ok('refused' in refusal);
    assert.match(refusal.refused, /'x' is a member of a value whose type is not declared here/);
    const ok = prepareRenameAt(index, analysis(MAIN), MAIN, at(MAIN, 'p.x', 0, 2));
    assert.ok(!('refused' in ok));
    assert.equal(ok.placeholder, 'x');
    const clash = renameAt(index, analysis(MAIN), MAIN, at(MAIN, 'p.x', 0, 2), 'y');
    assert.ok(!Array.isArray(clash) && clash && 'refused' in clash);
    assert.match(clash.refused, /already has a member 'y'/);
    // A variable named like the new name is no collision for a member.
    const renamed = renameAt(index, analysis(MAIN), MAIN, at(MAIN, 'p.x', 0, 2), 'q');
    assert.ok(Array.isArray(renamed));
    assert.equal(renamed.length, 6);
  });

  test('re-indexing after an edit elsewhere shifts the member occurrences of the statements it reuses', () => {
    const local = 'fn f() {\n  return 1\n}\nenum E { A, B }\nstruct S { a: int }\nfn g(s: S) { return [E.A, s.a, S { a: 1 }] }\n';
    for (const text of [files[MAIN] ?? '', local]) {
      const before = new HarnAnalysis(text);
      const previous = indexFile(MAIN, before, { reusable: true });
      // Inside the first function: the statements after it are reused, shifted (the types they name moved too).
      const insertAt = text.indexOf('  return');
      const after = HarnAnalysis.edited(before, `${text.slice(0, insertAt)}  let pad = 1\n${text.slice(insertAt)}`);
      const next = indexFile(MAIN, after, { previous });
      assert.ok(next.reusedStatements > 0);
      const fresh = indexFile(MAIN, new HarnAnalysis(after.text));
      const members = (i: typeof fresh): unknown[] =>
        Array.from({ length: i.occurrenceCount }, (_, k) => k)
          .map((k) => ({ start: i.tables[k * 4], ref: refAt(i, (i.tables[k * 4 + 3] ?? 0) >> 1) }))
          .filter((o) => o.ref?.kind === 'member');
      assert.ok(members(fresh).length >= 6);
      assert.deepEqual(members(next), members(fresh));
    }
  });
});
