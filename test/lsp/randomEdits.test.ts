// Random incremental edit sessions over LSP (DESIGN.md, Reliability): after every batch of edits the
// diagnostics the server publishes are exactly those of the text the client holds, so the two texts
// agree; the server never crashes. Seeded, so a failure reproduces.

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { TextDocumentContentChangeEvent } from 'vscode-languageserver-protocol/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { harnSyntaxDiagnostics } from '../../server/src/diagnostics';
import { HarnAnalysis } from '../../server/src/harn/analysis';
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
    for (let batch = 0; batch < 40; batch++) {
      const changes: TextDocumentContentChangeEvent[] = [];
      // Several changes per notification, each relative to the text after the previous one (as LSP says).
      for (let k = 1 + Math.floor(random() * 3); k > 0; k--) {
        const text = doc.getText();
        const start = Math.floor(random() * (text.length + 1));
        const end = Math.min(text.length, start + Math.floor(random() * 6));
        const insert = random() < 0.7 ? PIECES[Math.floor(random() * PIECES.length)] : '';
        const change = { range: { start: doc.positionAt(start), end: doc.positionAt(end) }, text: insert };
        changes.push(change);
        doc = TextDocument.update(doc, [change], doc.version + 1);
      }
      const version = await client.change(uri, changes);
      doc = TextDocument.create(uri, 'harn', version, doc.getText());
      const published = await client.waitForDiagnostics(uri, (p) => p.version === version);
      const expected = harnSyntaxDiagnostics(new HarnAnalysis(doc.getText())).map((d) => ({ range: d.range, message: d.message }));
      assert.deepEqual(
        published.diagnostics.map((d) => ({ range: d.range, message: d.message })),
        expected,
        `seed ${seed}, batch ${batch}: the server's diagnostics differ from those of the client's text`,
      );
    }
    assert.equal(client.exitCode, null, 'the server is still running');
  });
}
