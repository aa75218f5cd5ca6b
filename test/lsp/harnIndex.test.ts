// The workspace index over stdio: references, document highlight, prepareRename/rename and workspace symbols,
// answered on an open file with a syntax error in another declaration, across closed files read from disk (one
// CRLF with a BOM), and kept current as the open file changes and files change on disk.

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  DidChangeWatchedFilesNotification,
  DocumentHighlightKind,
  DocumentHighlightRequest,
  FileChangeType,
  Location,
  Position,
  PrepareRenameRequest,
  ReferencesRequest,
  RenameRequest,
  ResponseError,
  TextEdit,
  WorkspaceSymbolRequest,
} from 'vscode-languageserver-protocol/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { URI } from 'vscode-uri';
import { HarnAnalysis } from '../../server/src/harn/analysis';
import { FixtureWorkspace, fixtureWorkspace, TestClient } from '../support/lspClient';

const LIB = 'pub fn greet(name: string) -> string {\n  return "hello ${name}"\n}\n\npub fn farewell() {}\n';
const MID = 'pub import { greet } from "./lib"\n';
const MAIN = [
  'import { greet } from "./mid"',
  '',
  'fn broken(a, {', // the syntax error, in another declaration
  '  let x = )',
  '}',
  '',
  'pipeline main(task) {',
  '  var count = 0',
  '  count = count + 1',
  '  log(greet("a") + count)',
  '}',
  '',
].join('\n');
/** A closed importer written with CRLF and a BOM, an emoji before the name on its line. */
const OTHER = '\uFEFFimport * as lib from "./lib"\r\nlet s = "😀" + lib.greet("b")\r\n';

function positionIn(text: string, needle: string, occurrence = 0, delta = 1): Position {
  let at = -1;
  for (let i = 0; i <= occurrence; i++) at = text.indexOf(needle, at + 1);
  assert.ok(at >= 0, `${needle} not found`);
  return new HarnAnalysis(text).lineIndex.positionAt(at + delta);
}

function applyEdits(text: string, edits: readonly TextEdit[]): string {
  return TextDocument.applyEdits(TextDocument.create('file:///x', 'harn', 0, text), [...edits]);
}

