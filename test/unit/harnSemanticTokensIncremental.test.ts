// Semantic tokens kept per top-level statement (SemanticTokensCache): after every random edit, of the file itself
// (through HarnAnalysis.edited, as the workspace does) or of a file it imports (through a ModuleHost whose answers
// change), the cached tokens, encoded data and delta equal what a fresh parse and semanticTokens + encodeTokens
// give; and an edit inside a function body recomputes that one statement.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { HarnAnalysis } from '../../server/src/harn/analysis';
import * as A from '../../server/src/harn/ast';
import { resolveImport } from '../../server/src/harn/modules';
import { ModuleHost } from '../../server/src/harn/resolve';
import { encodeTokens, semanticTokens, SemanticTokensCache, tokenEdits, tokensInRange } from '../../server/src/harn/semanticTokens';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { HarnWorkspace, pathToUri } from '../../server/src/workspace/harnWorkspace';
import { corpusFiles, corpusSkip, readCorpus } from '../support/corpus';
import { prng } from '../support/random';

/** A ModuleHost over files that change: a file's analysis is new whenever its text is (as the workspace's is). */
class ChangingHost implements ModuleHost {
  private readonly analyses = new Map<string, HarnAnalysis>();

  constructor(readonly files: Map<string, string>) {}

  resolveImport(from: string, importPath: string): string | undefined {
    return resolveImport(from, importPath, ['/ws'], { isFile: (p) => this.files.has(p), realpath: (p) => p });
  }

  load(file: string): HarnAnalysis | undefined {
    const text = this.files.get(file);
    if (text === undefined) return undefined;
    const cached = this.analyses.get(file);
    if (cached?.text === text) return cached;
    const analysis = new HarnAnalysis(text);
    this.analyses.set(file, analysis);
    return analysis;
  }
}

const MAIN_FILE = '/ws/main.harn';

const LIB = `pub fn greet(name: string) -> string { return name }
pub struct Point { x: int }
pub const ORIGIN = 0
pub enum Shade { Light, Dark }
`;

/** A file that uses every kind of name: imported (named, wildcard, namespace), top-level, nested, builtins. */
function generatedMain(rng: () => number, declarations: number): string {
  const parts = ['import { greet, Point } from "./lib"', 'import "./lib"', 'import * as lib from "./lib"', 'const LIMIT = 3', 'var counter = 0'];
  const names = ['greet', 'Point', 'ORIGIN', 'LIMIT', 'counter', 'Shade', 'helper', 'len', 'log', 'lib.greet', 'lib.Shade'];
  for (let i = 0; i < declarations; i++) {
    // Names declared in the file too, before or after this declaration (top-level `let`s are visible after theirs only).
    const other = Math.floor(rng() * declarations);
    const a = rng() < 0.4 ? ['f', 'v', 'S', 'p'].map((p) => `${p}${other}`)[Math.floor(rng() * 4)] : (names[Math.floor(rng() * names.length)] ?? 'x');
    const b = names[Math.floor(rng() * names.length)] ?? 'x';
    switch (Math.floor(rng() * 5)) {
      case 0:
        parts.push(`fn f${i}<T>(a: int, b: T) -> int {\n  let local = ${a}(a)\n  for item in [b] { log(item, ${b}) }\n  return local + LIMIT\n}`);
        break;
      case 1:
        parts.push(`pipeline p${i}(task) {\n  var n = len(task)\n  log(${a}, Point { x: n }, Shade.Dark, ${b})\n}`);
        break;
      case 2:
        parts.push(`struct S${i} { field: int, other: Point }`);
        break;
      case 3:
        parts.push(`let v${i} = ${a}`);
        break;
      default:
        parts.push(`fn helper${i}() {\n  try { ${a}() } catch (e) { log(e, ${b}) }\n  return fn(x) { return x + counter }\n}`);
    }
  }
  return parts.join('\n') + '\n';
}

