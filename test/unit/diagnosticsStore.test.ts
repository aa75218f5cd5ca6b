// The diagnostics store (server/src/features/diagnosticsStore.ts): a bucket computed from one version of an
// open document is left out of a publication at another version (a published diagnostic describes the text of
// its version), and comes back when that version is published; buckets from the disk are kept for closed files.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Diagnostic, PublishDiagnosticsParams } from 'vscode-languageserver';
import { DISK_BUCKET } from '../../server/src/features/diagnosticsStore';
import { recordingStore } from '../support/recordingStore';

const URI = 'file:///root/crates/a.harn';
const GATE = 'gate /root';

const store = recordingStore;

const at = (line: number, code: string): Diagnostic => ({
  range: { start: { line, character: 0 }, end: { line, character: 1 } },
  source: 'test',
  code,
  message: code,
});

const codes = (p: PublishDiagnosticsParams | undefined): unknown[] => (p?.diagnostics ?? []).map((d) => d.code);

describe('DiagnosticsStore: each bucket published only with the version it was computed from', () => {
  test("the gate's findings for version 1 are left out of the live checks' publication of version 2", () => {
    const { store: s, published } = store();
    s.markLive(URI);
    s.setBuckets(URI, new Map([['boundaries', [at(0, 'live1')]]]), 1);
    s.replaceAll(GATE, new Map([[URI, [at(9, 'gate1')]]]), new Map([[URI, 1]]));
    assert.deepEqual(published.at(-1), { uri: URI, version: 1, diagnostics: [at(0, 'live1'), at(9, 'gate1')] });

    s.setBuckets(URI, new Map([['boundaries', [at(0, 'live2')]]]), 2);
    assert.equal(published.at(-1)?.version, 2);
    assert.deepEqual(codes(published.at(-1)), ['live2']);

    // The gate's run for version 2: published at the version the document was last published with.
    s.replaceAll(GATE, new Map([[URI, [at(3, 'gate2')]]]), new Map([[URI, 2]]));
    assert.equal(published.at(-1)?.version, 2);
    assert.deepEqual(codes(published.at(-1)), ['live2', 'gate2']);
  });

  test('a gate run ahead of the live checks waits for their publication of its version', () => {
    const { store: s, published } = store();
    s.markLive(URI);
    s.setBuckets(URI, new Map([['boundaries', [at(0, 'live1')]]]), 1);
    s.replaceAll(GATE, new Map([[URI, [at(3, 'gate2')]]]), new Map([[URI, 2]]));
    assert.equal(published.at(-1)?.version, 1);
    assert.deepEqual(codes(published.at(-1)), ['live1']);
    s.setBuckets(URI, new Map([['boundaries', [at(0, 'live2')]]]), 2);
    assert.deepEqual(codes(published.at(-1)), ['live2', 'gate2']);
  });

  test('findings of a file on disk (no version) stay, on a closed file and an open one alike; the disk bucket is hidden while live', () => {
    const { store: s, published } = store();
    s.replaceAll(GATE, new Map([[URI, [at(2, 'gateDisk')]]]));
    s.set(URI, DISK_BUCKET, [at(1, 'disk')]);
    assert.deepEqual(published.at(-1), { uri: URI, diagnostics: [at(2, 'gateDisk'), at(1, 'disk')] });
    s.markLive(URI);
    s.setBuckets(URI, new Map([['boundaries', [at(0, 'live4')]]]), 4);
    assert.equal(published.at(-1)?.version, 4);
    assert.deepEqual(codes(published.at(-1)), ['gateDisk', 'live4']);
    // Closed: no version any more, and every bucket shown (the gate's describe the file on disk).
    s.clear(URI, 'boundaries');
    s.markClosed(URI);
    s.replaceAll(GATE, new Map([[URI, [at(2, 'gateDisk')]]]));
    assert.deepEqual(published.at(-1), { uri: URI, diagnostics: [at(2, 'gateDisk'), at(1, 'disk')] });
  });

  test("the gate's findings on an open document's text are left out once it is closed, until the gate reads the file again", () => {
    const { store: s, published } = store();
    s.markLive(URI);
    s.setBuckets(URI, new Map([['boundaries', [at(0, 'live3')]]]), 3);
    s.replaceAll(GATE, new Map([[URI, [at(5, 'gateOpen3')]]]), new Map([[URI, 3]]));
    assert.deepEqual(codes(published.at(-1)), ['live3', 'gateOpen3']);
    // As DiagnosticsPipeline.closed does: the buckets its producers keep on close named, the others go.
    s.markClosed(URI, new Set(['artifacts']));
    assert.deepEqual(published.at(-1), { uri: URI, diagnostics: [] });
    // The gate's run after the close reads the file on disk.
    s.replaceAll(GATE, new Map([[URI, [at(1, 'gateDisk')]]]));
    assert.deepEqual(published.at(-1), { uri: URI, diagnostics: [at(1, 'gateDisk')] });
  });

  test('a bucket its producer keeps on close stays, and stands for the closed file', () => {
    const { store: s, published } = store();
    s.markLive(URI);
    s.setBuckets(URI, new Map([['artifacts', [at(3, 'kept')]]]), 2);
    s.markClosed(URI, new Set(['artifacts']));
    s.replaceAll(GATE, new Map([[URI, [at(1, 'gateDisk')]]]));
    assert.deepEqual(published.at(-1), { uri: URI, diagnostics: [at(3, 'kept'), at(1, 'gateDisk')] });
  });
});
