// Formatting over stdio (issue 16): textDocument/formatting, rangeFormatting and onTypeFormatting on `}` give
// small edits that produce `harn fmt`'s text (server/src/harn/format), around syntax errors, with the harn.toml
// [fmt] options of the folder (read again when it changes), keeping CRLF; a refusal is no edits and a warning
// shown once; nothing answers while our .harn language features are off.

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  DocumentFormattingRequest,
  DocumentOnTypeFormattingRequest,
  DocumentRangeFormattingRequest,
  FormattingOptions,
  Range,
  TextEdit,
} from 'vscode-languageserver-protocol/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { format } from '../../server/src/harn/format';
import { LanguageFeaturesParams } from '../../server/src/protocol';
import { FixtureWorkspace, fixtureWorkspace, REPO_ROOT, TestClient } from '../support/lspClient';

/** What VS Code sends; ignored by the server (`harn fmt` indents by two spaces). */
const OPTIONS: FormattingOptions = { tabSize: 8, insertSpaces: false };

const BADLY_INDENTED = 'fn add(a, b) {\n      let sum = a + b\n    return sum\n}\n\npipeline main() {\nlog(add(1, 2))\n}\n';
const ONE_BROKEN = 'fn good() {\n        log(1)\n}\n\nfn broken( {\n        log(2)\n}\n\nfn also_good() {\n    log(3)\n}\n';
const WIDE = 'fn f() {\n  let xs = some_function(alpha_value, beta_value, gamma_value)\n}\n';

function formatted(text: string, lineWidth = 100): string {
  const result = format(text, { lineWidth, separatorWidth: 80 });
  if ('refused' in result) throw new Error(`refused: ${result.refused}`);
  return result.text;
}

const apply = (text: string, edits: TextEdit[] | null): string => TextDocument.applyEdits(TextDocument.create('file:///t.harn', 'harn', 1, text), edits ?? []);

async function formatDocument(client: TestClient, uri: string): Promise<TextEdit[] | null> {
  return client.connection.sendRequest(DocumentFormattingRequest.type, { textDocument: { uri }, options: OPTIONS });
}

async function formatRange(client: TestClient, uri: string, range: Range): Promise<TextEdit[] | null> {
  return client.connection.sendRequest(DocumentRangeFormattingRequest.type, { textDocument: { uri }, range, options: OPTIONS });
}

describe('formatting over LSP', () => {
  let ws: FixtureWorkspace;
  const open = async (name: string, text: string): Promise<string> => {
    fs.writeFileSync(path.join(ws.root, name), text);
    return ws.client.open(path.join(ws.root, name), text);
  };

  before(async () => {
    ws = await fixtureWorkspace('harn-fmt-lsp-', { 'main.harn': BADLY_INDENTED }, 'main.harn');
  });
  after(async () => ws.close());

  test('the capabilities: formatting, range formatting, on-type on `}`', () => {
    const caps = ws.initialized.capabilities;
    assert.equal(caps.documentFormattingProvider, true);
    assert.equal(caps.documentRangeFormattingProvider, true);
    assert.deepEqual(caps.documentOnTypeFormattingProvider, { firstTriggerCharacter: '}' });
  });

  test("a badly indented file: the edits give the formatter's text, each only the leading spaces of its line", async () => {
    const edits = await formatDocument(ws.client, ws.uri);
    assert.ok(edits && edits.length > 0);
    assert.equal(apply(BADLY_INDENTED, edits), formatted(BADLY_INDENTED));
    const lines = BADLY_INDENTED.split('\n');
    for (const e of edits) {
      assert.equal(e.range.start.line, e.range.end.line, JSON.stringify(e));
      assert.match(e.newText, /^ *$/, JSON.stringify(e));
      const line = lines[e.range.start.line] ?? '';
      assert.ok(e.range.end.character <= line.length - line.trimStart().length, `edits more than the leading spaces: ${JSON.stringify(e)}`);
    }
    // Three lines re-indented, three edits (not one whole-document replacement); tabSize 8 / tabs ignored.
    assert.equal(edits.length, 3);
  });

  test('a syntax error in one declaration: the others are formatted, the broken one is untouched', async () => {
    const uri = await open('broken.harn', ONE_BROKEN);
    const result = apply(ONE_BROKEN, await formatDocument(ws.client, uri));
    assert.equal(result, 'fn good() {\n  log(1)\n}\n\nfn broken( {\n        log(2)\n}\n\nfn also_good() {\n  log(3)\n}\n');
  });

  test('range formatting touches only the declaration the range is in', async () => {
    const uri = await open('range.harn', ONE_BROKEN);
    const edits = await formatRange(ws.client, uri, { start: { line: 9, character: 2 }, end: { line: 9, character: 4 } });
    assert.deepEqual(edits, [{ range: { start: { line: 9, character: 2 }, end: { line: 9, character: 4 } }, newText: '' }]);
  });

  test('typing `}` re-indents the block it closes, nothing outside it', async () => {
    const text = 'fn f() {\n    if true {\n          log(1)\n    }\n    log(2)\n}\n';
    const uri = await open('ontype.harn', text);
    const edits = await ws.client.connection.sendRequest(DocumentOnTypeFormattingRequest.type, {
      textDocument: { uri },
      position: { line: 3, character: 5 },
      ch: '}',
      options: OPTIONS,
    });
    assert.equal(apply(text, edits), 'fn f() {\n  if true {\n    log(1)\n  }\n    log(2)\n}\n');
    // A `}` inside a string closes nothing.
    const inString = 'fn f() {\n    log("}")\n}\n';
    const stringUri = await open('ontype-string.harn', inString);
    const none = await ws.client.connection.sendRequest(DocumentOnTypeFormattingRequest.type, {
      textDocument: { uri: stringUri },
      position: { line: 1, character: 10 },
      ch: '}',
      options: OPTIONS,
    });
    assert.ok(none === null || none.length === 0, JSON.stringify(none));
  });

  test('a CRLF document keeps its CRLF line ends', async () => {
    const crlf = BADLY_INDENTED.replace(/\n/g, '\r\n');
    const uri = await open('crlf.harn', crlf);
    assert.equal(apply(crlf, await formatDocument(ws.client, uri)), formatted(BADLY_INDENTED).replace(/\n/g, '\r\n'));
  });

  test('a refusal: no edits, the reason logged, shown as a warning once (not again at the next save)', async () => {
    const text = '/* never closed\nfn f() {\n    log(1)\n}\n';
    const uri = await open('refused.harn', text);
    const from = ws.client.notifications.length;
    assert.equal(await formatDocument(ws.client, uri), null);
    const shown = (await ws.client.waitForNotification('window/showMessage', () => true, 10000, from)) as { message: string; type: number };
    assert.match(shown.message, /not formatted: cannot format around the syntax error: Unterminated block comment at 1:1/);
    assert.equal(shown.type, 2);
    assert.ok(
      ws.client.notifications
        .slice(from)
        .some(
          (n) =>
            n.method === 'window/logMessage' && /Not formatted: .*refused\.harn.*Unterminated block comment/.test((n.params as { message: string }).message),
        ),
    );
    assert.equal(await formatDocument(ws.client, uri), null);
    assert.equal(ws.client.notifications.slice(from).filter((n) => n.method === 'window/showMessage').length, 1);
  });
});

