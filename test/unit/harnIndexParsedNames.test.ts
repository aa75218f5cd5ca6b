// The names the parser notes as it builds the tree (ParsedNames) stand in for a walk of every node when the
// workspace index is built: the noted nodes must be the tree's own, and an index built from them must be the one
// built by walking the tree.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { HarnAnalysis } from '../../server/src/harn/analysis';
import * as A from '../../server/src/harn/ast';
import { allOccurrences, FileIndex, indexFile } from '../../server/src/harn/index/fileIndex';
import { parse } from '../../server/src/harn/parser';
import { corpusFiles, corpusSkip, readCorpus } from '../support/corpus';

/** The node kinds ParsedNames.nodes holds. */
const NOTED = new Set(['Identifier', 'NamedType', 'Member', 'StructLit', 'Assign', 'PipelineDecl', 'StructDecl', 'EnumDecl', 'ImplDecl']);
/** The kinds whose start ParsedNames.scopeStarts holds. */
const SCOPED = new Set(['Block', 'FnDecl', 'PipelineDecl', 'ToolDecl', 'OverrideDecl', 'FnExpr', 'Closure']);

/** Everything an index holds, as plain data. */
function contents(index: FileIndex): unknown {
  return {
    occurrences: allOccurrences(index),
    declarations: index.declarations,
    exports: [...index.exports],
    importPaths: index.importPaths,
    wildcardImports: index.wildcardImports,
    pubWildcardImports: index.pubWildcardImports,
    symbols: index.symbols,
  };
}

/** The analysis of `text` as the index sees a file whose parse noted nothing (the walk's path). */
function withoutNames(text: string): HarnAnalysis {
  const analysis = new HarnAnalysis(text);
  const { names: _names, ...parsed } = analysis.parsed;
  return new HarnAnalysis(text, { lineIndex: analysis.lineIndex, parsed, reparsed: 'full' });
}

function checkFile(text: string, label: string): boolean {
  const analysis = new HarnAnalysis(text);
  const names = analysis.parsed.names;
  if (!names) return false;
  // The noted nodes are exactly the tree's nodes of those kinds, each once, top-level statement by statement.
  const statements = analysis.file.statements;
  assert.equal(names.statementEnds.length, statements.length, `${label}: one end per top-level statement`);
  assert.equal(names.assignmentCounts.length, statements.length, `${label}: one assignment count per top-level statement`);
  statements.forEach((stmt, i) => {
    const inTree: A.AnyNode[] = [];
    const scopeStarts: number[] = [];
    A.walk(stmt, (node) => {
      if (NOTED.has(node.kind)) inTree.push(node);
      if (SCOPED.has(node.kind)) scopeStarts.push(node.start);
    });
    const noted = names.nodes.slice(i > 0 ? names.statementEnds[i - 1] : 0, names.statementEnds[i]);
    assert.equal(noted.length, inTree.length, `${label}: statement ${i} notes as many nodes as its tree holds`);
    // A statement holding an assignment counts one more (the index reads only those statements for them).
    const grew = names.assignmentCounts[i] !== (i > 0 ? names.assignmentCounts[i - 1] : 0);
    if (noted.some((node) => node.kind === 'Assign')) assert.ok(grew, `${label}: statement ${i} counts its assignments`);
    const nodes = new Set(noted);
    assert.equal(nodes.size, noted.length, `${label}: statement ${i} notes each node once`);
    for (const node of inTree) assert.ok(nodes.has(node), `${label}: statement ${i}'s ${node.kind} at ${node.start} is noted`);
    for (const start of scopeStarts) assert.ok(names.scopeStarts.includes(start), `${label}: the scope at ${start} is noted`);
  });
  for (const reusable of [false, true]) {
    const noted = indexFile('/ws/a.harn', analysis, { reusable });
    const walked = indexFile('/ws/a.harn', withoutNames(text), { reusable });
    assert.deepEqual(contents(noted), contents(walked), `${label}: the index from the noted names is the walk's`);
  }
  return true;
}

