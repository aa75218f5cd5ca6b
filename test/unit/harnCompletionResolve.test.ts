// Completion resolve for .harn (harn/completion.ts): each item carries only its source, and resolveCompletion finds
// the same detail and documentation from it later (local, imported, builtin, variant, keyword), still after the file
// was edited above the declaration, and none once the name is no longer declared there.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { HarnAnalysis } from '../../server/src/harn/analysis';
import { Completion, CompletionSource, completionsAt, resolveCompletion } from '../../server/src/harn/completion';
import { memoryHost } from '../support/memoryHost';

const LIB = `/** Greets someone. */
pub fn greet(name: string) -> string { return name }
/** Colours. */
pub enum Color {
  /** The red one. */
  Red,
  Green
}
`;

const MAIN = `import { greet, Color } from "./lib"
fn broken() { let x = ) }
/** Adds. */
fn add(a: int, b: int) -> int { return a }
pipeline main(task) {
  let total = add(1, 2)
  CURSOR
}
`;

const files = { '/ws/lib.harn': LIB, '/ws/main.harn': MAIN.replace('CURSOR', '') };

/** The items at `CURSOR` (the word removed), else at the end. */
function itemsAt(source: string): Completion[] {
  const at = source.indexOf('CURSOR');
  const text = at < 0 ? source : source.replace('CURSOR', '');
  return completionsAt(new HarnAnalysis(text), '/ws/main.harn', at < 0 ? text.length : at, memoryHost({ ...files, '/ws/main.harn': text }), '/ws');
}

const byLabel = (items: Completion[], label: string): Completion => {
  const found = items.find((c) => c.label === label);
  assert.ok(found, `${label} offered`);
  return found;
};

describe('completion resolve', () => {
  test('every item resolves from its source to the details it would have carried', () => {
    const host = memoryHost(files);
    const items = [...itemsAt(MAIN), ...itemsAt(MAIN.replace('CURSOR', 'Color.CURSOR'))];
    for (const label of ['add', 'total', 'task', 'greet', 'Color', 'len', 'let', 'Red', 'Green'])
      assert.ok(
        items.some((c) => c.label === label),
        label,
      );
    for (const c of items) {
      const resolved = resolveCompletion(JSON.parse(JSON.stringify(c.source)) as CompletionSource, '/ws/main.harn', host, '/ws');
      assert.deepEqual(resolved, { detail: c.detail, documentation: c.documentation }, c.label);
    }
    const add = resolveCompletion(byLabel(itemsAt(MAIN), 'add').source, '/ws/main.harn', host, '/ws');
    assert.equal(add.detail, 'fn add(a: int, b: int) -> int');
    assert.match(add.documentation ?? '', /Adds\./);
    const greet = resolveCompletion(byLabel(itemsAt(MAIN), 'greet').source, '/ws/main.harn', host, '/ws');
    assert.match(greet.documentation ?? '', /Greets someone\.[\s\S]*from `lib\.harn`/);
    const red = resolveCompletion(byLabel(itemsAt(MAIN.replace('CURSOR', 'Color.CURSOR')), 'Red').source, '/ws/main.harn', host, '/ws');
    assert.equal(red.documentation, 'The red one.');
    const len = resolveCompletion({ kind: 'builtin', name: 'len' }, '/ws/main.harn', host);
    assert.match(len.detail ?? '', /len\(/);
    assert.deepEqual(resolveCompletion({ kind: 'keyword' }, '/ws/main.harn', host), { detail: undefined, documentation: undefined });
  });

  test('after an edit above the declaration, the nearest declaration of the name; none when it is gone', () => {
    const source = byLabel(itemsAt(MAIN), 'add').source;
    const edited = '// a new first line\n' + files['/ws/main.harn'].replace('fn add(a: int, b: int)', 'fn add(a: int, b: int, c: int)');
    const moved = resolveCompletion(source, '/ws/main.harn', memoryHost({ ...files, '/ws/main.harn': edited }), '/ws');
    assert.equal(moved.detail, 'fn add(a: int, b: int, c: int) -> int');
    const gone = resolveCompletion(
      source,
      '/ws/main.harn',
      memoryHost({ ...files, '/ws/main.harn': files['/ws/main.harn'].replace('fn add', 'fn sum') }),
      '/ws',
    );
    assert.deepEqual(gone, { detail: undefined, documentation: undefined });
    assert.deepEqual(resolveCompletion({ kind: 'builtin', name: 'no_such_builtin' }, '/ws/main.harn', memoryHost(files)), {
      detail: undefined,
      documentation: undefined,
    });
  });

  test('two declarations of one name: the one the item came from', () => {
    const source = `fn a(x: int) { return x }\nfn b(x: string) {\n  CURSOR\n}\n`;
    const inner = itemsAt(source).filter((c) => c.label === 'x');
    assert.equal(inner.length, 1);
    const text = source.replace('CURSOR', '');
    const resolved = resolveCompletion(defined(inner[0]).source, '/ws/main.harn', memoryHost({ ...files, '/ws/main.harn': text }), '/ws');
    assert.equal(resolved.detail, defined(inner[0]).detail);
    assert.match(resolved.detail ?? '', /string/);
  });
});

function defined<T>(value: T | undefined): T {
  assert.ok(value !== undefined);
  return value;
}
