// The real server on volume (issue 9, "caps instead of crashes"), every input generated here: a transcript of
// 130,000 bad rows publishes 1,000 diagnostics and a note (the union used to be spread into one push and
// overflowed the stack); a registry of 50,000 entries is gated in slices, answering hovers meanwhile.

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { DocumentSymbol, Hover, MarkupContent, SymbolKind } from 'vscode-languageserver-protocol';
import { URI } from 'vscode-uri';
import { ValidateArtifactFileRequest } from '../../server/src/protocol';
import { HARN_FILE, writeBigTree } from '../support/bigTree';
import { TestClient } from '../support/lspClient';

const NOTE = (omitted: string, counts: string): string =>
  `${omitted} more problems in this file are not shown (${counts}): at most 1,000 are listed per file, the most severe first.`;

describe('diagnostics of 130,000 bad rows over stdio', () => {
  let root: string;
  let client: TestClient;
  before(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'harn-lsp-volume-'));
    client = new TestClient();
    await client.initialize(root);
    await client.waitForNotification('harn/status', (p) => (p as { state?: string }).state === 'ready');
  });
  after(async () => {
    await client.shutdown();
    fs.rmSync(root, { recursive: true, force: true });
  });

  test('an open transcript: 1,000 diagnostics, then the note counting the rest', async () => {
    const uri = await client.open(path.join(root, 'llm_transcript.jsonl'), '{}\n'.repeat(130_000), 'jsonl');
    const published = await client.waitForDiagnostics(uri, (p) => p.diagnostics.length > 0, 60_000);
    assert.equal(published.diagnostics.length, 1001);
    assert.equal(published.diagnostics.filter((d) => d.code === 'invalid_row').length, 1000);
    assert.deepEqual(published.diagnostics.at(-1), {
      range: { start: { line: 1000, character: 0 }, end: { line: 1000, character: 0 } },
      severity: 1,
      source: 'harn.workbench',
      code: 'too_many_diagnostics',
      message: NOTE('129,001', '129,000 errors, 1 warning'),
      data: { omitted: 129001, error: 129000, warning: 1, information: 0, hint: 0 },
    });
    assert.deepEqual(client.logMessages(1), [], 'no handler failed');
    await client.close(uri);
  });

  test('harn/validateArtifactFile on a million rows from disk: the true count answered, a thousand published', { timeout: 120_000 }, async () => {
    const file = path.join(root, 'big', 'llm_transcript.jsonl');
    fs.mkdirSync(path.dirname(file));
    fs.writeFileSync(file, '{}\n'.repeat(1_000_000));
    const uri = URI.file(file).toString();
    const result = await client.connection.sendRequest(ValidateArtifactFileRequest, { uri });
    assert.deepEqual(result, { kind: 'transcript', problems: 1_000_001, lines: 1_000_000 });
    const published = await client.waitForDiagnostics(uri, (p) => p.diagnostics.length > 0, 60_000);
    assert.equal(published.diagnostics.length, 1001);
    assert.equal(published.diagnostics.at(-1)?.message, NOTE('999,001', '999,000 errors, 1 warning'));
  });
});

describe('documentSymbol: at most 5,000 symbols, and the count of the rest', () => {
  let root: string;
  let client: TestClient;
  before(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'harn-lsp-volume-'));
    client = new TestClient();
    await client.initialize(root);
    await client.waitForNotification('harn/status', (p) => (p as { state?: string }).state === 'ready');
  });
  after(async () => {
    await client.shutdown();
    fs.rmSync(root, { recursive: true, force: true });
  });
  const symbols = (uri: string): Promise<DocumentSymbol[]> =>
    client.connection.sendRequest<DocumentSymbol[]>('textDocument/documentSymbol', { textDocument: { uri } });
  const count = (list: DocumentSymbol[]): number => list.reduce((n, s) => n + 1 + count(s.children ?? []), 0);

  test('a 20 MB one-line .harn file of 900,000 declarations (it took 27 s and 3.6 GB)', { timeout: 120_000 }, async () => {
    const parts: string[] = [];
    let length = 0;
    let at5000 = 0;
    while (length < 20_000_000) {
      if (parts.length === 5000) at5000 = length;
      const part = `let a${parts.length} = ${parts.length}; `;
      parts.push(part);
      length += part.length;
    }
    const uri = await client.open(path.join(root, 'big.harn'), parts.join(''));
    const list = await symbols(uri);
    assert.equal(list.length, 5001);
    assert.equal(list[4999]?.name, 'a4999');
    assert.deepEqual(list.at(-1), {
      name: `… ${(parts.length - 5000).toLocaleString('en-US')} more symbols not shown`,
      detail: 'the outline lists the first 5,000',
      kind: SymbolKind.Null,
      range: { start: { line: 0, character: at5000 }, end: { line: 0, character: at5000 } },
      selectionRange: { start: { line: 0, character: at5000 }, end: { line: 0, character: at5000 } },
      children: [],
    });
    await client.close(uri);
  });

  test('a transcript of 7,000 messages: 5,000 symbols over all levels, then the note', { timeout: 60_000 }, async () => {
    const rows = Array.from({ length: 7000 }, (_, i) => JSON.stringify({ type: 'message', session_id: 's', role: 'user', content: `m${i}`, message_index: i }));
    const uri = await client.open(path.join(root, 'llm_transcript.jsonl'), rows.join('\n') + '\n', 'jsonl');
    const list = await symbols(uri);
    const note = list.at(-1);
    assert.match(note?.name ?? '', /^… [\d,]+ more symbols not shown$/);
    assert.equal(count(list.slice(0, -1)), 5000);
    assert.equal(note?.kind, SymbolKind.Null);
    await client.close(uri);
  });
});