const PIECES = ['x', 'e', ' ', '\n', '_', '1', 'let q = 1\n', 'Shade.', ')', '(', '{', '}', 'fn g() {}', '"${', 'const ', 'LIMIT', 'greet'];

/** Offsets strictly inside the bodies of top-level functions and pipelines (between their braces). */
function bodyOffsets(file: A.SourceFile): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  for (const stmt of file.statements) {
    if ((stmt.kind === 'FnDecl' || stmt.kind === 'PipelineDecl') && stmt.body && stmt.body.end - stmt.body.start > 2) {
      out.push({ start: stmt.body.start + 1, end: stmt.body.end - 1 });
    }
  }
  return out;
}

const CHARACTERS = 'xeL_1 (){}".\n';

/** Typing that leaves brackets and strings balanced: what HarnAnalysis.edited can re-read one statement for. */
const BALANCED = ['x', 'e', ' ', '_', '1', 'let q = 1\n', 'LIMIT', 'greet', ' + n', 'Shade.Dark'];

/**
 * A random edit: mostly inside a function body, else anywhere; an insertion, a deletion or both, or with
 * `sameLength` one character replaced by another.
 */
function randomEdit(rng: () => number, text: string, file: A.SourceFile, editing: Editing = 'edited'): { text: string; at: number; inBody: boolean } {
  const sameLength = editing === 'kept';
  if (sameLength && rng() < 0.15) {
    // What the other statements' colours depend on: a top-level name renamed, or `let` and `var` swapped.
    const stmt = file.statements[Math.floor(rng() * file.statements.length)];
    if (stmt?.kind === 'LetDecl' && rng() < 0.5) {
      const keyword = text.slice(stmt.start, stmt.start + 3);
      const swapped = keyword === 'let' ? 'var' : keyword === 'var' ? 'let' : keyword;
      return { text: text.slice(0, stmt.start) + swapped + text.slice(stmt.start + 3), at: stmt.start, inBody: false };
    }
    const name = stmt && 'name' in stmt && stmt.name && typeof stmt.name === 'object' ? stmt.name : undefined;
    if (name && name.end > name.start) {
      const at = name.end - 1;
      return { text: text.slice(0, at) + String(Math.floor(rng() * 10)) + text.slice(at + 1), at, inBody: false };
    }
  }
  const bodies = bodyOffsets(file);
  const body = rng() < 0.7 ? bodies[Math.floor(rng() * bodies.length)] : undefined;
  const at = body ? body.start + Math.floor(rng() * (body.end - body.start)) : Math.floor(rng() * text.length);
  let cut = sameLength ? 1 : rng() < 0.35 ? 1 + Math.floor(rng() * 3) : 0;
  if (editing === 'balanced' && !/^[\w ]*$/.test(text.slice(at, at + cut))) cut = 0;
  const insert =
    editing === 'balanced'
      ? (BALANCED[Math.floor(rng() * BALANCED.length)] ?? '')
      : sameLength
        ? CHARACTERS.charAt(Math.floor(rng() * CHARACTERS.length))
        : rng() < 0.8
          ? (PIECES[Math.floor(rng() * PIECES.length)] ?? '')
          : '';
  const end = Math.min(text.length, at + cut);
  return { text: text.slice(0, at) + insert + text.slice(end), at, inBody: body !== undefined && end <= body.end };
}

/**
 * The analysis of `text`, `previous.text` with one character replaced at `at`, keeping as HarnAnalysis.edited
 * promises every statement that did not move and has the same text (the reuse contract, for a same-length edit).
 */
function keptAround(previous: HarnAnalysis, text: string, at: number): HarnAnalysis {
  const next = new HarnAnalysis(text);
  const statements = next.file.statements;
  if (statements.length !== previous.file.statements.length) return next;
  const kept = statements.map((stmt, i) => {
    const old = previous.file.statements[i];
    const same = old && old.start === stmt.start && old.end === stmt.end && (old.start > at || old.end <= at);
    return same && previous.text.slice(old.start, old.end) === text.slice(stmt.start, stmt.end) ? old : stmt;
  });
  statements.splice(0, statements.length, ...kept);
  return next;
}

