// HarnIndexer keeps an open document's index current from its previous index: after keystrokes in a function body
// the file's index took every other top-level statement from the one before, and answers as indexing the
// editor's text from scratch does.

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, test } from 'node:test';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { HarnAnalysis } from '../../server/src/harn/analysis';
import { allOccurrences, indexFile } from '../../server/src/harn/index/fileIndex';
import { HarnIndexer } from '../../server/src/workspace/harnIndexer';
import { HarnWorkspace, pathToUri } from '../../server/src/workspace/harnWorkspace';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'harn-indexer-'));
after(() => fs.rmSync(root, { recursive: true, force: true }));

describe('HarnIndexer', () => {
  test('an open document is re-indexed from its previous index: an edit in a function walks that function only', async () => {
    const file = path.join(root, 'main.harn');
    const functions = Array.from({ length: 6 }, (_, i) => `fn f${i}(a) {\n  let v = a + ${i}\n  return helper(v)\n}\n`).join('\n');
    const text = `import { helper } from "./lib"\n\n${functions}`;
    fs.writeFileSync(file, text);
    fs.writeFileSync(path.join(root, 'lib.harn'), 'pub fn helper(x) {\n  return x\n}\n');
    const open = new Map<string, TextDocument>();
    const documents = { get: (uri: string) => open.get(uri) };
    const workspace = new HarnWorkspace(documents, () => [root]);
    const indexer = new HarnIndexer(workspace, documents, () => [root]);
    await indexer.rebuild();
    const uri = pathToUri(file);
    let doc = TextDocument.create(uri, 'harn', 1, text);
    open.set(uri, doc);
    indexer.documentOpened(uri);
    await indexer.current();
    const statements = new HarnAnalysis(text).file.statements.length;
    let cursor = text.indexOf('return helper(v)', text.indexOf('fn f3'));
    let incremental = 0;
    for (const key of [...'log(v)\n  ']) {
      const at = doc.positionAt(cursor);
      doc = TextDocument.update(doc, [{ range: { start: at, end: at }, text: key }], doc.version + 1);
      open.set(uri, doc);
      cursor++;
      indexer.documentChanged(uri);
      const index = (await indexer.current()).get(file);
      assert.ok(index);
      const analysis = workspace.analysisOf(doc);
      if (analysis.reparsed !== 'full') {
        incremental++;
        assert.equal(index.reusedStatements, statements - 1, `after typing ${JSON.stringify(key)}`);
      }
      const fresh = indexFile(file, new HarnAnalysis(doc.getText()));
      assert.deepStrictEqual(allOccurrences(index), allOccurrences(fresh), `after typing ${JSON.stringify(key)}`);
      assert.deepStrictEqual(index.declarations, fresh.declarations);
    }
    assert.ok(incremental >= 6, `${incremental} keystrokes re-read one statement`);
    // The edit shows in the answers: the new `v` refers to f3's local.
    const index = (await indexer.current()).get(file);
    const logged = index && allOccurrences(index).find((o) => o.name === 'v' && o.start === doc.getText().indexOf('log(v)') + 4);
    assert.deepEqual(logged?.ref, { kind: 'local', declStart: doc.getText().indexOf('v = a + 3') });
  });
});