describe('formatting with a harn.toml', () => {
  let ws: FixtureWorkspace;
  before(async () => {
    ws = await fixtureWorkspace('harn-fmt-toml-', { 'harn.toml': '[fmt]\nline_width = 40\n', 'wide.harn': WIDE }, 'wide.harn');
  });
  after(async () => ws.close());

  test('[fmt] line_width = 40 changes the result; an edited harn.toml counts at the next request', async () => {
    assert.notEqual(formatted(WIDE, 40), formatted(WIDE));
    assert.equal(apply(WIDE, await formatDocument(ws.client, ws.uri)), formatted(WIDE, 40));
    fs.writeFileSync(path.join(ws.root, 'harn.toml'), '[fmt]\nline-width = 100\n');
    assert.equal(apply(WIDE, await formatDocument(ws.client, ws.uri)), formatted(WIDE));
  });

  test('a harn.toml that cannot be used: formatted with the defaults, the problem logged', async () => {
    fs.writeFileSync(path.join(ws.root, 'harn.toml'), '[fmt]\nline_width = "wide"\n');
    const from = ws.client.notifications.length;
    assert.equal(apply(WIDE, await formatDocument(ws.client, ws.uri)), formatted(WIDE));
    assert.ok(
      ws.client.notifications
        .slice(from)
        .some(
          (n) =>
            n.method === 'window/logMessage' &&
            /failed to parse .*harn\.toml: \[fmt\] line_width: expected a non-negative integer/.test((n.params as { message: string }).message),
        ),
    );
  });
});

describe('formatting steps back with the other .harn language features', () => {
  const OFF: LanguageFeaturesParams = { enabled: false, reason: "harn.languageFeatures is auto and upstream's extension is installed" };
  const ON: LanguageFeaturesParams = { enabled: true, reason: 'harn.languageFeatures is on' };
  let ws: FixtureWorkspace;
  before(async () => {
    ws = await fixtureWorkspace('harn-fmt-off-', { 'main.harn': BADLY_INDENTED }, 'main.harn', { initializationOptions: { languageFeatures: OFF } });
  });
  after(async () => ws.close());

  test('off: no edits from any formatting method; switched on: edits; off again: none', async () => {
    const range = { start: { line: 0, character: 0 }, end: { line: 7, character: 1 } };
    const onType = { textDocument: { uri: ws.uri }, position: { line: 3, character: 1 }, ch: '}', options: OPTIONS };
    assert.equal(await formatDocument(ws.client, ws.uri), null);
    assert.equal(await formatRange(ws.client, ws.uri, range), null);
    assert.equal(await ws.client.connection.sendRequest(DocumentOnTypeFormattingRequest.type, onType), null);
    await ws.client.connection.sendNotification('harn/languageFeatures', ON);
    assert.equal(apply(BADLY_INDENTED, await formatDocument(ws.client, ws.uri)), formatted(BADLY_INDENTED));
    assert.ok(((await formatRange(ws.client, ws.uri, range)) ?? []).length > 0);
    await ws.client.connection.sendNotification('harn/languageFeatures', OFF);
    assert.equal(await formatDocument(ws.client, ws.uri), null);
  });
});

test('the extension is the default formatter for harn (its id: publisher.name)', () => {
  const manifest = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
    publisher: string;
    name: string;
    contributes: { configurationDefaults?: Record<string, Record<string, unknown>> };
  };
  assert.equal(manifest.contributes.configurationDefaults?.['[harn]']?.['editor.defaultFormatter'], `${manifest.publisher}.${manifest.name}`);
});
