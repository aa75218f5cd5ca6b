// The language server driven over stdio as an editor drives it: diagnostics, symbols, hover,
// definition and completion on a broken file, and incremental edits.

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  CompletionItem,
  CompletionRequest,
  DefinitionRequest,
  DocumentSymbol,
  DocumentSymbolRequest,
  FoldingRangeRequest,
  DocumentLinkRequest,
  HoverRequest,
  LocationLink,
  MarkupContent,
  Position,
} from 'vscode-languageserver-protocol/node';
import { URI } from 'vscode-uri';
import { harnSyntaxDiagnostics } from '../../server/src/diagnostics';
import { HarnAnalysis } from '../../server/src/harn/analysis';
import { defined } from '../support/assertions';
import { TestClient } from '../support/lspClient';

const LIB = `/** Greets someone by name. */
pub fn greet(name: string) -> string {
  return "hello \${name}"
}

pub struct Point {
  x: int,
  y: int,
}
`;

const BROKEN = `import { greet } from "./lib"

/** Adds two numbers. */
fn add(a: int, b: int) -> int {
  return a + b
}

pipeline main(task) {
  let total = add(1, 2)
  let bad = )
  log(greet("x") + total)
}

enum Color {
  Red,
  Green,
}
`;

function positionOf(text: string, needle: string, occurrence = 0, delta = 0): Position {
  let index = -1;
  for (let i = 0; i <= occurrence; i++) index = text.indexOf(needle, index + 1);
  assert.ok(index >= 0, `${needle} not found`);
  const analysis = new HarnAnalysis(text);
  return analysis.lineIndex.positionAt(index + delta);
}

