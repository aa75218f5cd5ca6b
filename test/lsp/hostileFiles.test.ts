// The real server on files that are not regular files and on huge lines. A FIFO as the registry or the funnel
// (and as a .gitignore) must not keep the server from `ready`: the gate reports it on the file. A FIFO sent to
// harn/validateArtifactFile is refused in the answer and in a diagnostic; one behind an open run record is
// `unavailable`. A huge line is `line_too_long`, and while a run record's big transcript is read the server keeps
// answering requests. Every wait has a timeout and every server is killed in the end: nothing here can hang.

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Diagnostic, DiagnosticSeverity, HoverRequest, PublishDiagnosticsParams } from 'vscode-languageserver-protocol/node';
import { URI } from 'vscode-uri';
import { ValidateArtifactFileRequest } from '../../server/src/protocol';
import { FIFO_SKIP, mkfifo, sparseFile } from '../support/hostileFiles';
import { REPO_ROOT, TestClient } from '../support/lspClient';

const DEMO = path.join(REPO_ROOT, 'examples', 'demo');
const FIFO = 'is a FIFO, not a regular file';
const MiB = 1024 * 1024;
const WAIT_MS = 20_000;
const at0 = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
const uriOf = (file: string): string => URI.file(file).toString();

/** A promise that fails after `ms` instead of waiting for good on a server that stopped answering. */
async function within<T>(promise: Promise<T>, what: string, ms = WAIT_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** The run record of the CLI tests: one llm_jsonl descriptor pointing at `relative`. */
function runRecordText(relative: string, sha256: string, byteLen: number): string {
  const descriptor = {
    schema_version: 'harn.llm_transcript_artifact.v1',
    artifact_kind: 'llm_jsonl',
    run_id: 'r1',
    relative_path: relative,
    sha256,
    byte_len: byteLen,
  };
  return (
    JSON.stringify(
      { _type: 'run_record', id: 'r1', observability: { transcript_pointers: [{ kind: 'llm_jsonl', verification_status: 'verified', descriptor }] } },
      null,
      2,
    ) + '\n'
  );
}

/** The range of the string value of `"key": "…"` in a pretty-printed ASCII JSON text. */
function valueRange(text: string, key: string): Diagnostic['range'] {
  const offset = text.indexOf(`"${key}": "`) + key.length + 4;
  const end = text.indexOf('"', offset + 1) + 1;
  const position = (offset: number): { line: number; character: number } => {
    const lines = text.slice(0, offset).split('\n');
    return { line: lines.length - 1, character: (lines.at(-1) ?? '').length };
  };
  return { start: position(offset), end: position(end) };
}

const withCode = (code: string) => (p: PublishDiagnosticsParams) => p.diagnostics.some((d) => d.code === code);

describe('the server on files that are not regular files', { skip: FIFO_SKIP }, () => {
  let dir: string;
  const clients: TestClient[] = [];

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'harn-lsp-fifo-'));
  });
  after(async () => {
    for (const client of clients) await within(client.shutdown(), 'shutdown', 5000).catch(() => client.kill());
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** A copy of the demo with some files replaced by FIFOs, and a server started on it that reached `ready`. */
  async function serverOn(name: string, fifos: string[]): Promise<{ client: TestClient; root: string }> {
    const root = path.join(dir, name);
    fs.cpSync(DEMO, root, { recursive: true });
    for (const rel of fifos) {
      fs.rmSync(path.join(root, rel), { force: true });
      mkfifo(path.join(root, rel));
    }
    const client = new TestClient();
    clients.push(client);
    await within(client.initialize(root), 'initialize');
    await client.waitForNotification('harn/status', (p) => (p as { state?: string }).state === 'ready', WAIT_MS);
    return { client, root };
  }

  for (const [what, rel] of [
    ['registry', 'scripts/loud_boundaries.toml'],
    ['funnel', 'crates/harn-vm/src/boundary.rs'],
  ] as const) {
    test(`a FIFO as the ${what}: the server reaches ready, reports it on the file, and answers requests`, { timeout: 60_000 }, async () => {
      const { client, root } = await serverOn(what, [rel, '.gitignore']);
      const uri = uriOf(path.join(root, rel));
      const published = await client.waitForDiagnostics(uri, withCode('unreadable_file'), WAIT_MS);
      const message = `${rel} ${FIFO}; it is not read`;
      assert.deepEqual(published.diagnostics, [
        {
          range: at0,
          severity: DiagnosticSeverity.Error,
          source: 'harn.boundaries',
          code: 'unreadable_file',
          message,
          data: { id: '', kind: 'unreadable_file', path: rel },
        },
      ]);
      const harn = path.join(root, 'pipelines', 'triage.harn');
      const harnUri = await client.open(harn, fs.readFileSync(harn, 'utf8'));
      await within(client.connection.sendRequest(HoverRequest.type, { textDocument: { uri: harnUri }, position: { line: 0, character: 0 } }), 'hover');
    });
  }

  test(
    'harn/validateArtifactFile on a FIFO answers with a refusal and publishes it; an open run record pointing at one says unavailable',
    { timeout: 60_000 },
    async () => {
      const { client, root } = await serverOn('artifacts', ['.gitignore']);
      const run = path.join(root, 'runs', 'pipe');
      const transcript = mkfifo(path.join(run, 'run-llm', 'llm_transcript.jsonl'));
      const record = mkfifo(path.join(run, 'other.run.json'));
      for (const [file, kind] of [
        [transcript, 'transcript'],
        [record, 'runRecord'],
      ] as const) {
        const refused = `${file} ${FIFO}`;
        const result = await within(client.connection.sendRequest(ValidateArtifactFileRequest, { uri: uriOf(file) }), `validateArtifactFile ${kind}`);
        assert.deepEqual(result, { kind, problems: 1, lines: 0, refused });
        const published = await client.waitForDiagnostics(uriOf(file), withCode('unreadable_file'), WAIT_MS);
        assert.deepEqual(published.diagnostics, [
          { range: at0, severity: DiagnosticSeverity.Error, source: 'harn.artifacts', code: 'unreadable_file', message: `${refused}.` },
        ]);
      }
      const recordFile = path.join(run, 'run.json');
      const text = runRecordText('run-llm/llm_transcript.jsonl', 'sha256:00', 1);
      fs.writeFileSync(recordFile, text);
      const uri = await client.open(recordFile, text, 'json');
      const published = await client.waitForDiagnostics(uri, withCode('unavailable'), WAIT_MS);
      const real = fs.realpathSync(transcript);
      assert.deepEqual(published.diagnostics, [
        {
          range: valueRange(text, 'relative_path'),
          severity: DiagnosticSeverity.Error,
          source: 'harn.artifacts',
          code: 'unavailable',
          // Named relative to the workspace folder; the data keeps the absolute path.
          message: `The transcript relative_path points to, ${path.relative(root, real)}, cannot be read (${FIFO}).`,
          data: { field: 'relative_path', path: real },
        },
      ]);
    },
  );
});