/** `previous` with `edits` applied, as a client applies a delta. */
function applied(previous: ArrayLike<number>, edits: ReturnType<typeof tokenEdits>): number[] {
  const data = Array.from(previous);
  for (const edit of [...edits].reverse()) data.splice(edit.start, edit.deleteCount, ...edit.data);
  return data;
}

interface Run {
  steps: number;
  /** Edits inside a function body where every other statement was kept: each must have recomputed one statement. */
  bodyReuses: number;
  reused: number;
}

/** How the next analysis is made: by HarnAnalysis.edited (on any edit, or on balanced ones only), or by keptAround on same-length edits. */
type Editing = 'edited' | 'balanced' | 'kept';

/**
 * Random edits of `files[MAIN_FILE]` (and, with `libEdits`, of /ws/lib.harn), checked at every step against a
 * fresh parse: full tokens, a range, the encoded data, and the delta from the previous data.
 */
function checkEdits(files: Map<string, string>, seed: number, steps: number, libEdits: boolean, editing: Editing = 'edited'): Run {
  const rng = prng(seed);
  const host = new ChangingHost(files);
  const cache = new SemanticTokensCache();
  let text = files.get(MAIN_FILE) ?? '';
  let analysis = new HarnAnalysis(text);
  let previousData = cache.encoded(analysis, MAIN_FILE, host);
  const run: Run = { steps: 0, bodyReuses: 0, reused: 0 };
  for (let step = 0; step < steps; step++) {
    const editLib = libEdits && rng() < 0.2;
    let inBody = false;
    if (editLib) {
      const lib = files.get('/ws/lib.harn') ?? '';
      files.set('/ws/lib.harn', randomEdit(rng, lib, new HarnAnalysis(lib).file).text);
    } else {
      const edit = randomEdit(rng, text, analysis.file, editing);
      text = edit.text;
      files.set(MAIN_FILE, text);
      const before = [...analysis.file.statements];
      analysis = editing === 'kept' ? keptAround(analysis, text, edit.at) : HarnAnalysis.edited(analysis, text);
      const after = analysis.file.statements;
      // Every statement but the edited one kept: the cache must recompute that one only.
      inBody = edit.inBody && after.length === before.length && after.filter((s, i) => s === before[i]).length === after.length - 1;
    }
    const where = `seed ${seed} step ${step}${editLib ? ' (lib edited)' : ''}`;

    const fresh = new HarnAnalysis(text);
    const expectedTokens = semanticTokens(fresh, MAIN_FILE, host);
    const expectedData = encodeTokens(expectedTokens, fresh.lineIndex);

    const data = cache.encoded(analysis, MAIN_FILE, host);
    const { computed, reused } = cache.lastRun;
    assert.deepEqual([...data], expectedData, `${where}: encoded`);
    assert.deepEqual(applied(previousData, tokenEdits(previousData, data)), expectedData, `${where}: delta`);
    assert.deepEqual(cache.tokens(analysis, MAIN_FILE, host), expectedTokens, `${where}: tokens`);
    assert.equal(cache.lastRun.computed, 0, `${where}: a second request recomputes nothing`);
    const from = Math.floor(rng() * text.length);
    const to = from + Math.floor(rng() * 400);
    assert.deepEqual(cache.tokensIn(analysis, MAIN_FILE, host, from, to), tokensInRange(expectedTokens, from, to), `${where}: range`);

    if (inBody) {
      assert.equal(computed, 1, `${where}: an edit inside a function body recomputes its statement only`);
      run.bodyReuses++;
    }
    run.reused += reused;
    previousData = data;
    run.steps++;
  }
  return run;
}

