// The pure .harn feature modules: outline, folding, scopes, hover, definition and completion over a
// ModuleHost backed by an in-memory file map.

import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { HarnAnalysis } from '../../server/src/harn/analysis';
import { completionsAt } from '../../server/src/harn/completion';
import { definitionAt } from '../../server/src/harn/definition';
import { foldingRanges } from '../../server/src/harn/folding';
import { hoverAt } from '../../server/src/harn/hover';
import { resolveImport } from '../../server/src/harn/modules';
import { OutlineSymbol } from '../../server/src/harn/outline';
import { ModuleHost } from '../../server/src/harn/resolve';
import { resolveName } from '../../server/src/harn/scope';
import { defined } from '../support/assertions';

function memoryHost(files: Record<string, string>, roots: string[] = ['/ws']): ModuleHost {
  const cache = new Map<string, HarnAnalysis>();
  return {
    resolveImport: (from, importPath) => resolveImport(from, importPath, roots, { isFile: (p) => p in files, realpath: (p) => p }),
    load: (file) => {
      if (!(file in files)) return undefined;
      let a = cache.get(file);
      if (!a) cache.set(file, (a = new HarnAnalysis(defined(files[file], file))));
      return a;
    },
  };
}

const shape = (symbols: OutlineSymbol[]): unknown =>
  symbols.map((s) => (s.children.length ? { [`${s.kind} ${s.name}`]: shape(s.children) } : `${s.kind} ${s.name}`));

describe('outline', () => {
  test('every declaration kind, nested members, top-level bindings only', () => {
    const text = `import "std/math"
const LIMIT = 3
pub let shared = {a: 1}
var counter = 0
let {x, y: why} = point()
pipeline main(task) extends base {
  let local = 1
  fn helper() { return local }
}
@test
pub fn add(a, b = 2) -> int { return a + b }
tool search(query: string) {
  description "Searches"
  return []
}
skill review {
  on_activate fn() { log("x") }
  prompt "Review it"
}
eval_pack quality "Quality checks" {
  threshold: 0.8
}
struct Point { x: int, y?: int }
enum Shape { Circle(radius: float), Square }
pub type Id = string | int
interface Greeter { type Out
  fn greet(self) -> string }
impl Point { fn norm(self) -> float { return 0.0 } }
`;
    const analysis = new HarnAnalysis(text);
    assert.deepEqual(analysis.parsed.diagnostics, []);
    assert.deepEqual(shape(analysis.outline), [
      'constant LIMIT',
      'constant shared',
      'variable counter',
      'constant x',
      'constant why',
      { 'pipeline main': ['function helper'] },
      'function add',
      'tool search',
      { 'skill review': ['field on_activate', 'field prompt'] },
      'evalPack quality',
      { 'struct Point': ['field x', 'field y'] },
      { 'enum Shape': ['variant Circle', 'variant Square'] },
      'typeAlias Id',
      { 'interface Greeter': ['typeAlias Out', 'method greet'] },
      { 'impl Point': ['method norm'] },
    ]);
    const add = defined(
      analysis.outline.find((s) => s.name === 'add'),
      'the outline symbol add',
    );
    assert.equal(add.detail, '(a, b = 2) -> int');
    assert.equal(text.slice(add.selectionStart, add.selectionEnd), 'add');
  });

  test('a block left open does not swallow the declarations after it', () => {
    const text = 'fn first() {\n  let a = 1\n\nfn second() {\n  return 2\n}\n';
    const analysis = new HarnAnalysis(text);
    assert.deepEqual(shape(analysis.outline), ['function first', 'function second']);
    assert.ok(analysis.parsed.diagnostics.some((d) => /not closed/.test(d.message)));
  });
});

describe('folding', () => {
  test('blocks, multi-line strings and lists, comment runs, doc blocks and import groups', () => {
    const text = [
      'import "a"', // 0
      'import "b"', // 1
      '// one', // 2
      '// two', // 3
      '/**', // 4
      ' * doc', // 5
      ' */', // 6
      'fn f() {', // 7
      '  let s = """', // 8
      '    text', // 9
      '    """', // 10
      '  let xs = [', // 11
      '    1,', // 12
      '  ]', // 13
      '}', // 14
    ].join('\n');
    const folds = foldingRanges(new HarnAnalysis(text)).map((f) => `${f.startLine}-${f.endLine}${f.kind ? ' ' + f.kind : ''}`);
    assert.deepEqual(folds.sort(), ['0-1 imports', '11-12', '2-3 comment', '4-6 comment', '7-13', '8-9'].sort());
  });
});

describe('scopes', () => {
  test('let is visible after its declaration, shadowing picks the nearest, params and loop variables in their bodies', () => {
    const text = 'let x = 1\nfn f(x) {\n  for item in x { log(item) }\n  let x = 2\n  return x\n}\nlog(x)\n';
    const a = new HarnAnalysis(text);
    const at = (needle: string, n = 0): number => {
      let i = -1;
      for (let k = 0; k <= n; k++) i = text.indexOf(needle, i + 1);
      return i;
    };
    assert.equal(resolveName(a.scopes, 'x', at('in x') + 3)?.kind, 'parameter');
    assert.equal(resolveName(a.scopes, 'item', at('log(item') + 4)?.kind, 'variable');
    assert.equal(resolveName(a.scopes, 'x', at('return x') + 7)?.declaration.kind, 'LetDecl');
    assert.equal(resolveName(a.scopes, 'x', at('log(x)') + 4)?.nameNode.start, 4);
    assert.equal(resolveName(a.scopes, 'item', at('log(x)') + 4), undefined);
  });
});

