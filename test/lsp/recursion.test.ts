// Expression chains through the real server (issue 9, "Recursion"): each chain file sits under crates/, where the
// loud-boundary gate scans it from disk and the live checks scan it as it is opened (a chain used to overflow the
// stack in that scan: the whole gate failed, logged at info, and the file's live checks failed). Every feature
// answers on every chain, the gate still publishes its findings on the other files, and the server logs no failure.

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  CompletionItem,
  CompletionRequest,
  DefinitionRequest,
  DocumentLinkRequest,
  DocumentSymbol,
  DocumentSymbolRequest,
  FoldingRangeRequest,
  HoverRequest,
  LocationLink,
  MarkupContent,
  Position,
} from 'vscode-languageserver-protocol/node';
import { URI } from 'vscode-uri';
import { defined } from '../support/assertions';
import { CHAINS, CONDITIONAL } from '../support/chains';
import { TestClient } from '../support/lspClient';

const HEADER = 'import { greet } from "../lib"\n// reports no boundary\nfn f() {\n  return greet()\n}\nlet a = f\n';
const CHAIN_LINE = 6;

const FILES: Record<string, string> = {
  'scripts/loud_boundaries.toml': '[[boundary]]\nid = "a_b"\ntitle = "A"\nanchors = ["crates/vm/site.rs"]\ntest = "crates/vm/site.rs"\n',
  'crates/harn-vm/src/boundary.rs':
    'pub enum BoundaryId { AB }\nimpl BoundaryId {\n    pub fn as_str(self) -> &\'static str {\n        match self {\n            Self::AB => "a_b",\n        }\n    }\n}\n',
  'crates/vm/site.rs': 'fn f() { report(BoundaryId::AB); } // a_b\n',
  'crates/lib.harn': '/** Says hello. */\npub fn greet() -> string {\n  return "hi"\n}\n',
  'crates/other.harn': 'let r = {boundary: "nope"}\n',
};

/** Each chain on line 6 of a file that imports, declares and uses names around it. */
const CHAIN_FILES: Record<string, string> = {};
for (const [name, chain] of Object.entries({ ...CHAINS, names: 'let x = f' + ' + f'.repeat(2500) })) CHAIN_FILES[name] = HEADER + chain + '\n';
const CONDITIONAL_FILE = HEADER + CONDITIONAL + '\n';

const at = (line: number, character: number): Position => ({ line, character });
const fileUri = (root: string, rel: string): string => URI.file(path.join(root, rel)).toString();

