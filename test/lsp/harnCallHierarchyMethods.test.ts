// Call hierarchy through method calls over stdio: prepare on a method call in an open file with a syntax error in
// another declaration, incoming calls from it and from closed files (one CRLF with a BOM and an emoji), outgoing
// method calls; an edit to the open file shows in the next answer.

import assert from 'node:assert/strict';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  CallHierarchyIncomingCallsRequest,
  CallHierarchyItem,
  CallHierarchyOutgoingCallsRequest,
  CallHierarchyPrepareRequest,
  Position,
  SymbolKind,
} from 'vscode-languageserver-protocol/node';
import { URI } from 'vscode-uri';
import { HarnAnalysis } from '../../server/src/harn/analysis';
import { FixtureWorkspace, fixtureWorkspace, TestClient } from '../support/lspClient';

/** The type and its methods, closed, with CRLF and a BOM. */
const GEOM = [
  '\uFEFFpub struct Point { x: int }',
  'impl Point {',
  '  pub fn new(x: int) -> Point { return Point { x: x } }',
  '  fn scale(self, k: int) -> Point { return Point.new(self.x * k) }',
  '}',
  '',
].join('\r\n');
/** The open file: a syntax error in another declaration, typed and untyped receivers. */
const APP = [
  'import { Point } from "./geom"',
  'fn broken(a, {',
  '  let x = )',
  '}',
  'fn grow(p: Point) -> Point {',
  '  let u = origin()',
  '  u.scale(9)',
  '  return p.scale(3)',
  '}',
  '',
].join('\n');
/** Another closed caller, the call after an emoji on its line. */
const OTHER = ['import { Point } from "./geom"', 'fn shrink(q: Point) {', '  let s = "😀" + q.scale(0)', '}', ''].join('\n');

function positionIn(text: string, needle: string, delta = 0): Position {
  const at = text.indexOf(needle);
  assert.ok(at >= 0, `${needle} not found`);
  return new HarnAnalysis(text).lineIndex.positionAt(at + delta);
}

describe('call hierarchy through method calls, over stdio', () => {
  let workspace: FixtureWorkspace;
  let client: TestClient;
  let appUri: string;
  const where = (uri: string, position: Position): string => `${path.basename(URI.parse(uri).fsPath)}:${position.line}:${position.character}`;
  const prepare = async (text: string, needle: string, delta: number): Promise<CallHierarchyItem[]> =>
    (await client.connection.sendRequest(CallHierarchyPrepareRequest.type, { textDocument: { uri: appUri }, position: positionIn(text, needle, delta) })) ?? [];
  const callers = async (item: CallHierarchyItem): Promise<[string, string, string[]][]> =>
    ((await client.connection.sendRequest(CallHierarchyIncomingCallsRequest.type, { item })) ?? [])
      .map((c): [string, string, string[]] => [
        c.from.name,
        where(c.from.uri, c.from.selectionRange.start),
        c.fromRanges.map((r) => `${r.start.line}:${r.start.character}`),
      ])
      .sort((a, b) => (a[1] < b[1] ? -1 : 1));

  before(async () => {
    workspace = await fixtureWorkspace('harn-callh-', { 'geom.harn': GEOM, 'app.harn': APP, 'other.harn': OTHER }, 'app.harn');
    ({ client, uri: appUri } = workspace);
    assert.ok(
      workspace.published.diagnostics.some((d) => d.source === 'harn.syntax'),
      'app.harn is broken',
    );
  });

  after(async () => {
    await workspace.close();
  });

  test('prepare on v.m() gives the method with its impl; incoming from the open and the closed files; outgoing', async () => {
    const [scale, ...more] = await prepare(APP, 'p.scale', 2);
    assert.ok(scale);
    assert.equal(more.length, 0);
    assert.deepEqual(
      [scale.name, scale.kind, scale.detail, where(scale.uri, scale.selectionRange.start)],
      ['scale', SymbolKind.Method, 'impl Point', 'geom.harn:3:5'],
    );
    assert.deepEqual(await prepare(APP, 'u.scale', 2), [], 'u has no declared type');

    assert.deepEqual(await callers(scale), [
      ['grow', 'app.harn:4:3', ['7:11']], // not u.scale(9)
      ['shrink', 'other.harn:1:3', ['2:19']], // after the emoji: UTF-16 columns
    ]);

    const outgoing = (await client.connection.sendRequest(CallHierarchyOutgoingCallsRequest.type, { item: scale })) ?? [];
    assert.deepEqual(
      outgoing.map((c) => [
        c.to.name,
        c.to.kind,
        c.to.detail,
        where(c.to.uri, c.to.selectionRange.start),
        c.fromRanges.map((r) => `${r.start.line}:${r.start.character}`),
      ]),
      [['new', SymbolKind.Method, 'impl Point', 'geom.harn:2:9', ['3:49']]],
      "Point.new in scale's body (CRLF lines)",
    );
  });

  test('an edit to the open file adds its new method call to the next answer', async () => {
    const [scale] = await prepare(APP, 'p.scale', 2);
    assert.ok(scale);
    // After grow's closing brace: a top-level function of its own.
    const line = APP.split('\n').indexOf('}', 4) + 1;
    await client.change(appUri, [{ range: { start: { line, character: 0 }, end: { line, character: 0 } }, text: 'fn again(p: Point) { p.scale(5) }\n' }]);
    assert.deepEqual(await callers(scale), [
      ['grow', 'app.harn:4:3', ['7:11']],
      ['again', `app.harn:${line}:3`, [`${line}:23`]],
      ['shrink', 'other.harn:1:3', ['2:19']],
    ]);
  });
});