describe('semantic tokens per statement: the cache equals a fresh computation', () => {
  test('random edits of a generated file and of the file it imports', () => {
    for (const seed of [1, 2, 3]) {
      const files = new Map([
        [MAIN_FILE, generatedMain(prng(seed * 7), 60)],
        ['/ws/lib.harn', LIB],
      ]);
      checkEdits(files, seed, 200, true);
    }
  });

  test('random same-length edits anywhere, every other statement kept as the reuse contract keeps them', () => {
    let bodyReuses = 0;
    let reused = 0;
    for (const seed of [6, 7, 8]) {
      const files = new Map([
        [MAIN_FILE, generatedMain(prng(seed * 7), 60)],
        ['/ws/lib.harn', LIB],
      ]);
      const run = checkEdits(files, seed, 200, true, 'kept');
      bodyReuses += run.bodyReuses;
      reused += run.reused;
    }
    assert.ok(bodyReuses > 150, `edits inside a body with the other statements kept: ${bodyReuses}`);
    assert.ok(reused > 10_000, `statements reused: ${reused}`);
  });

  test('random edits of a file with CRLF line ends, a BOM and statements sharing a line', () => {
    for (const seed of [9, 10]) {
      const text =
        '\uFEFF' +
        generatedMain(prng(seed), 40)
          .replace(/\n(fn|struct)/g, ' $1')
          .replace(/\n/g, '\r\n');
      const files = (): Map<string, string> =>
        new Map([
          [MAIN_FILE, text],
          ['/ws/lib.harn', LIB],
        ]);
      checkEdits(files(), seed, 120, true);
      for (const mode of ['kept', 'balanced'] as const) checkEdits(files(), seed, 120, false, mode);
    }
  });

  test('random edits of corpus files', { skip: corpusSkip }, () => {
    const rng = prng(99);
    const all = corpusFiles();
    for (let i = 0; i < 12; i++) {
      const relative = all[Math.floor(rng() * all.length)];
      if (relative === undefined) continue;
      checkEdits(new Map([[MAIN_FILE, readCorpus(relative)]]), 100 + i, 40, false);
      checkEdits(new Map([[MAIN_FILE, readCorpus(relative)]]), 200 + i, 40, false, 'kept');
    }
  });

  test('an edit of an imported file recolours the names it changed, statements of the file left alone', () => {
    const files = new Map([
      [MAIN_FILE, 'import { greet } from "./lib"\nfn a() { greet() }\nfn b() { log(1) }\n'],
      ['/ws/lib.harn', LIB],
    ]);
    const host = new ChangingHost(files);
    const cache = new SemanticTokensCache();
    const analysis = new HarnAnalysis(files.get(MAIN_FILE) ?? '');
    const typeOfGreet = (): string | undefined => cache.tokens(analysis, MAIN_FILE, host).find((t) => t.start === analysis.text.indexOf('greet()'))?.type;
    assert.equal(typeOfGreet(), 'function');
    files.set('/ws/lib.harn', LIB.replace('pub fn greet(name: string) -> string { return name }', 'pub struct greet { name: string }'));
    assert.equal(typeOfGreet(), 'struct');
    assert.equal(cache.lastRun.computed, 3, 'the host answered otherwise: every statement again');
    assert.equal(typeOfGreet(), 'struct');
    assert.equal(cache.lastRun.computed, 0);
  });

  test('through the workspace, as the server runs it: an edit of an open imported file recolours, typing in a body reuses', () => {
    const root = '/ws-open';
    const libUri = pathToUri(`${root}/lib.harn`);
    const mainUri = pathToUri(`${root}/main.harn`);
    const docs = new Map<string, TextDocument>([
      [libUri, TextDocument.create(libUri, 'harn', 1, LIB)],
      [mainUri, TextDocument.create(mainUri, 'harn', 1, 'import { greet } from "./lib"\nfn a() {\n  greet()\n}\nfn b() {\n  log(1)\n}\n')],
    ]);
    // The files exist only in the editor: the workspace resolves imports on disk, so this host answers for them.
    const workspace = new HarnWorkspace({ get: (uri) => docs.get(uri) }, () => [root]);
    const host: ModuleHost = {
      resolveImport: (from, importPath) => resolveImport(from, importPath, [root], { isFile: (p) => docs.has(pathToUri(p)), realpath: (p) => p }),
      load: (file) => workspace.load(file),
    };
    const cache = new SemanticTokensCache();
    const mainFile = `${root}/main.harn`;
    const change = (uri: string, from: string, to: string): void => {
      const doc = docs.get(uri);
      if (!doc) throw new Error(uri);
      docs.set(uri, TextDocument.create(uri, 'harn', doc.version + 1, doc.getText().replace(from, to)));
    };
    const check = (): void => {
      const analysis = workspace.analysisOf(docs.get(mainUri) as TextDocument);
      const fresh = new HarnAnalysis(analysis.text);
      assert.deepEqual(cache.tokens(analysis, mainFile, host), semanticTokens(fresh, mainFile, host));
    };
    check();
    const greetType = (): string | undefined => {
      const analysis = workspace.analysisOf(docs.get(mainUri) as TextDocument);
      return cache.tokens(analysis, mainFile, host).find((t) => t.start === analysis.text.indexOf('greet()'))?.type;
    };
    assert.equal(greetType(), 'function');
    change(libUri, 'pub fn greet(name: string) -> string { return name }', 'pub struct greet { name: string }');
    assert.equal(greetType(), 'struct');
    check();
    change(mainUri, 'log(1)', 'log(12)');
    check();
    assert.equal(cache.lastRun.computed, 1, 'typing in a body: that statement only');
  });

  test('a top-level name changing kind recolours the statements using it', () => {
    const cache = new SemanticTokensCache();
    const before = new HarnAnalysis('let limit = 1\nfn a() { return limit }\n');
    const readonlyOf = (analysis: HarnAnalysis): boolean | undefined =>
      cache
        .tokens(analysis, MAIN_FILE)
        .find((t) => t.start === analysis.text.lastIndexOf('limit'))
        ?.modifiers.includes('readonly');
    assert.equal(readonlyOf(before), false);
    const after = HarnAnalysis.edited(before, 'const limit = 1\nfn a() { return limit }\n');
    assert.equal(readonlyOf(after), true);
  });
});