describe('navigation across files', () => {
  const files = {
    '/ws/lib/util.harn': '/** Doubles n. */\npub fn double(n: int) -> int { return n * 2 }\nfn private_helper() {}\n',
    '/ws/lib/reexport.harn': 'pub import { double } from "./util"\n',
    '/ws/main.harn': 'import { double } from "./lib/reexport"\nimport "./lib/util"\nlet y = double(2)\n',
    '/ws/crates/harn-stdlib/src/stdlib/agent/loop.harn': 'pub fn agent_loop_std() {}\n',
  };
  const host = memoryHost(files);
  const main = defined(host.load('/ws/main.harn'), 'the analysis of /ws/main.harn');
  const text = files['/ws/main.harn'];

  test('definition follows a pub import re-export to the declaring file', () => {
    const def = defined(definitionAt(main, '/ws/main.harn', text.indexOf('double(2)') + 1, host), 'the definition');
    assert.equal(def.file, '/ws/lib/util.harn');
    assert.equal(files['/ws/lib/util.harn'].slice(def.start, def.end), 'double');
  });

  test('hover renders the signature, doc and origin', () => {
    const hover = hoverAt(main, '/ws/main.harn', text.indexOf('double(2)'), host, '/ws');
    assert.ok(hover);
    assert.match(hover.markdown, /```harn\npub fn double\(n: int\) -> int\n```/);
    assert.match(hover.markdown, /Doubles n\./);
    assert.match(hover.markdown, /from `lib\/util\.harn`/);
  });

  test('completion includes exports of a wildcard import but not its private declarations', () => {
    const labels = completionsAt(main, '/ws/main.harn', text.length, host).map((c) => c.label);
    assert.ok(labels.includes('double'));
    assert.ok(!labels.includes('private_helper'));
  });

  test('a shadowed name is offered once, as the binding the cursor sees: also typed at the end of a body missing its `}`, and not after a closed one', () => {
    const offered = (source: string): string[] => {
      const at = source.indexOf('|');
      const text = source.slice(0, at) + source.slice(at + 1);
      return completionsAt(new HarnAnalysis(text), '/ws/x.harn', at, host)
        .filter((c) => c.label === 'x')
        .map((c) => c.detail ?? '');
    };
    const TOP = 'let x = "top"\n';
    assert.deepEqual(offered(TOP + 'fn f(x: int) {\n  return |\n}\n'), ['(parameter) x: int']);
    // The file being typed: the body has no `}` yet, and the cursor is past its last token.
    assert.deepEqual(offered(TOP + 'fn f(x: int) -> int {\n  return |'), ['(parameter) x: int']);
    assert.deepEqual(offered(TOP + 'fn f(x: int) {\n  let y = 1\n\n  |\n\nfn g() {}\n'), ['(parameter) x: int']);
    assert.deepEqual(offered(TOP + 'let g = { x -> log(|'), ['(parameter) x']);
    // …but not into the next declaration, where the parser resumed.
    assert.deepEqual(offered(TOP + 'fn f(x: int) {\n  let y = 1\nfn g() {\n  return |\n}\n'), ['let x = "top"']);
    // Right after a closed body's `}`: outside it.
    assert.deepEqual(offered(TOP + 'fn f(x: int) { return x }|\n'), ['let x = "top"']);
    assert.deepEqual(offered(TOP + 'fn f(x: int) { return x|}\n'), ['(parameter) x: int']);
  });

  test('no completion inside comments and plain string text, completion inside a hole', () => {
    const src = '// comment here\nlet name = "a"\nlet s = "text ${na} more"\n';
    const a = new HarnAnalysis(src);
    assert.deepEqual(completionsAt(a, '/ws/x.harn', src.indexOf('here'), host), []);
    assert.deepEqual(completionsAt(a, '/ws/x.harn', src.indexOf('text') + 2, host), []);
    const inHole = completionsAt(a, '/ws/x.harn', src.indexOf('${na}') + 4, host).map((c) => c.label);
    assert.ok(inHole.includes('name'));
  });

  test('std/ imports resolve into a harn checkout in the workspace; paths never leave the roots', () => {
    const isFile = (p: string): boolean => p in files || p === '/elsewhere/x.harn';
    const probe = { isFile, realpath: (p: string): string => p };
    assert.equal(resolveImport('/ws/main.harn', 'std/agent/loop', ['/ws'], probe), path.join('/ws/crates/harn-stdlib/src/stdlib/agent/loop.harn'));
    assert.equal(resolveImport('/ws/main.harn', '../elsewhere/x', ['/ws'], probe), undefined);
    assert.equal(resolveImport('/ws/main.harn', '/elsewhere/x.harn', ['/ws'], probe), undefined);
  });
});