describe('harn index: the names the parser notes', () => {
  test('a file with a diagnostic notes nothing (error recovery drops nodes it made)', () => {
    assert.equal(parse('fn f( {\n  let x = \n}\n').names, undefined);
    assert.ok(parse('fn f(x) {\n  return x\n}\n').names);
  });

  test('what the tree does not keep is not noted: a failed generic call, bounds of type parameters, a where clause', () => {
    const text = [
      'interface Named {\n  fn name(self) -> string\n}',
      'fn pick<T: Named + Other>(items: list<T>) -> T where T: Named, U: Missing {\n  return items[0]\n}',
      'fn compare(a, b, c) {\n  let x = a < b\n  let y = a < b > (c)\n  let z = pick<Named>(c)\n  return [x, y, z]\n}',
      'struct Point {\n  x: int\n}',
      'impl Point {\n  fn norm(self) -> int {\n    self.x = self.x + 1\n    return self.x\n  }\n}',
      'pipeline main(task) extends base {\n  let p = Point { x: 1 }\n  p.x += 2\n  let f = { a -> a + p.x }\n  log(fn(v) { return v }(f(1)))\n}',
      'eval_pack checks {\n  threshold: 0.5\n  let seen = 1\n}',
    ].join('\n\n');
    assert.ok(checkFile(text, 'sample'), 'the sample parses without a diagnostic');
  });

  test('names inside a statement resolve as the scopes do: shadowing, a `let` reading what it shadows, use before a `let`', () => {
    const text = [
      'let y = 2',
      'fn shadow(x, items) {',
      '  let x = x + 1',
      '  log(y)',
      '  let y = x',
      '  if x > 1 {',
      '    let x = y',
      '    log(x)',
      '  }',
      '  for x in items {',
      '    log(x)',
      '  }',
      '  let f = { x -> x + y }',
      '  try {',
      '    log(x)',
      '  } catch (x) {',
      '    log(x)',
      '  }',
      '  return x',
      '}',
    ].join('\n');
    assert.ok(checkFile(text, 'shadowing'), 'the sample parses without a diagnostic');
    // Where each `x` and `y` read leads (the declaration's offset; -1: none in the file), pinned as well as held to the walk.
    const index = indexFile('/ws/a.harn', new HarnAnalysis(text));
    const at = (needle: string, from = 0): number => text.indexOf(needle, from);
    const leadsTo = (offset: number): number => {
      const o = allOccurrences(index).find((occurrence) => occurrence.start === offset);
      assert.ok(o, `an occurrence at ${offset}`);
      return o.ref.kind === 'local' ? o.ref.declStart : -1;
    };
    const param = at('x,');
    const outerY = at('y = x');
    const outerLet = at('x = x');
    assert.equal(leadsTo(at('x + 1')), param, 'the `let x` reads the parameter it shadows');
    assert.equal(leadsTo(at('y)')), at('y = 2'), 'a `y` before the `let y` is the top-level one');
    assert.equal(leadsTo(at('x > 1')), outerLet, 'after it, the `let x`');
    assert.equal(leadsTo(at('x)', at('let x = y'))), at('x = y'), 'inside the block, its own `let x`');
    assert.equal(leadsTo(at('y', at('let x = y') + 4)), outerY, "the block reads the function's `let y`");
    assert.equal(leadsTo(at('x)', at('for x'))), at('x in'), 'the loop variable');
    assert.equal(leadsTo(at('x + y')), at('x ->'), 'the closure parameter');
    assert.equal(leadsTo(at('y }')), outerY, "a closure reads the function's `let y`");
    assert.equal(leadsTo(at('x)', at('try'))), outerLet, 'the `try` body opens no binding of its own');
    assert.equal(leadsTo(at('x)', at('catch (x)') + 8)), at('x)', at('catch')), 'the catch name');
    assert.equal(leadsTo(at('x', at('return'))), outerLet, 'back out of every block');
  });

  test('every corpus file (whole and cut in half) notes its tree and indexes as the walk does', { skip: corpusSkip }, () => {
    let checked = 0;
    for (const file of corpusFiles()) {
      const text = readCorpus(file);
      for (const version of [text, text.slice(0, text.length >> 1)]) if (checkFile(version, file)) checked++;
    }
    assert.ok(checked > 500, `most corpus files parse without a diagnostic (${checked} did)`);
  });
});