describe('workspace index over stdio, beside a syntax error', () => {
  let workspace: FixtureWorkspace;
  let client: TestClient;
  let root: string;
  let mainUri: string;
  const uriOf = (name: string): string => URI.file(path.join(root, name)).toString();
  const shown = (locations: readonly Location[]): string[] =>
    locations.map((l) => `${path.basename(URI.parse(l.uri).fsPath)}:${l.range.start.line}:${l.range.start.character}`).sort();

  before(async () => {
    workspace = await fixtureWorkspace('harn-index-', { 'lib.harn': LIB, 'mid.harn': MID, 'main.harn': MAIN, 'other.harn': OTHER }, 'main.harn');
    ({ client, root, uri: mainUri } = workspace);
    assert.ok(
      workspace.published.diagnostics.some((d) => d.source === 'harn.syntax'),
      'main.harn is broken',
    );
  });

  after(async () => {
    await workspace.close();
  });

  test('references: across the open broken file, the re-export and closed files (UTF-16 after an emoji, CRLF, BOM)', async () => {
    const withDeclaration = await client.connection.sendRequest(ReferencesRequest.type, {
      textDocument: { uri: mainUri },
      position: positionIn(MAIN, 'greet("a")'),
      context: { includeDeclaration: true },
    });
    assert.deepEqual(shown(withDeclaration ?? []), ['lib.harn:0:7', 'main.harn:0:9', 'main.harn:9:6', 'mid.harn:0:13', 'other.harn:1:19']);
    const without = await client.connection.sendRequest(ReferencesRequest.type, {
      textDocument: { uri: mainUri },
      position: positionIn(MAIN, 'greet("a")'),
      context: { includeDeclaration: false },
    });
    assert.deepEqual(shown(without ?? []), ['main.harn:0:9', 'main.harn:9:6', 'mid.harn:0:13', 'other.harn:1:19']);
  });

  test('document highlight: writes and reads of a variable in the broken file', async () => {
    const highlights = await client.connection.sendRequest(DocumentHighlightRequest.type, {
      textDocument: { uri: mainUri },
      position: positionIn(MAIN, 'count', 2),
    });
    assert.deepEqual(
      (highlights ?? []).map((h) => [h.range.start.line, h.range.start.character, h.kind]),
      [
        [7, 6, DocumentHighlightKind.Write],
        [8, 2, DocumentHighlightKind.Write],
        [8, 10, DocumentHighlightKind.Read],
        [9, 19, DocumentHighlightKind.Read],
      ],
    );
  });

  test('prepareRename: the name and its range; a builtin and a keyword refused with their reason', async () => {
    const prepared = await client.connection.sendRequest(PrepareRenameRequest.type, {
      textDocument: { uri: mainUri },
      position: positionIn(MAIN, 'greet("a")'),
    });
    assert.deepEqual(prepared, { range: { start: { line: 9, character: 6 }, end: { line: 9, character: 11 } }, placeholder: 'greet' });
    const refusal = async (position: Position): Promise<string> => {
      try {
        await client.connection.sendRequest(PrepareRenameRequest.type, { textDocument: { uri: mainUri }, position });
      } catch (error) {
        assert.ok(error instanceof ResponseError);
        return error.message;
      }
      assert.fail('not refused');
    };
    assert.match(await refusal(positionIn(MAIN, 'log(')), /'log' is a builtin of Harn/);
    assert.match(await refusal(positionIn(MAIN, 'pipeline')), /'pipeline' is a keyword of Harn/);
  });

  test('rename: one WorkspaceEdit over every file; applied, each file parses as before; a collision is refused', async () => {
    const edit = await client.connection.sendRequest(RenameRequest.type, {
      textDocument: { uri: mainUri },
      position: positionIn(MAIN, 'greet("a")'),
      newName: 'salute',
    });
    const changes = edit?.changes ?? {};
    assert.deepEqual(Object.keys(changes).sort(), ['lib.harn', 'main.harn', 'mid.harn', 'other.harn'].map(uriOf).sort());
    const texts: Record<string, string> = { 'lib.harn': LIB, 'mid.harn': MID, 'main.harn': MAIN, 'other.harn': OTHER };
    for (const [name, before] of Object.entries(texts)) {
      const after = applyEdits(before, changes[uriOf(name)] ?? []);
      assert.equal(after, before.replaceAll('greet', 'salute'), `${name}: exactly the references renamed`);
      assert.equal(new HarnAnalysis(after).parsed.diagnostics.length, new HarnAnalysis(before).parsed.diagnostics.length, `${name} parses as before`);
    }
    await assert.rejects(
      client.connection.sendRequest(RenameRequest.type, { textDocument: { uri: mainUri }, position: positionIn(MAIN, 'greet("a")'), newName: 'farewell' }),
      (error: unknown) => error instanceof ResponseError && /'farewell' is already used in .*lib\.harn at line 5/.test(error.message),
    );
  });

  test('workspace symbols: fuzzy and ranked, with their files', async () => {
    const symbols = await client.connection.sendRequest(WorkspaceSymbolRequest.type, { query: 'fw' });
    assert.deepEqual(
      (symbols ?? []).map((s) => s.name),
      ['farewell'],
    );
    const all = await client.connection.sendRequest(WorkspaceSymbolRequest.type, { query: 'ma' });
    assert.equal(all?.[0]?.name, 'main');
    const location = all?.[0]?.location;
    assert.ok(location && 'range' in location && location.uri === mainUri);
  });

  test('kept current: an edit in the editor and a file created on disk show in the next answer', async () => {
    await client.change(mainUri, [{ range: { start: { line: 10, character: 0 }, end: { line: 10, character: 0 } }, text: '  greet("again")\n' }]);
    fs.writeFileSync(path.join(root, 'late.harn'), 'import "./lib"\nlet z = greet("late")\n');
    await client.connection.sendNotification(DidChangeWatchedFilesNotification.type, { changes: [{ uri: uriOf('late.harn'), type: FileChangeType.Created }] });
    const refs = await client.connection.sendRequest(ReferencesRequest.type, {
      textDocument: { uri: mainUri },
      position: positionIn(MAIN, 'greet("a")'),
      context: { includeDeclaration: false },
    });
    assert.deepEqual(shown(refs ?? []), ['late.harn:1:8', 'main.harn:0:9', 'main.harn:10:2', 'main.harn:9:6', 'mid.harn:0:13', 'other.harn:1:19']);
    fs.rmSync(path.join(root, 'late.harn'));
    await client.connection.sendNotification(DidChangeWatchedFilesNotification.type, { changes: [{ uri: uriOf('late.harn'), type: FileChangeType.Deleted }] });
    const after = await client.connection.sendRequest(ReferencesRequest.type, {
      textDocument: { uri: mainUri },
      position: positionIn(MAIN, 'greet("a")'),
      context: { includeDeclaration: false },
    });
    assert.ok(!shown(after ?? []).some((s) => s.startsWith('late.harn')), 'the deleted file is gone from the index');
  });
});

