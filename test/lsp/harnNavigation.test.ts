// Call hierarchy, declaration, type definition and implementation over stdio, answered on an open file with a
// syntax error in another declaration, across closed files read from disk (one CRLF with a BOM and an emoji).

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  CallHierarchyIncomingCallsRequest,
  CallHierarchyOutgoingCallsRequest,
  CallHierarchyPrepareRequest,
  DeclarationRequest,
  ImplementationRequest,
  Location,
  LocationLink,
  Position,
  SymbolKind,
  TypeDefinitionRequest,
} from 'vscode-languageserver-protocol/node';
import { URI } from 'vscode-uri';
import { HarnAnalysis } from '../../server/src/harn/analysis';
import { FixtureWorkspace, fixtureWorkspace, TestClient } from '../support/lspClient';

const LIB = [
  'pub fn greet(name: string) -> string {',
  '  return shout(name)',
  '}',
  'fn shout(s) { return upper(s) }',
  'pub struct Point { x: int }',
  'pub interface Shape { fn area(self) -> int }',
  'impl Point { fn norm(self) { return 1 } }',
  '',
].join('\n');
const MAIN = [
  'import { greet, Point, Shape } from "./lib"',
  '',
  'fn broken(a, {', // the syntax error, in another declaration
  '  let x = )',
  '}',
  '',
  'impl Shape for Point { fn area(self) { return 0 } }',
  'fn main(p: Point) {',
  '  let q: Point = nil',
  '  log(greet("a"), q, p)',
  '}',
  '',
].join('\n');
/** A closed caller written with CRLF and a BOM, an emoji before the call on its line. */
const OTHER = '\uFEFFimport { greet } from "./lib"\r\nfn hi() {\r\n  let s = "😀" + greet("b")\r\n}\r\n';

function positionIn(text: string, needle: string, occurrence = 0, delta = 1): Position {
  let at = -1;
  for (let i = 0; i <= occurrence; i++) at = text.indexOf(needle, at + 1);
  assert.ok(at >= 0, `${needle} not found`);
  return new HarnAnalysis(text).lineIndex.positionAt(at + delta);
}

