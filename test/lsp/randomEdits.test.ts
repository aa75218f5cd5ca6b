// Random incremental edit sessions over LSP (DESIGN.md, Reliability): after every batch of edits the
// server's whole text hashes the same as the client's (`harn/documentDigest`, a request for tests) at the
// same version, and the diagnostics it publishes are exactly those of that text; the server never
// crashes. Seeded, so a failure reproduces.

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { DiagnosticSeverity, TextDocumentContentChangeEvent } from 'vscode-languageserver-protocol/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { URI } from 'vscode-uri';
import { harnSyntaxDiagnostics } from '../../server/src/diagnostics';
import { HarnAnalysis } from '../../server/src/harn/analysis';
import { defined } from '../support/assertions';
import { TestClient } from '../support/lspClient';
import { prng } from '../support/random';

const SEED_TEXT = `import { greet } from "./lib"

/** Adds. */
fn add(a: int, b: int) -> int {
  return a + b
}

pipeline main(task) {
  let s = "héllo \${task} 🙂 世界"
  let xs = [1, 2, 3]
  for x in xs {
    log(add(x, 1))
  }\r
}
`;

/** Text pieces that stress the lexer and positions: brackets, quotes, holes, CRLF, surrogate pairs, CJK. */
const PIECES = ['{', '}', '(', ')', '"', '${', 'let ', 'fn f() ', '\n', '\r\n', '🙂', '世界', '// c', '/*', '*/', ' x ', '"""', 'r#"', ';', '.', 'é'];

/** What the server must answer for the client's text: lowercase hex SHA-256 of its UTF-8 bytes. */
function digestOf(doc: TextDocument): { version: number; sha256: string } {
  return { version: doc.version, sha256: createHash('sha256').update(doc.getText(), 'utf8').digest('hex') };
}

let client: TestClient;
let root: string;

before(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'harn-random-'));
  client = new TestClient();
  await client.initialize(root);
});

after(async () => {
  await client.shutdown();
  fs.rmSync(root, { recursive: true, force: true });
});

for (const seed of [1, 2, 3]) {
  test(`seed ${seed}: 40 batches of random incremental edits keep the server's text equal to the client's`, async () => {
    const random = prng(seed);
    const uri = await client.open(path.join(root, `random-${seed}.harn`), SEED_TEXT);
    let doc = TextDocument.create(uri, 'harn', 1, SEED_TEXT);
    assert.deepEqual(await client.documentDigest(uri), digestOf(doc), `seed ${seed}: the server's text as opened`);
    for (let batch = 0; batch < 40; batch++) {
      const changes: TextDocumentContentChangeEvent[] = [];
      // Several changes per notification, each relative to the text after the previous one (as LSP says).
      for (let k = 1 + Math.floor(random() * 3); k > 0; k--) {
        const text = doc.getText();
        const start = Math.floor(random() * (text.length + 1));
        const end = Math.min(text.length, start + Math.floor(random() * 6));
        const insert = random() < 0.7 ? defined(PIECES[Math.floor(random() * PIECES.length)], 'a piece') : '';
        const change = { range: { start: doc.positionAt(start), end: doc.positionAt(end) }, text: insert };
        changes.push(change);
        doc = TextDocument.update(doc, [change], doc.version + 1);
      }
      const version = await client.change(uri, changes);
      doc = TextDocument.create(uri, 'harn', version, doc.getText());
      // Notifications are handled in order, so this request sees the text after this batch.
      assert.deepEqual(await client.documentDigest(uri), digestOf(doc), `seed ${seed}, batch ${batch}: the server's text differs from the client's`);
      const published = await client.waitForDiagnostics(uri, (p) => p.version === version);
      const expected = harnSyntaxDiagnostics(new HarnAnalysis(doc.getText())).map((d) => ({
        range: d.range,
        severity: DiagnosticSeverity.Error,
        source: d.source,
        code: d.code,
        message: d.message,
      }));
      assert.deepEqual(
        published.diagnostics.map((d) => ({ range: d.range, severity: d.severity, source: d.source, code: d.code, message: d.message })),
        expected,
        `seed ${seed}, batch ${batch}: the server's diagnostics differ from those of the client's text`,
      );
    }
    await client.close(uri);
    assert.equal(await client.documentDigest(uri), null, `seed ${seed}: no text once closed`);
    assert.equal(client.exitCode, null, 'the server is still running');
  });
}

test('harn/documentDigest of a document that was never opened is null', async () => {
  assert.equal(await client.documentDigest(URI.file(path.join(root, 'never-opened.harn')).toString()), null);
});