describe('language server over stdio', () => {
  let client: TestClient;
  let root: string;
  let mainUri: string;

  before(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'harn-lsp-'));
    fs.writeFileSync(path.join(root, 'lib.harn'), LIB);
    fs.writeFileSync(path.join(root, 'main.harn'), BROKEN);
    client = new TestClient();
    await client.initialize(root);
    mainUri = await client.open(path.join(root, 'main.harn'), BROKEN);
  });

  after(async () => {
    await client.shutdown();
    fs.rmSync(root, { recursive: true, force: true });
  });

  test('publishes a harn.syntax error on the offending token', async () => {
    const published = await client.waitForDiagnostics(mainUri);
    assert.equal(published.diagnostics.length, 1, JSON.stringify(published.diagnostics));
    const d = defined(published.diagnostics[0], 'the diagnostic');
    assert.equal(d.source, 'harn.syntax');
    assert.equal(d.severity, 1);
    assert.deepEqual(d.range.start, positionOf(BROKEN, ')', 3));
    const { message } = d;
    assert.ok(typeof message === 'string', `a plain-text message: ${JSON.stringify(message)}`);
    assert.match(message, /Expected expression, got '\)'/);
  });

  test('the outline is hierarchical and complete despite the error', async () => {
    const symbols = (await client.connection.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri: mainUri } })) as DocumentSymbol[];
    assert.deepEqual(
      symbols.map((s) => s.name),
      ['add', 'main', 'Color'],
    );
    const color = defined(
      symbols.find((s) => s.name === 'Color'),
      'the Color symbol',
    );
    assert.deepEqual(
      color.children?.map((c) => c.name),
      ['Red', 'Green'],
    );
    assert.deepEqual(color.selectionRange.start, positionOf(BROKEN, 'Color'));
  });

  test('hover shows the signature and HarnDoc of a local function', async () => {
    const hover = await client.connection.sendRequest(HoverRequest.type, { textDocument: { uri: mainUri }, position: positionOf(BROKEN, 'add(1', 0, 1) });
    const value = (hover?.contents as MarkupContent).value;
    assert.match(value, /fn add\(a: int, b: int\) -> int/);
    assert.match(value, /Adds two numbers\./);
  });

  test('hover on an imported name shows its declaration in the other file', async () => {
    const hover = await client.connection.sendRequest(HoverRequest.type, { textDocument: { uri: mainUri }, position: positionOf(BROKEN, 'greet("x")', 0, 2) });
    const value = (hover?.contents as MarkupContent).value;
    assert.match(value, /pub fn greet\(name: string\) -> string/);
    assert.match(value, /Greets someone by name\./);
    assert.match(value, /from `lib\.harn`/);
  });

  test('hover on a builtin shows its signature', async () => {
    const hover = await client.connection.sendRequest(HoverRequest.type, { textDocument: { uri: mainUri }, position: positionOf(BROKEN, 'log(', 0, 1) });
    const value = (hover?.contents as MarkupContent).value;
    assert.match(value, /fn log\(/);
    assert.match(value, /builtin/);
  });

  test('go to definition within the file and across the import', async () => {
    const local = (await client.connection.sendRequest(DefinitionRequest.type, {
      textDocument: { uri: mainUri },
      position: positionOf(BROKEN, 'add(1'),
    })) as LocationLink[];
    assert.equal(local.length, 1);
    assert.equal(local[0]?.targetUri, mainUri);
    assert.deepEqual(local[0]?.targetSelectionRange.start, positionOf(BROKEN, 'add'));

    const remote = (await client.connection.sendRequest(DefinitionRequest.type, {
      textDocument: { uri: mainUri },
      position: positionOf(BROKEN, 'greet("x")'),
    })) as LocationLink[];
    assert.equal(remote.length, 1);
    assert.equal(remote[0]?.targetUri, URI.file(path.join(root, 'lib.harn')).toString());
    assert.deepEqual(remote[0]?.targetSelectionRange.start, positionOf(LIB, 'greet'));

    const module = (await client.connection.sendRequest(DefinitionRequest.type, {
      textDocument: { uri: mainUri },
      position: positionOf(BROKEN, '"./lib"', 0, 2),
    })) as LocationLink[];
    assert.equal(module[0]?.targetUri, URI.file(path.join(root, 'lib.harn')).toString());
  });

  test('completion offers locals, imported names, builtins and keywords in a broken file', async () => {
    const items = (await client.connection.sendRequest(CompletionRequest.type, {
      textDocument: { uri: mainUri },
      position: positionOf(BROKEN, 'log(greet', 0, 0),
    })) as CompletionItem[];
    const labels = new Set(items.map((i) => i.label));
    // `bad` comes from the broken `let bad = )`: the partial declaration is kept.
    for (const expected of ['total', 'bad', 'add', 'task', 'greet', 'Color', 'agent_emit_event', 'llm_call', 'let', 'parallel']) {
      assert.ok(labels.has(expected), `missing ${expected}`);
    }
    assert.ok(!labels.has('x'), 'a struct field is not a name in scope');
  });

  test('completion after an enum name offers its variants', async () => {
    const text = BROKEN.replace('let bad = )', 'let bad = Color.');
    const uri = await client.open(path.join(root, 'enum.harn'), text);
    const items = (await client.connection.sendRequest(CompletionRequest.type, {
      textDocument: { uri },
      position: positionOf(text, 'Color.', 0, 6),
    })) as CompletionItem[];
    assert.deepEqual(items.map((i) => i.label).sort(), ['Green', 'Red']);
  });

  test('folding ranges and document links', async () => {
    const folds = await client.connection.sendRequest(FoldingRangeRequest.type, { textDocument: { uri: mainUri } });
    assert.ok(folds && folds.some((f) => f.startLine === positionOf(BROKEN, 'pipeline').line));
    const links = await client.connection.sendRequest(DocumentLinkRequest.type, { textDocument: { uri: mainUri } });
    assert.equal(links?.length, 1);
    assert.equal(links[0]?.target, URI.file(path.join(root, 'lib.harn')).toString());
  });

  test('a namespace import: its path is a link, its name in the outline, its members complete, hover and go to their definition', async () => {
    const text = 'import * as lib from "./lib"\nlet g = lib.greet("x")\nlet p = lib.\n';
    const uri = await client.open(path.join(root, 'namespace.harn'), text);
    const libUri = URI.file(path.join(root, 'lib.harn')).toString();
    const published = await client.waitForDiagnostics(uri);
    assert.deepEqual(
      published.diagnostics.map((d) => [d.range.start, d.message]),
      [[{ line: 3, character: 0 }, "Unexpected end of file, expected member name after '.'"]],
    );
    const links = await client.connection.sendRequest(DocumentLinkRequest.type, { textDocument: { uri } });
    assert.deepEqual(
      links?.map((l) => [l.range, l.target]),
      [[{ start: positionOf(text, './lib'), end: positionOf(text, './lib', 0, 5) }, libUri]],
    );
    const symbols = (await client.connection.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri } })) as DocumentSymbol[];
    assert.deepEqual(
      symbols.map((s) => [s.name, s.detail, s.kind]),
      [
        ['lib', './lib', 2],
        ['g', 'let', 14],
        ['p', 'let', 14],
      ],
    );
    const items = (await client.connection.sendRequest(CompletionRequest.type, {
      textDocument: { uri },
      position: positionOf(text, 'lib.\n', 0, 4),
    })) as CompletionItem[];
    assert.deepEqual(
      items.map((i) => i.label),
      ['greet', 'Point'],
    );
    const hover = await client.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: positionOf(text, 'greet', 0, 1) });
    const value = (hover?.contents as MarkupContent).value;
    assert.match(value, /pub fn greet\(name: string\) -> string/);
    assert.match(value, /from `lib\.harn`/);
    const definition = (await client.connection.sendRequest(DefinitionRequest.type, {
      textDocument: { uri },
      position: positionOf(text, 'greet'),
    })) as LocationLink[];
    assert.deepEqual(
      definition.map((d) => [d.targetUri, d.targetSelectionRange.start]),
      [[libUri, positionOf(LIB, 'greet')]],
    );
  });

  test('incremental edits: diagnostics follow the text the client holds', async () => {
    let text = BROKEN;
    const fixAt = positionOf(text, ')', 3);
    // Fix the error: replace `)` with `1`.
    let version = await client.change(mainUri, [{ range: { start: fixAt, end: { line: fixAt.line, character: fixAt.character + 1 } }, text: '1' }]);
    text = text.replace('let bad = )', 'let bad = 1');
    let published = await client.waitForDiagnostics(mainUri, (p) => p.version === version);
    assert.deepEqual(published.diagnostics, []);
    // Break it again elsewhere, with a multi-line insertion containing emoji and CJK.
    const at = positionOf(text, 'log(greet');
    version = await client.change(mainUri, [{ range: { start: at, end: at }, text: 'let 名前 = "🙂" let z = 2\n  ' }]);
    text = text.replace('log(greet', 'let 名前 = "🙂" let z = 2\n  log(greet');
    published = await client.waitForDiagnostics(mainUri, (p) => p.version === version);
    const expected = harnSyntaxDiagnostics(new HarnAnalysis(text)).map((d) => ({ range: d.range, message: d.message }));
    assert.deepEqual(
      published.diagnostics.map((d) => ({ range: d.range, message: d.message })),
      expected,
    );
    assert.equal(expected.length, 1);
    assert.deepEqual(expected[0]?.range.start, positionOf(text, 'let z'));
  });
});