describe('navigation over stdio, beside a syntax error', () => {
  let workspace: FixtureWorkspace;
  let client: TestClient;
  let root: string;
  let mainUri: string;
  const uriOf = (name: string): string => URI.file(path.join(root, name)).toString();
  const at = (uri: string, range: { start: Position }): string => `${path.basename(URI.parse(uri).fsPath)}:${range.start.line}:${range.start.character}`;
  const links = (found: Location | Location[] | LocationLink[] | null): string[] =>
    (found === null ? [] : Array.isArray(found) ? found : [found])
      .map((l) => ('targetUri' in l ? at(l.targetUri, l.targetSelectionRange) : at(l.uri, l.range)))
      .sort();

  before(async () => {
    workspace = await fixtureWorkspace('harn-nav-', { 'lib.harn': LIB, 'main.harn': MAIN, 'other.harn': OTHER }, 'main.harn');
    ({ client, root, uri: mainUri } = workspace);
    const init = workspace.initialized;
    assert.ok(init.capabilities.callHierarchyProvider && init.capabilities.declarationProvider);
    assert.ok(init.capabilities.typeDefinitionProvider && init.capabilities.implementationProvider);
    assert.ok(
      workspace.published.diagnostics.some((d) => d.source === 'harn.syntax'),
      'main.harn is broken',
    );
  });

  after(async () => {
    await workspace.close();
  });

  test('call hierarchy: prepare on a call, incoming from the broken open file and a closed CRLF file, outgoing', async () => {
    const items = await client.connection.sendRequest(CallHierarchyPrepareRequest.type, {
      textDocument: { uri: mainUri },
      position: positionIn(MAIN, 'greet("a")'),
    });
    assert.equal(items?.length, 1);
    const greet = items?.[0];
    assert.ok(greet);
    assert.deepEqual([greet.name, greet.kind, at(greet.uri, greet.selectionRange)], ['greet', SymbolKind.Function, 'lib.harn:0:7']);

    const incoming = await client.connection.sendRequest(CallHierarchyIncomingCallsRequest.type, { item: greet });
    assert.deepEqual(
      (incoming ?? []).map((c) => [c.from.name, at(c.from.uri, c.from.selectionRange), c.fromRanges.map((r) => `${r.start.line}:${r.start.character}`)]).sort(),
      [
        ['hi', 'other.harn:1:3', ['2:17']], // after the emoji: UTF-16 columns (16 in code points)
        ['main', 'main.harn:7:3', ['9:6']],
      ],
    );
    const outgoing = await client.connection.sendRequest(CallHierarchyOutgoingCallsRequest.type, { item: greet });
    assert.deepEqual(
      (outgoing ?? []).map((c) => [c.to.name, at(c.to.uri, c.to.selectionRange), c.fromRanges.length]),
      [['shout', 'lib.harn:3:3', 1]],
    );
    const fromMain = await client.connection.sendRequest(CallHierarchyOutgoingCallsRequest.type, {
      item: { ...greet, name: 'main', uri: mainUri, selectionRange: { start: { line: 7, character: 3 }, end: { line: 7, character: 7 } } },
    });
    assert.deepEqual(
      (fromMain ?? []).map((c) => c.to.name),
      ['greet'],
    );
  });

  test('call hierarchy: a file item (top-level calls) calls what its top level calls, and is called by no one', async () => {
    const script = 'import { greet } from "./lib"\ngreet("top")\nfn f() { greet("in") }\n';
    fs.writeFileSync(path.join(root, 'script.harn'), script);
    const scriptUri = await client.open(path.join(root, 'script.harn'), script);
    const items = await client.connection.sendRequest(CallHierarchyPrepareRequest.type, {
      textDocument: { uri: mainUri },
      position: positionIn(MAIN, 'greet("a")'),
    });
    const greet = items?.[0];
    assert.ok(greet);
    const incoming = (await client.connection.sendRequest(CallHierarchyIncomingCallsRequest.type, { item: greet })) ?? [];
    const fileItem = incoming.find((c) => c.from.kind === SymbolKind.File)?.from;
    assert.ok(fileItem, `script.harn's top-level call is under the file: ${JSON.stringify(incoming.map((c) => c.from.name))}`);
    assert.equal(fileItem.uri, scriptUri);
    const outgoing = await client.connection.sendRequest(CallHierarchyOutgoingCallsRequest.type, { item: fileItem });
    assert.deepEqual(
      (outgoing ?? []).map((c) => [c.to.name, c.fromRanges.map((r) => r.start.line)]),
      [['greet', [1]]],
    );
    assert.deepEqual((await client.connection.sendRequest(CallHierarchyIncomingCallsRequest.type, { item: fileItem })) ?? [], []);
  });

  test('call hierarchy: nothing to prepare on a variable; an item of an unknown file has no calls', async () => {
    const none = await client.connection.sendRequest(CallHierarchyPrepareRequest.type, {
      textDocument: { uri: mainUri },
      position: positionIn(MAIN, 'q: Point', 0, 0),
    });
    assert.deepEqual(none ?? [], []);
    const ghost = {
      name: 'x',
      kind: SymbolKind.Function,
      uri: uriOf('gone.harn'),
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } },
    };
    const calls = await client.connection.sendRequest(CallHierarchyIncomingCallsRequest.type, { item: { ...ghost, selectionRange: ghost.range } });
    assert.deepEqual(calls ?? [], []);
  });

  test('declaration: an imported name is declared by its import; a local by its definition', async () => {
    const imported = await client.connection.sendRequest(DeclarationRequest.type, { textDocument: { uri: mainUri }, position: positionIn(MAIN, 'greet("a")') });
    assert.deepEqual(links(imported), ['main.harn:0:9']);
    const local = await client.connection.sendRequest(DeclarationRequest.type, { textDocument: { uri: mainUri }, position: positionIn(MAIN, 'q, p') });
    assert.deepEqual(links(local), ['main.harn:8:6']);
  });

  test("type definition: a variable's and a parameter's declared struct, in the closed module", async () => {
    for (const needle of ['q, p', 'p)']) {
      const found = await client.connection.sendRequest(TypeDefinitionRequest.type, {
        textDocument: { uri: mainUri },
        position: positionIn(MAIN, needle, 0, 0),
      });
      assert.deepEqual(links(found), ['lib.harn:4:11'], needle);
    }
  });

  test('implementation: the impl blocks of a struct (both files) and of an interface', async () => {
    const ofPoint = await client.connection.sendRequest(ImplementationRequest.type, { textDocument: { uri: mainUri }, position: positionIn(MAIN, 'Point {') });
    assert.deepEqual(links(ofPoint), ['lib.harn:6:5', 'main.harn:6:15']);
    const ofShape = await client.connection.sendRequest(ImplementationRequest.type, {
      textDocument: { uri: mainUri },
      position: positionIn(MAIN, 'Shape for'),
    });
    assert.deepEqual(links(ofShape), ['main.harn:6:15']);
  });
});