describe('semantic tokens per statement: the cache is hit', () => {
  test("typing inside a top-level `let`'s closure recomputes that statement only (its binding is still visible from its end)", () => {
    const cache = new SemanticTokensCache();
    const text = 'let helper = fn(x) {\n  return x\n}\nfn a() { return helper(1) }\nlet later = helper\n';
    let analysis = new HarnAnalysis(text);
    cache.encoded(analysis, MAIN_FILE);
    for (const typed of ['return x + 1', 'return x + 12', 'return helper']) {
      const next = text.replace('return x', typed);
      analysis = HarnAnalysis.edited(analysis, next);
      assert.notEqual(analysis.reparsed, 'full');
      const fresh = new HarnAnalysis(next);
      assert.deepEqual([...cache.encoded(analysis, MAIN_FILE)], encodeTokens(semanticTokens(fresh, MAIN_FILE), fresh.lineIndex), typed);
      assert.equal(cache.lastRun.computed, 1, typed);
    }
  });

  test('edits inside function bodies, through HarnAnalysis.edited, recompute one statement each', () => {
    let bodyReuses = 0;
    let steps = 0;
    for (const seed of [4, 5]) {
      const files = new Map([
        [MAIN_FILE, generatedMain(prng(seed * 7), 60)],
        ['/ws/lib.harn', LIB],
      ]);
      const run = checkEdits(files, seed, 150, false, 'balanced');
      bodyReuses += run.bodyReuses;
      steps += run.steps;
    }
    assert.ok(bodyReuses > steps / 4, `edits re-read alone inside a body: ${bodyReuses} of ${steps}`);
  });
});
