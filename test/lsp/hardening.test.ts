// The real server over stdio on hostile workspaces and clients: imports and artifact files behind symbolic links
// that lead out of the workspace.

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { CompletionRequest, DefinitionRequest, DocumentLinkRequest, HoverRequest, MarkupContent, Position } from 'vscode-languageserver-protocol/node';
import { URI } from 'vscode-uri';
import { ValidateArtifactFileRequest } from '../../server/src/protocol';
import { TestClient } from '../support/lspClient';

const uriOf = (file: string): string => URI.file(file).toString();

function positionIn(text: string, needle: string, delta = 0): Position {
  const at = text.indexOf(needle);
  assert.ok(at >= 0, needle);
  const before = text.slice(0, at + delta).split('\n');
  return { line: before.length - 1, character: (before.at(-1) ?? '').length };
}

describe('symbolic links out of the workspace', () => {
  let client: TestClient;
  let base: string;
  let root: string;
  let outside: string;
  const MAIN = 'import "./secret"\nimport { leaked } from "./vendor/secret"\nimport "./alias"\nlet a = leaked()\nlet b = kept()\nlet c = ';

  before(async () => {
    base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'harn-lsp-links-')));
    root = path.join(base, 'ws');
    outside = path.join(base, 'outside');
    fs.mkdirSync(root);
    fs.mkdirSync(outside);
    fs.writeFileSync(path.join(outside, 'secret.harn'), '/** Leaked doc. */\npub fn leaked() { return 1 }\n');
    fs.writeFileSync(path.join(outside, 'llm_transcript.jsonl'), '{"type":"message"}\n');
    fs.writeFileSync(path.join(root, 'lib.harn'), '/** Kept. */\npub fn kept() { return 2 }\n');
    fs.symlinkSync(path.join(outside, 'secret.harn'), path.join(root, 'secret.harn'));
    fs.symlinkSync(outside, path.join(root, 'vendor'));
    fs.symlinkSync(path.join(root, 'lib.harn'), path.join(root, 'alias.harn'));
    fs.symlinkSync(path.join(outside, 'llm_transcript.jsonl'), path.join(root, 'llm_transcript.jsonl'));
    client = new TestClient();
    await client.initialize(root);
    await client.open(path.join(root, 'main.harn'), MAIN);
  });

  after(async () => {
    await client.shutdown();
    fs.rmSync(base, { recursive: true, force: true });
  });

  const mainUri = (): string => uriOf(path.join(root, 'main.harn'));

  test('links: only the import that stays inside', async () => {
    const links = await client.connection.sendRequest(DocumentLinkRequest.type, { textDocument: { uri: mainUri() } });
    assert.deepEqual(
      links?.map((l) => [l.range, l.target]),
      [[{ start: positionIn(MAIN, './alias'), end: positionIn(MAIN, './alias', 7) }, uriOf(path.join(root, 'alias.harn'))]],
    );
  });

  test('hover says a refused import is refused; definition and completion say nothing of it', async () => {
    const hover = await client.connection.sendRequest(HoverRequest.type, { textDocument: { uri: mainUri() }, position: positionIn(MAIN, './secret') });
    assert.equal((hover?.contents as MarkupContent).value, 'module `./secret` → refused: `secret.harn` is a symbolic link that leads out of the workspace');
    const definition = await client.connection.sendRequest(DefinitionRequest.type, {
      textDocument: { uri: mainUri() },
      position: positionIn(MAIN, './secret'),
    });
    assert.deepEqual(definition, []);
    const leaked = await client.connection.sendRequest(HoverRequest.type, { textDocument: { uri: mainUri() }, position: positionIn(MAIN, 'leaked()') });
    assert.equal((leaked?.contents as MarkupContent).value, '```harn\nimport { leaked } from "./vendor/secret"\n```');
    const completion = await client.connection.sendRequest(CompletionRequest.type, {
      textDocument: { uri: mainUri() },
      position: positionIn(MAIN, 'let c = ', 8),
    });
    const items = Array.isArray(completion) ? completion : (completion?.items ?? []);
    assert.ok(items.some((c) => c.label === 'kept'));
    assert.ok(!items.some((c) => typeof c.documentation === 'object' && c.documentation.value.includes('Leaked doc')));
  });

  test('harn/validateArtifactFile refuses a file outside the folders, and a link out of them; nothing is published', async () => {
    const out = await client.connection.sendRequest(ValidateArtifactFileRequest, { uri: uriOf(path.join(outside, 'llm_transcript.jsonl')) });
    // (`kind` is undefined: not sent.)
    assert.deepEqual(out, {
      problems: 0,
      lines: 0,
      refused: 'llm_transcript.jsonl is not read: it is outside the workspace folders, and only files inside them are read from disk.',
    });
    const link = await client.connection.sendRequest(ValidateArtifactFileRequest, { uri: uriOf(path.join(root, 'llm_transcript.jsonl')) });
    assert.deepEqual(link, {
      problems: 0,
      lines: 0,
      refused: 'llm_transcript.jsonl is not read: it is a symbolic link that leads out of the workspace folders.',
    });
    assert.equal(client.latestDiagnostics(uriOf(path.join(outside, 'llm_transcript.jsonl'))), undefined);
    assert.equal(client.latestDiagnostics(uriOf(path.join(root, 'llm_transcript.jsonl'))), undefined);
  });
});