describe('a registry of 50,000 entries over stdio', () => {
  let root: string;
  before(() => {
    root = writeBigTree(50_000);
  });
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  test('hovers are answered while the first gate run is still going; its result is published after', { timeout: 180_000 }, async () => {
    const client = new TestClient();
    try {
      await client.initialize(root);
      const file = path.join(root, HARN_FILE);
      const text = fs.readFileSync(file, 'utf8');
      const uri = await client.open(file, text);
      const position = { line: 1, character: (text.split('\n')[1] ?? '').indexOf('boundary_0') + 1 };
      const gateDone = (): boolean => client.logMessages().some((m) => m.startsWith('loud-boundary gate (workspace opened)'));
      const ready = (): boolean => client.notifications.some((n) => n.method === 'harn/status' && (n.params as { state?: string }).state === 'ready');
      // Answered before the gate's log line (and the server's ready status): the gate yields between slices.
      await client.connection.sendRequest<Hover | null>('textDocument/hover', { textDocument: { uri }, position });
      assert.equal(gateDone(), false, 'the first hover was answered only after the gate run');
      assert.equal(ready(), false);
      let during = 1;
      while (!gateDone()) {
        await client.connection.sendRequest<Hover | null>('textDocument/hover', { textDocument: { uri }, position });
        during++;
      }
      assert.ok(during >= 5, `${during} hovers answered during the run`);
      assert.match(client.logMessages().find((m) => m.startsWith('loud-boundary gate (workspace opened)')) ?? '', /: 0 finding\(s\), 2002 file\(s\) scanned/);
      assert.ok(await client.waitUntil(ready, 30_000), 'ready once the first run is done');
      // After the run the id's hover is the registry's.
      const hover = await client.connection.sendRequest<Hover | null>('textDocument/hover', { textDocument: { uri }, position });
      assert.match((hover?.contents as MarkupContent | undefined)?.value ?? '', /^\*\*boundary_0\*\* — Boundary number 0/);
      assert.deepEqual(client.logMessages(1), []);
    } finally {
      await client.shutdown();
    }
  });

  test('a change during the first run supersedes it: only the run after the change publishes', { timeout: 180_000 }, async () => {
    const client = new TestClient();
    try {
      await client.initialize(root);
      const registry = path.join(root, 'scripts', 'loud_boundaries.toml');
      fs.appendFileSync(registry, '\n[[boundary]]\nid = "late_entry"\n');
      await client.filesChanged([{ uri: URI.file(registry).toString(), type: 2 }]);
      const uri = URI.file(registry).toString();
      const published = await client.waitForDiagnostics(uri, (p) => p.diagnostics.length > 0, 120_000);
      assert.deepEqual(published.diagnostics.map((d) => d.code).sort(), ['no_anchor', 'no_test', 'orphan_entry', 'stale_entry']);
      assert.ok(await client.waitUntil(() => client.logMessages().some((m) => m.startsWith('loud-boundary gate (files changed)')), 30_000));
      const gateLines = client.logMessages().filter((m) => m.startsWith('loud-boundary gate'));
      assert.deepEqual(
        gateLines.map((m) => m.replace(/, [\d.]+ ms$/, '')),
        ['loud-boundary gate (workspace opened): superseded by a newer run', 'loud-boundary gate (files changed): 4 finding(s), 2002 file(s) scanned'],
      );
      assert.equal(client.publicationsSince(uri, 0).length, 1, 'nothing published before the change was read');
    } finally {
      await client.shutdown();
    }
  });
});