describe('expression chains over LSP', { timeout: 120_000 }, () => {
  let client: TestClient;
  let root: string;
  const uris = new Map<string, string>();

  before(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'harn-lsp-chains-'));
    const all: Record<string, string> = { ...FILES, 'crates/chains/conditional.harn': CONDITIONAL_FILE };
    for (const [name, text] of Object.entries(CHAIN_FILES)) all[`crates/chains/${name}.harn`] = text;
    for (const [rel, text] of Object.entries(all)) {
      fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
      fs.writeFileSync(path.join(root, rel), text);
    }
    client = new TestClient();
    await client.initialize(root);
    for (const [name, text] of Object.entries(CHAIN_FILES)) uris.set(name, await client.open(path.join(root, `crates/chains/${name}.harn`), text));
    uris.set('conditional', await client.open(path.join(root, 'crates/chains/conditional.harn'), CONDITIONAL_FILE));
  });

  after(async () => {
    await client.shutdown();
    fs.rmSync(root, { recursive: true, force: true });
  });

  test('the gate ran over every file, chains included, and published its finding on another file', async () => {
    const published = await client.waitForDiagnostics(fileUri(root, 'crates/other.harn'), (p) => p.diagnostics.length > 0, 30_000);
    assert.deepEqual(
      published.diagnostics.map(
        (d) => `${String(d.code)} ${d.range.start.line}:${d.range.start.character} ${typeof d.message === 'string' ? d.message : d.message.value}`,
      ),
      ['unknown_boundary 0:19 nope: reports boundary `nope`, which is not in the registry'],
    );
  });

  test('publishes no diagnostics for a valid chain (syntax and live boundary checks both ran)', async () => {
    for (const [name, uri] of uris) {
      if (name === 'conditional') continue;
      const published = await client.waitForDiagnostics(uri, () => true, 30_000);
      assert.deepEqual(published.diagnostics, [], name);
    }
  });

  test('the 10,000-deep conditional: one nesting_too_deep at its 128th level', async () => {
    const published = await client.waitForDiagnostics(defined(uris.get('conditional')), () => true, 30_000);
    assert.deepEqual(
      published.diagnostics.map((d) => ({ code: d.code, source: d.source, severity: d.severity, range: d.range, message: d.message })),
      [
        {
          code: 'nesting_too_deep',
          source: 'harn.syntax',
          severity: 1,
          range: { start: at(CHAIN_LINE, 1020), end: at(CHAIN_LINE, 1021) },
          message: 'Nesting too deep (more than 128 levels): the rest of this statement is skipped',
        },
      ],
    );
  });

  test('outline, folding and links answer on every chain', async () => {
    for (const [name, uri] of uris) {
      const textDocument = { uri };
      const symbols = (await client.connection.sendRequest(DocumentSymbolRequest.type, { textDocument })) as DocumentSymbol[];
      assert.deepEqual(
        symbols.map((s) => s.name),
        ['f', 'a', name === 'elseIf' ? 'g' : 'x'],
        name,
      );
      const folds = await client.connection.sendRequest(FoldingRangeRequest.type, { textDocument });
      const foldLines = (folds ?? []).map((f) => `${f.startLine}-${f.endLine}`);
      assert.deepEqual(foldLines, ['2-3'], name);
      const links = await client.connection.sendRequest(DocumentLinkRequest.type, { textDocument });
      assert.deepEqual(
        (links ?? []).map((l) => ({ range: l.range, target: l.target })),
        [{ range: { start: at(0, 23), end: at(0, 29) }, target: fileUri(root, 'crates/lib.harn') }],
        name,
      );
    }
  });

  test('hover, definition and completion answer around and deep inside every chain', async () => {
    for (const [name, uri] of uris) {
      const textDocument = { uri };
      const hoverAt = async (position: Position): Promise<string | undefined> => {
        const hover = await client.connection.sendRequest(HoverRequest.type, { textDocument, position });
        return hover ? (hover.contents as MarkupContent).value : undefined;
      };
      assert.match(defined(await hoverAt(at(3, 10)), `${name}: hover on greet`), /pub fn greet\(\) -> string/, name);
      assert.match(defined(await hoverAt(at(5, 8)), `${name}: hover on f`), /fn f\(\)/, name);
      const definition = (await client.connection.sendRequest(DefinitionRequest.type, { textDocument, position: at(5, 8) })) as LocationLink[];
      assert.deepEqual(
        definition.map((l) => l.targetSelectionRange),
        [{ start: at(2, 3), end: at(2, 4) }],
        name,
      );
      const lineLength = (name === 'conditional' ? CONDITIONAL_FILE : defined(CHAIN_FILES[name])).split('\n')[CHAIN_LINE]?.length ?? 0;
      for (const character of [9, Math.floor(lineLength / 2), lineLength - 2, lineLength]) {
        // Deep inside: whatever is there (a literal, an operator, a member name) is answered without a failure.
        await client.connection.sendRequest(HoverRequest.type, { textDocument, position: at(CHAIN_LINE, character) });
        await client.connection.sendRequest(DefinitionRequest.type, { textDocument, position: at(CHAIN_LINE, character) });
      }
      const items = (await client.connection.sendRequest(CompletionRequest.type, { textDocument, position: at(CHAIN_LINE + 1, 0) })) as CompletionItem[];
      const labels = new Set(items.map((i) => i.label));
      for (const expected of ['greet', 'f', 'a', name === 'elseIf' ? 'g' : 'x', 'let'])
        assert.ok(labels.has(expected), `${name}: completion lacks ${expected}`);
    }
  });

  test('names deep inside a chain resolve: hover and definition 2,000 links in', async () => {
    const uri = defined(uris.get('names'));
    const text = defined(CHAIN_FILES.names);
    const line = defined(text.split('\n')[CHAIN_LINE]);
    const deep = line.length - 4 * 500 - 1; // a `f` 500 links from the end, 2,000 from the start
    assert.equal(line[deep], 'f');
    const hover = await client.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: at(CHAIN_LINE, deep) });
    assert.match((hover?.contents as MarkupContent | undefined)?.value ?? '', /fn f\(\)/);
    const definition = (await client.connection.sendRequest(DefinitionRequest.type, {
      textDocument: { uri },
      position: at(CHAIN_LINE, deep),
    })) as LocationLink[];
    assert.deepEqual(
      definition.map((l) => l.targetSelectionRange),
      [{ start: at(2, 3), end: at(2, 4) }],
    );
  });

  test('the server logged no failure', () => {
    assert.deepEqual(
      client.logMessages().filter((m) => /failed/i.test(m)),
      [],
    );
    assert.deepEqual(client.logMessages(1), []);
  });
});
