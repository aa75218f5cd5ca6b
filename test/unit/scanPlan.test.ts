// workspace/scanPlan.ts: which files the workspace check reads, in what order, what it says of a file over
// 50 MB, and which closed files a change on disk touches.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  affectedByChanges,
  isScanKind,
  MAX_SCAN_BYTES,
  mayBeScanned,
  mayHoldScanned,
  megabytes,
  scanAction,
  scanOrder,
  ScanKind,
  tooLargeToScanDiagnostic,
} from '../../server/src/workspace/scanPlan';

describe('scanPlan', () => {
  test('candidates: .harn and JSON/JSONL files, never under node_modules', () => {
    const files = ['a.harn', 'B.HARN', 'runs/x/llm_transcript.jsonl', 'log.ndjson', 'run.json', 'src/main.rs', 'README.md', 'node_modules/p/x.harn'];
    assert.deepEqual(files.filter(mayBeScanned), ['a.harn', 'B.HARN', 'runs/x/llm_transcript.jsonl', 'log.ndjson', 'run.json']);
    assert.equal(mayHoldScanned('src/node_modules'), false);
    assert.equal(mayHoldScanned('src/node_modules_backup'), true);
  });

  test("kinds the check reads: .harn and artifacts, not the registry nor Rust (the gate's)", () => {
    assert.deepEqual(['harn', 'transcript', 'eventLog', 'runRecord', 'jsonl', 'registry', 'rust', undefined].map(isScanKind), [
      true,
      true,
      true,
      true,
      true,
      false,
      false,
      false,
    ]);
  });

  test('order: .harn first, JSONL next, run records (JSON) last; by path within each', () => {
    assert.deepEqual(scanOrder(['runs/b/run.json', 'z.harn', 'runs/a/llm_transcript.jsonl', 'a.harn', 'runs/a/run.json', 'e.ndjson']), [
      'a.harn',
      'z.harn',
      'e.ndjson',
      'runs/a/llm_transcript.jsonl',
      'runs/a/run.json',
      'runs/b/run.json',
    ]);
  });

  test('over 50 MB: only listed, with its size, the limit and what to do', () => {
    assert.equal(scanAction(MAX_SCAN_BYTES), 'check');
    assert.equal(scanAction(MAX_SCAN_BYTES + 1), 'tooLarge');
    assert.equal(megabytes(51 * 1024 * 1024), '51.0 MB');
    const artifact = tooLargeToScanDiagnostic(51 * 1024 * 1024, 'transcript');
    assert.deepEqual(
      { ...artifact, message: undefined },
      {
        range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
        severity: 'information',
        source: 'harn.workspace',
        code: 'too_large_to_scan',
        message: undefined,
      },
    );
    assert.match(artifact.message, /the file is 51\.0 MB, over the 50\.0 MB .*"Validate Run Artifact From Disk"/);
    assert.doesNotMatch(tooLargeToScanDiagnostic(60 * 1024 * 1024, 'harn').message, /Validate Run Artifact/);
    // A training example file is no run artifact that command streams: the CLI checks it.
    assert.match(tooLargeToScanDiagnostic(60 * 1024 * 1024, 'trainingExample').message, /Not checked with the workspace: .*harn-workbench check/);
    assert.doesNotMatch(tooLargeToScanDiagnostic(60 * 1024 * 1024, 'trainingExample').message, /Validate Run Artifact/);
  });

  test('a changed JSONL file touches every run record; other changes only themselves', () => {
    const known = new Map<string, ScanKind>([
      ['a.harn', 'harn'],
      ['runs/a/run.json', 'runRecord'],
      ['runs/b/run.json', 'runRecord'],
      ['runs/a/llm_transcript.jsonl', 'transcript'],
    ]);
    assert.deepEqual([...affectedByChanges(['a.harn'], known)], ['a.harn']);
    assert.deepEqual([...affectedByChanges(['runs/a/llm_transcript.jsonl'], known)].sort(), [
      'runs/a/llm_transcript.jsonl',
      'runs/a/run.json',
      'runs/b/run.json',
    ]);
    assert.deepEqual([...affectedByChanges([], known)], []);
  });
});
