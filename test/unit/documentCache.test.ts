// providers/documentCache.ts: what a provider derives from a file's text is kept for an open document while its
// version stays, for a closed file while its text on disk stays; an unreadable or too large file has none.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, describe, test } from 'node:test';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { DocumentCache } from '../../server/src/providers/documentCache';
import { pathToUri } from '../../server/src/workspace/harnWorkspace';

const dir = mkdtempSync(path.join(tmpdir(), 'harn-document-cache-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A cache whose value is the text's length, counting how often it derives one. */
function lengths(open: Map<string, TextDocument>, maxBytes = 1024): { cache: DocumentCache<{ length: number }>; derived: string[] } {
  const derived: string[] = [];
  const cache = new DocumentCache(
    { get: (uri: string) => open.get(uri) },
    (uri, text) => {
      derived.push(`${path.basename(uri)}:${text}`);
      return { length: text.length };
    },
    maxBytes,
  );
  return { cache, derived };
}

describe('DocumentCache', () => {
  test('an open document: derived once per version, from its text (not the file on disk)', () => {
    const file = path.join(dir, 'open.jsonl');
    writeFileSync(file, 'on disk');
    const uri = pathToUri(file);
    const open = new Map([[uri, TextDocument.create(uri, 'jsonl', 1, 'open text')]]);
    const { cache, derived } = lengths(open);
    const first = cache.get(uri);
    assert.deepEqual(first, { length: 9 });
    assert.equal(cache.get(uri), first);
    open.set(uri, TextDocument.create(uri, 'jsonl', 2, 'edited'));
    assert.deepEqual(cache.get(uri), { length: 6 });
    assert.deepEqual(derived, ['open.jsonl:open text', 'open.jsonl:edited']);
  });

  test('a closed file: read from disk, derived again only when its text changed', () => {
    const file = path.join(dir, 'closed.jsonl');
    writeFileSync(file, 'abc');
    const uri = pathToUri(file);
    const { cache, derived } = lengths(new Map());
    const first = cache.get(uri);
    assert.deepEqual(first, { length: 3 });
    assert.equal(cache.get(uri), first);
    writeFileSync(file, 'abcd');
    assert.deepEqual(cache.get(uri), { length: 4 });
    assert.deepEqual(derived, ['closed.jsonl:abc', 'closed.jsonl:abcd']);
  });

  test('a document closed since: its file on disk is read (the open version is not kept for it)', () => {
    const file = path.join(dir, 'closing.jsonl');
    writeFileSync(file, 'saved');
    const uri = pathToUri(file);
    const open = new Map([[uri, TextDocument.create(uri, 'jsonl', 1, 'saved')]]);
    const { cache, derived } = lengths(open);
    cache.get(uri);
    open.delete(uri);
    assert.deepEqual(cache.get(uri), { length: 5 });
    assert.equal(derived.length, 2);
  });

  test('a missing or too large file has no value; delete and clear forget what was kept', () => {
    const { cache, derived } = lengths(new Map(), 4);
    assert.equal(cache.get(pathToUri(path.join(dir, 'missing.jsonl'))), undefined);
    const big = path.join(dir, 'big.jsonl');
    writeFileSync(big, '12345');
    assert.equal(cache.get(pathToUri(big)), undefined);
    const small = path.join(dir, 'small.jsonl');
    writeFileSync(small, '1234');
    const uri = pathToUri(small);
    cache.get(uri);
    assert.deepEqual([...cache.uris()], [uri]);
    cache.delete(uri);
    assert.deepEqual([...cache.uris()], []);
    cache.get(uri);
    cache.clear();
    assert.deepEqual([...cache.uris()], []);
    cache.get(uri);
    assert.deepEqual(derived, ['small.jsonl:1234', 'small.jsonl:1234', 'small.jsonl:1234']);
  });
});