describe('the server on huge lines', () => {
  let dir: string;
  let client: TestClient;

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'harn-lsp-huge-'));
    client = new TestClient();
    // A 1 MB limit (harn.artifacts.maxLineBytes), so small files have lines over it.
    await within(client.initialize(dir, { configuration: { harn: { artifacts: { maxLineBytes: MiB } } } }), 'initialize');
    await client.waitForNotification('harn/status', (p) => (p as { state?: string }).state === 'ready', WAIT_MS);
  });
  after(async () => {
    await within(client.shutdown(), 'shutdown', 5000).catch(() => client.kill());
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('validated from disk: one line_too_long on the long line, the other rows still read; no hover on it', { timeout: 60_000 }, async () => {
    const file = path.join(dir, 'data.jsonl');
    const long = 3 * MiB;
    fs.writeFileSync(file, `{"a":1}\n"${'x'.repeat(long - 2)}"\n{"b":2}\n`);
    const uri = uriOf(file);
    const result = await within(client.connection.sendRequest(ValidateArtifactFileRequest, { uri }), 'validateArtifactFile');
    assert.deepEqual(result, { kind: 'jsonl', problems: 1, lines: 3 });
    const published = await client.waitForDiagnostics(uri, withCode('line_too_long'), WAIT_MS);
    assert.deepEqual(published.diagnostics, [
      {
        range: { start: { line: 1, character: 0 }, end: { line: 1, character: 0 } },
        severity: DiagnosticSeverity.Error,
        source: 'harn.artifacts',
        code: 'line_too_long',
        message: `This line is ${long} bytes long, over the limit of ${MiB} bytes (harn.artifacts.maxLineBytes): it is not read, so its row is not checked.`,
        data: { byteOffset: 8, byteLength: long, maxLineBytes: MiB },
      },
    ]);
    const hover = await within(client.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line: 1, character: 0 } }), 'hover');
    assert.equal(hover, null);
  });

  test('an open run record whose transcript has a 128 MB line: requests are answered while it is read, then line_too_long', { timeout: 60_000 }, async () => {
    const size = 128 * MiB;
    const run = path.join(dir, 'run');
    const transcript = sparseFile(path.join(run, 'run-llm', 'llm_transcript.jsonl'), size);
    const text = runRecordText('run-llm/llm_transcript.jsonl', 'sha256:0', size);
    const recordFile = path.join(run, 'run.json');
    fs.writeFileSync(recordFile, text);
    const since = client.mark();
    const uri = await client.open(recordFile, text, 'json');
    // The first check publishes what needs no transcript: nothing here; the transcript is read in the background.
    const first = await client.waitForDiagnostics(uri, () => true, WAIT_MS, since);
    assert.deepEqual(first.diagnostics, []);
    const digest = await within(client.documentDigest(uri), 'documentDigest while the transcript is read');
    assert.equal(digest?.version, 1);
    assert.equal(
      client.publicationsSince(uri, since).some(withCode('line_too_long')),
      false,
      'the request was answered before the transcript was read (the event loop is not blocked)',
    );
    const published = await client.waitForDiagnostics(uri, withCode('line_too_long'), WAIT_MS, since);
    const real = fs.realpathSync(transcript);
    // The digest still covers every byte.
    const actual = published.diagnostics.find((d) => d.code === 'digest_mismatch')?.data as { actual?: string } | undefined;
    assert.match(String(actual?.actual), /^sha256:[0-9a-f]{64}$/);
    assert.deepEqual(
      published.diagnostics.filter((d) => d.source === 'harn.artifacts').map((d) => [d.code, d.range, d.message]),
      [
        [
          'line_too_long',
          valueRange(text, 'relative_path'),
          `The transcript relative_path points to, ${path.relative(dir, real)}, has a line too long to read: line 1 is ${size} bytes long, over the limit of ${MiB} bytes (harn.artifacts.maxLineBytes), so it is not read and the rows are not checked.`,
        ],
        ['digest_mismatch', valueRange(text, 'sha256'), `sha256 in the descriptor is sha256:0, the transcript on disk hashes to ${String(actual?.actual)}.`],
      ],
    );
    // The training projector reads it with the same limit, in the background too: one note on the descriptor.
    const projected = await client.waitForDiagnostics(uri, (p) => p.diagnostics.some((d) => d.source === 'harn.training'), WAIT_MS, since);
    assert.deepEqual(
      projected.diagnostics.filter((d) => d.source === 'harn.training').map((d) => d.code),
      ['line_too_long'],
    );
  });
});