describe('workspace index over stdio: enum variants and struct fields, beside a syntax error', () => {
  const SHAPES = 'pub enum Color {\n  Red,\n  Green\n}\n\npub struct Point {\n  x: int\n  y: int\n}\n';
  const PAINT = [
    'import { Color, Point } from "./shapes"',
    '',
    'fn broken(a, {', // the syntax error, in another declaration
    '  let x = )',
    '}',
    '',
    'fn paint(c: Color, p: Point) {',
    '  match c {',
    '    Color.Red -> { log(p.x) }',
    '  }',
    '  let q = p',
    '  return [Color.Red, q.x, Point { x: 1, y: 2 }]',
    '}',
    '',
  ].join('\n');
  let workspace: FixtureWorkspace;
  let client: TestClient;
  let root: string;
  let paintUri: string;
  const uriOf = (name: string): string => URI.file(path.join(root, name)).toString();
  const shown = (locations: readonly Location[]): string[] =>
    locations.map((l) => `${path.basename(URI.parse(l.uri).fsPath)}:${l.range.start.line}:${l.range.start.character}`).sort();

  before(async () => {
    workspace = await fixtureWorkspace('harn-members-', { 'shapes.harn': SHAPES, 'paint.harn': PAINT }, 'paint.harn');
    ({ client, root, uri: paintUri } = workspace);
    assert.ok(
      workspace.published.diagnostics.some((d) => d.source === 'harn.syntax'),
      'paint.harn is broken',
    );
  });

  after(async () => {
    await workspace.close();
  });

  test('references of a variant across files; a field renamed and highlighted exactly at its references; `q.x` refused', async () => {
    const variant = await client.connection.sendRequest(ReferencesRequest.type, {
      textDocument: { uri: paintUri },
      position: positionIn(PAINT, 'Color.Red', 0, 7),
      context: { includeDeclaration: true },
    });
    assert.deepEqual(shown(variant ?? []), ['paint.harn:11:16', 'paint.harn:8:10', 'shapes.harn:1:2']);

    const edit = await client.connection.sendRequest(RenameRequest.type, {
      textDocument: { uri: paintUri },
      position: positionIn(PAINT, 'p.x', 0, 2),
      newName: 'left',
    });
    const changes = edit?.changes ?? {};
    assert.deepEqual(Object.keys(changes).sort(), ['paint.harn', 'shapes.harn'].map(uriOf).sort());
    assert.equal(applyEdits(SHAPES, changes[uriOf('shapes.harn')] ?? []), SHAPES.replace('  x: int', '  left: int'));
    // `p.x` (p: Point) and the literal's `x:`; not `q.x` (q's type is not declared) nor the broken function's `let x`.
    assert.equal(applyEdits(PAINT, changes[uriOf('paint.harn')] ?? []), PAINT.replace('log(p.x)', 'log(p.left)').replace('Point { x: 1', 'Point { left: 1'));

    // In the file: the two uses of the field, reads; not `q.x`.
    const highlights = await client.connection.sendRequest(DocumentHighlightRequest.type, {
      textDocument: { uri: paintUri },
      position: positionIn(PAINT, 'p.x', 0, 2),
    });
    assert.deepEqual(
      (highlights ?? []).map((h) => [h.range.start.line, h.range.start.character, h.kind]),
      [
        [8, 25, DocumentHighlightKind.Read],
        [11, 34, DocumentHighlightKind.Read],
      ],
    );

    await assert.rejects(
      client.connection.sendRequest(PrepareRenameRequest.type, { textDocument: { uri: paintUri }, position: positionIn(PAINT, 'q.x', 0, 2) }),
      (error: unknown) => error instanceof ResponseError && /'x' is a member of a value whose type is not declared here/.test(error.message),
    );
  });
});
