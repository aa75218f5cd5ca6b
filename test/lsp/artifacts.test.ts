// Run artifacts in the language server, driven over stdio on examples/demo (read only; generated files go to a
// temporary folder): diagnostics of the broken run at their ranges, incremental edits, row hovers (with the
// demo registry's boundary titles), the outline, run-record descriptor mismatches, and validation from disk of a
// never-opened 5 MB transcript with progress, after which its rows answer hovers.

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  Diagnostic,
  DiagnosticSeverity,
  DocumentSymbol,
  DocumentSymbolRequest,
  Hover,
  HoverRequest,
  InitializeRequest,
  InitializedNotification,
  MarkupContent,
  PublishDiagnosticsParams,
  Range,
  SymbolKind,
  WorkDoneProgress,
  WorkDoneProgressBegin,
  WorkDoneProgressCreateRequest,
  WorkDoneProgressEnd,
  WorkDoneProgressReport,
} from 'vscode-languageserver-protocol/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { URI } from 'vscode-uri';
import { ValidateArtifactFileRequest } from '../../server/src/protocol';
import {
  DEMO,
  EVENT_LOG,
  expectedEventLog,
  expectedRunRecord,
  expectedTranscript,
  jsonValueRange,
  onLine,
  RUN_RECORD,
  TRANSCRIPT,
  type Expected,
} from '../support/brokenRun';
import { defined } from '../support/assertions';
import { TestClient } from '../support/lspClient';

const SOURCE = 'harn.artifacts';
const SEVERITY: Record<Expected['severity'], DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  information: DiagnosticSeverity.Information,
};

const rangeText = (r: Range): string => `${r.start.line}:${r.start.character}-${r.end.line}:${r.end.character}`;
const keyOf = (d: Diagnostic): string => `${String(d.code)} ${d.severity} ${rangeText(d.range)}`;
const expectedKeys = (list: Expected[]): string[] => list.map((e) => `${e.code} ${SEVERITY[e.severity]} ${rangeText(e.range)}`).sort();
const artifactDiagnostics = (p: PublishDiagnosticsParams | undefined): Diagnostic[] => (p?.diagnostics ?? []).filter((d) => d.source === SOURCE);
const keys = (p: PublishDiagnosticsParams): string[] => artifactDiagnostics(p).map(keyOf).sort();
/** The text of a diagnostic, which must be there. */
const messageOf = (d: Diagnostic | undefined): string => {
  const { message } = defined(d, 'the diagnostic');
  return typeof message === 'string' ? message : message.value;
};
/** The children of a document symbol, which must be there and have them. */
const childrenOf = (symbol: DocumentSymbol | undefined): DocumentSymbol[] => {
  const { name, children } = defined(symbol, 'the symbol');
  return defined(children, `the children of ${name}`);
};
const markdown = (hover: Hover | null): string => {
  assert.ok(hover, 'a hover');
  const contents = hover.contents as MarkupContent;
  assert.equal(contents.kind, 'markdown');
  return contents.value;
};

/** A document the client holds open; its text follows every incremental change sent. */
class OpenDoc {
  private doc: TextDocument;
  constructor(
    private readonly client: TestClient,
    readonly uri: string,
    text: string,
  ) {
    this.doc = TextDocument.create(uri, 'jsonl', 1, text);
  }

  get text(): string {
    return this.doc.getText();
  }

  lines(): string[] {
    return this.text.split('\n');
  }

  /** Line `n` (0-based), which must be there. */
  line(n: number): string {
    return defined(this.lines()[n], `line ${n}`);
  }

  /** Replaces `needle` (which must occur once on `line`) with one incremental change. */
  async replaceOnLine(line: number, needle: string, replacement: string): Promise<number> {
    return this.edit(onLine(this.lines(), line, needle), replacement);
  }

  async edit(range: Range, text: string): Promise<number> {
    const version = await this.client.change(this.uri, [{ range, text }]);
    this.doc = TextDocument.update(this.doc, [{ range, text }], version);
    return version;
  }
}

describe('run artifacts over LSP', () => {
  let client: TestClient;
  let tmp: string;
  const progress: Array<{ token: string | number; value: WorkDoneProgressBegin | WorkDoneProgressReport | WorkDoneProgressEnd }> = [];

  const read = (rel: string): string => fs.readFileSync(path.join(DEMO, rel), 'utf8');
  const uriOf = (file: string): string => URI.file(file).toString();

  async function open(file: string, text: string, languageId = 'jsonl'): Promise<{ uri: string; published: PublishDiagnosticsParams }> {
    const since = client.mark();
    const uri = await client.open(file, text, languageId);
    const published = await client.waitForDiagnostics(uri, (p) => p.version === 1, 10000, since);
    return { uri, published };
  }

  async function hoverAt(uri: string, line: number, character = 1): Promise<Hover | null> {
    return client.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line, character } });
  }

  before(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'harn artifacts-'));
    client = new TestClient();
    // Declares workDoneProgress, so the server reports progress, and records it.
    client.connection.onRequest(WorkDoneProgressCreateRequest.type, (params) => {
      client.connection.onProgress(WorkDoneProgress.type, params.token, (value) => {
        progress.push({ token: params.token, value });
      });
    });
    await client.connection.sendRequest(InitializeRequest.type, {
      processId: process.pid,
      rootUri: uriOf(DEMO),
      // The temporary folder is a workspace folder too: harn/validateArtifactFile reads only files inside one.
      workspaceFolders: [
        { uri: uriOf(DEMO), name: 'demo' },
        { uri: uriOf(tmp), name: 'generated' },
      ],
      capabilities: {
        textDocument: { documentSymbol: { hierarchicalDocumentSymbolSupport: true } },
        window: { workDoneProgress: true },
      },
    });
    await client.connection.sendNotification(InitializedNotification.type, {});
    // Ready = settings read and the loud-boundary registry loaded (boundary titles come from it).
    await client.waitForNotification('harn/status', (p) => (p as { state?: string }).state === 'ready');
  });

  after(async () => {
    const errors = client.logMessages(1);
    try {
      await client.shutdown();
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
    assert.deepEqual(errors, [], 'the server logged no error');
  });

  describe('the broken transcript', () => {
    let doc: OpenDoc;
    before(async () => {
      const { uri, published } = await open(path.join(DEMO, TRANSCRIPT), read(TRANSCRIPT));
      doc = new OpenDoc(client, uri, read(TRANSCRIPT));
      assert.deepEqual(keys(published), expectedKeys(expectedTranscript()));
    });
    after(() => client.close(doc.uri));

    test('opening it publishes every transcript code, on the property it is about', () => {
      const published = defined(client.latestDiagnostics(doc.uri), 'the published diagnostics');
      assert.equal(published.version, 1);
      const byCode = new Map(artifactDiagnostics(published).map((d) => [String(d.code), d]));
      assert.match(messageOf(byCode.get('invalid_row')), /`iteration` must be a number, got the string "1"/);
      assert.match(messageOf(byCode.get('unpaired_tool_call')), /"tc_1"/);
      assert.match(messageOf(byCode.get('unbound_tool_result_receipt')), /message_index 7/);
      assert.match(messageOf(byCode.get('row_after_terminal')), /terminal row on line 18/);
    });

    test('hover on a provider_call_response row: the Markdown summary', async () => {
      const hover = await hoverAt(doc.uri, 4, 10);
      const value = markdown(hover);
      for (const fact of [
        '**provider_call_response**',
        'call `c-11`',
        'iteration 0',
        '`m-small`',
        '`ollama`',
        '1,234 in',
        '41 out',
        '$0.0006',
        '1,290 ms',
        '**Tool calls** (2, parsed from `<tool_call>` text)',
        '`lookup_invoice` `tc_0`',
        '`issue_refund` `tc_1`',
        '*Line 5 ·',
      ]) {
        assert.ok(value.includes(fact), `${fact} in:\n${value}`);
      }
      assert.deepEqual(hover?.range, { start: { line: 4, character: 0 }, end: { line: 4, character: doc.line(4).length } });
    });

    test('hover on a tool_call receipt links its tool_result; an unanswered one says so', async () => {
      assert.match(markdown(await hoverAt(doc.uri, 6)), /Result: \[tool_result receipt, line 10\]\(file:\/\/\/.*llm_transcript\.jsonl#L10\)/);
      assert.match(markdown(await hoverAt(doc.uri, 7)), /Result: no `tool_result` receipt for this call in the file/);
    });

    test('documentSymbol: sessions → iterations → calls → rows', async () => {
      const symbols = (await client.connection.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri: doc.uri } })) as DocumentSymbol[];
      assert.equal(symbols.length, 1);
      const session = defined(symbols[0], 'the session symbol');
      assert.equal(session.name, 'session s-77');
      assert.equal(session.kind, SymbolKind.Namespace);
      assert.match(session.detail ?? '', /^done · 2 iterations · 2 calls · 2,624 in \/ 43 out$/);
      assert.deepEqual(session.range, { start: { line: 0, character: 0 }, end: { line: 18, character: doc.line(18).length } });
      const iterations = childrenOf(session).filter((c) => c.kind === SymbolKind.Number);
      assert.deepEqual(
        iterations.map((i) => i.name),
        ['iteration 0', 'iteration 1'],
      );
      const calls = iterations.map((i) =>
        childrenOf(i)
          .filter((c) => c.kind === SymbolKind.Function)
          .map((c) => c.name),
      );
      assert.deepEqual(calls, [['m-small · c-11'], ['m-small · c-12']]);
      const first = defined(
        childrenOf(iterations[0]).find((c) => c.name === 'm-small · c-11'),
        'the call m-small · c-11',
      );
      assert.deepEqual(
        childrenOf(first).map((c) => c.name),
        [
          'request',
          'response',
          'tool_call lookup_invoice',
          'tool_call issue_refund',
          'tool_result lookup_invoice',
          'tool_result lookup_invoice',
          'tool_result lookup_invoice',
        ],
      );
      assert.deepEqual(first.selectionRange, { start: { line: 3, character: 0 }, end: { line: 3, character: doc.line(3).length } });
      assert.ok(childrenOf(session).some((c) => c.kind === SymbolKind.Key && c.name === 'agent_session_finalized'));
    });

    test('an incremental edit of one row updates the diagnostics (and the rows that depend on it)', async () => {
      // Fixing the iteration's type removes invalid_row; nothing else moves.
      let since = client.mark();
      let version = await doc.replaceOnLine(15, '"iteration":"1"', '"iteration":1');
      let published = await client.waitForDiagnostics(doc.uri, (p) => p.version === version, 10000, since);
      const fixed = expectedTranscript().filter((e) => e.code !== 'invalid_row');
      assert.deepEqual(keys(published), expectedKeys(fixed));

      // Breaking message 2's index: the message row is invalid, and the receipt that bound to it no longer binds.
      since = client.mark();
      version = await doc.replaceOnLine(8, '"message_index":2', '"message_index":"2"');
      published = await client.waitForDiagnostics(doc.uri, (p) => p.version === version, 10000, since);
      const lines = doc.lines();
      assert.deepEqual(
        keys(published),
        expectedKeys([
          ...fixed,
          { path: TRANSCRIPT, code: 'invalid_row', severity: 'error', range: onLine(lines, 8, '"message_index":"2"') },
          { path: TRANSCRIPT, code: 'unbound_tool_result_receipt', severity: 'error', range: onLine(lines, 9, '"message_index":2') },
        ]),
      );

      // Deleting the row after the terminal row (a multi-line range) removes row_after_terminal.
      since = client.mark();
      version = await doc.edit(
        { start: { line: 17, character: defined(lines[17], 'line 17').length }, end: { line: 18, character: defined(lines[18], 'line 18').length } },
        '',
      );
      published = await client.waitForDiagnostics(doc.uri, (p) => p.version === version, 10000, since);
      assert.ok(!artifactDiagnostics(published).some((d) => d.code === 'row_after_terminal'), JSON.stringify(published.diagnostics));
      assert.equal(artifactDiagnostics(published).length, fixed.length + 1);
    });
  });

  describe('the broken event log', () => {
    let uri: string;
    before(async () => {
      const opened = await open(path.join(DEMO, EVENT_LOG), read(EVENT_LOG));
      uri = opened.uri;
      assert.deepEqual(keys(opened.published), expectedKeys(expectedEventLog()));
    });
    after(() => client.close(uri));

    test('boundary findings name the registry title, with the event facts in data', () => {
      const diagnostics = artifactDiagnostics(client.latestDiagnostics(uri));
      const failure = defined(
        diagnostics.find((d) => d.code === 'boundary_failure'),
        'the boundary_failure diagnostic',
      );
      assert.equal(
        messageOf(failure),
        'response_content_extraction (Provider response ingestion) lost model output: dropped (owner harness), 1 dropped, 86 bytes',
      );
      assert.deepEqual(
        {
          boundary: (failure.data as Record<string, unknown>).boundary,
          kind: (failure.data as Record<string, unknown>).kind,
          droppedBytes: (failure.data as Record<string, unknown>).droppedBytes,
        },
        { boundary: 'response_content_extraction', kind: 'dropped', droppedBytes: 86 },
      );
      const unreported = diagnostics.find((d) => d.code === 'unreported_boundary_failure');
      assert.match(messageOf(unreported), /^chat_turn_cap \(Chat loop turn cap\) lost model output: capped \(owner policy\)\. Unreported/);
      assert.match(messageOf(diagnostics.find((d) => d.code === 'event_index_gap')), /index 7 is missing/);
      assert.match(messageOf(diagnostics.find((d) => d.code === 'event_index_duplicate')), /Duplicate event index 8 .*first on line 8/);
    });

    test('hover on a boundary_failure event: the Markdown summary with the registry entry', async () => {
      const value = markdown(await hoverAt(uri, 6));
      for (const fact of [
        '**boundary_failure** · `response_content_extraction` · `dropped`',
        'Registry: **Provider response ingestion**',
        'Drops: Content blocks the runtime has no handler for\\.',
        'Owner: `harness`',
        'Dropped: 1 item · 86 bytes',
        '"server_tool_use"',
        'event #6',
        'execution `x-13`',
      ]) {
        assert.ok(value.includes(fact), `${fact} in:\n${value}`);
      }
      const unreported = markdown(await hoverAt(uri, 9));
      assert.ok(unreported.includes('Registry: **Chat loop turn cap**'), unreported);
      assert.ok(unreported.includes('**Unreported**'), unreported);
    });

    test('the same log with CRLF line breaks, open in the editor: the same ranges, and hovers', async () => {
      const crlf = read(EVENT_LOG).replace(/\n/g, '\r\n');
      const opened = await open(path.join(tmp, 'crlf', 'event_log.jsonl'), crlf);
      try {
        assert.deepEqual(keys(opened.published), expectedKeys(expectedEventLog()));
        const hover = await hoverAt(opened.uri, 9);
        assert.ok(markdown(hover).includes('**Unreported**'));
        assert.equal(hover?.range?.end.character, defined(read(EVENT_LOG).split('\n')[9], 'line 9').length, 'the row ends before its \\r');
      } finally {
        await client.close(opened.uri);
      }
    });

    test('documentSymbol: session → iterations → events', async () => {
      const symbols = (await client.connection.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri } })) as DocumentSymbol[];
      assert.deepEqual(
        symbols.map((s) => s.name),
        ['session s-77'],
      );
      const iterations = childrenOf(symbols[0]).filter((c) => c.kind === SymbolKind.Number);
      assert.deepEqual(
        iterations.map((i) => i.name),
        ['iteration 0', 'iteration 1'],
      );
      assert.deepEqual(
        childrenOf(iterations[1]).map((c) => c.name),
        ['boundary_failure response_content_extraction'],
      );
    });
  });

  describe('the broken run record', () => {
    test('each descriptor mismatch sits on its field, with both values in the message', async () => {
      const text = read(RUN_RECORD);
      const { uri, published } = await open(path.join(DEMO, RUN_RECORD), text, 'json');
      try {
        assert.deepEqual(keys(published), expectedKeys(expectedRunRecord()));
        const byCode = new Map(artifactDiagnostics(published).map((d) => [String(d.code), d]));
        const both: Record<string, RegExp> = {
          schema_mismatch: /"harn\.llm_transcript_artifact\.v0", expected "harn\.llm_transcript_artifact\.v1"/,
          artifact_kind_mismatch: /"agent_event_log", expected "llm_jsonl"/,
          run_id_mismatch: /run_id in the descriptor is "r12", the run record's id is "r13"/,
          digest_mismatch: /sha256 in the descriptor is sha256:([0-9a-f]{64}), the transcript on disk hashes to sha256:(?!\1)[0-9a-f]{64}/,
          byte_len_mismatch: /byte_len in the descriptor is 2111, the transcript on disk is 2109 bytes long/,
          event_count_mismatch: /event_count in the descriptor is 8, the transcript on disk has 7 events/,
          completeness_mismatch: /complete in the descriptor is true, the transcript on disk has no terminal row/,
        };
        for (const [code, pattern] of Object.entries(both)) assert.match(messageOf(byCode.get(code)), pattern, code);
        const digest = defined(byCode.get('digest_mismatch'), 'the digest_mismatch diagnostic').data as Record<string, unknown>;
        assert.equal(digest.field, 'sha256');
        assert.match(String(digest.descriptor), /^sha256:[0-9a-f]{64}$/);
        assert.match(String(digest.actual), /^sha256:[0-9a-f]{64}$/);
        assert.notEqual(digest.descriptor, digest.actual);
        assert.equal(digest.transcript, path.join(DEMO, 'runs', 'broken', 'run-llm', 'llm_transcript-clean.jsonl'));
      } finally {
        const since = client.mark();
        await client.close(uri);
        // Closing the record clears its diagnostics, as for every other document.
        await client.waitForDiagnostics(uri, (p) => p.diagnostics.length === 0, 10000, since);
      }
    });

    test('a .json document that stops being a run record loses its diagnostics', async () => {
      const file = path.join(DEMO, 'runs', 'broken', 'copy-of-record.json');
      const text = read(RUN_RECORD);
      const { uri, published } = await open(file, text, 'json');
      try {
        assert.equal(artifactDiagnostics(published).length, expectedRunRecord().length);
        const since = client.mark();
        const version = await client.change(uri, [{ range: onLine(text.split('\n'), 1, '"run_record"'), text: '"notes"' }]);
        await client.waitForDiagnostics(uri, (p) => p.diagnostics.length === 0, 10000, since);
        assert.ok(version > 1);
      } finally {
        await client.close(uri);
      }
    });

    test('a run record open from a folder that no longer exists: invalid_run_path where the transcript is resolved', async () => {
      const moved = path.join(DEMO, 'runs', 'broken-moved', 'run.json');
      assert.ok(!fs.existsSync(path.dirname(moved)));
      const text = read(RUN_RECORD);
      const { uri, published } = await open(moved, text, 'json');
      try {
        const diagnostics = artifactDiagnostics(published);
        const at = (i: number, ...field: string[]) => rangeText(jsonValueRange(text, ['observability', 'transcript_pointers', i, ...field]));
        const found = new Set(diagnostics.map((d) => `${String(d.code)} ${rangeText(d.range)}`));
        // Checked before the path: unchanged.
        assert.ok(found.has(`unverified_descriptor ${at(0, 'verification_status')}`));
        assert.ok(found.has(`missing_descriptor ${at(1, 'descriptor')}`));
        assert.ok(found.has(`schema_mismatch ${at(2, 'descriptor', 'schema_version')}`));
        assert.ok(found.has(`path_traversal ${at(5, 'descriptor', 'relative_path')}`));
        assert.ok(found.has(`missing_path ${at(6, 'descriptor', 'path')}`));
        // Every pointer that gets as far as resolving its transcript cannot: the run's folder is gone.
        for (const i of [2, 3, 4, 7, 8, 9, 10, 11, 12, 13, 14])
          assert.ok(found.has(`invalid_run_path ${at(i, 'descriptor', 'relative_path')}`), `pointer ${i}: ${[...found].join('\n')}`);
        const first = diagnostics.find((d) => d.code === 'invalid_run_path');
        assert.match(messageOf(first), /The run record's folder .*broken-moved cannot be resolved \(ENOENT\)/);
        assert.ok(!diagnostics.some((d) => ['digest_mismatch', 'byte_len_mismatch', 'unavailable'].includes(String(d.code))), 'no transcript is read');
      } finally {
        await client.close(uri);
      }
    });
  });

  describe('harn/validateArtifactFile', () => {
    test('a never-opened 5 MB transcript: diagnostics from disk with progress, then hovers on its rows', async () => {
      const file = path.join(tmp, 'big run-llm', 'llm_transcript-big.jsonl');
      fs.mkdirSync(path.dirname(file), { recursive: true });
      const rows: string[] = [];
      const padding = 'p'.repeat(180);
      for (let i = 0; rows.length < 24000; i++) {
        const callId = `c-${i}`;
        rows.push(
          JSON.stringify({
            type: 'provider_call_request',
            timestamp: '1767225600.010',
            span_id: i,
            call_id: callId,
            iteration: i,
            model: 'm-big',
            provider: 'ollama',
            tool_format: 'text',
            message_count: 2 * i + 1,
          }),
        );
        rows.push(
          JSON.stringify({
            type: 'provider_call_response',
            timestamp: '1767225600.500',
            span_id: i,
            iteration: i,
            call_id: callId,
            provider: 'ollama',
            model: 'm-big',
            text: `answer ${i} ${padding}`,
            tool_calls: [],
            parsed_tool_calls: [],
            input_tokens: 1000 + i,
            output_tokens: 7,
          }),
        );
        rows.push(
          JSON.stringify({
            type: 'message',
            timestamp: '1767225600.501',
            span_id: null,
            session_id: 's-big',
            message_index: i,
            role: 'assistant',
            content: `answer ${i} ${padding}`,
            message: { role: 'assistant', content: `answer ${i}` },
          }),
        );
      }
      const MALFORMED = 3000;
      const INVALID = 12001; // a response row
      rows[MALFORMED] = defined(rows[MALFORMED], 'the row to cut').slice(0, 60);
      rows[INVALID] = defined(rows[INVALID], 'the row to invalidate').replace('"output_tokens":7', '"output_tokens":-7');
      rows.push(
        JSON.stringify({
          type: 'agent_session_finalized',
          timestamp: '1767225699.000',
          span_id: null,
          session_id: 's-big',
          final_status: 'done',
          iterations: 8000,
          terminal: true,
        }),
      );
      const text = rows.join('\n') + '\n';
      fs.writeFileSync(file, text);
      assert.ok(text.length >= 5 * 1024 * 1024, `${text.length} bytes`);
      const uri = uriOf(file);

      const since = client.mark();
      const progressFrom = progress.length;
      const result = await client.connection.sendRequest(ValidateArtifactFileRequest, { uri });
      assert.deepEqual(result, { kind: 'transcript', problems: 2, lines: rows.length });
      const published = await client.waitForDiagnostics(uri, (p) => p.diagnostics.length > 0, 20000, since);
      const invalidAt = rows[INVALID].indexOf('"output_tokens":-7');
      assert.deepEqual(artifactDiagnostics(published).map(keyOf), [
        `malformed_jsonl ${DiagnosticSeverity.Error} ${MALFORMED}:${rows[MALFORMED].length}-${MALFORMED}:${rows[MALFORMED].length}`,
        `invalid_row ${DiagnosticSeverity.Error} ${INVALID}:${invalidAt}-${INVALID}:${invalidAt + '"output_tokens":-7'.length}`,
      ]);
      // Progress: begun with the file's name, and ended.
      const mine = progress.slice(progressFrom);
      const begin = mine.find((p) => p.value.kind === 'begin' && p.value.title === 'Harn: validating');
      assert.ok(begin, JSON.stringify(mine));
      assert.equal((begin.value as WorkDoneProgressBegin).message, 'llm_transcript-big.jsonl');
      assert.ok(mine.some((p) => p.token === begin.token && p.value.kind === 'end'));

      // Hovers read the row back from disk through the line index.
      const deep = rows.length - 3; // the last response row
      const value = markdown(await hoverAt(uri, deep));
      assert.ok(value.includes('**provider_call_response** · call `c-7999` · iteration 7,999'), value);
      assert.ok(value.includes('8,999 in'), value);
      assert.ok(value.includes(`*Line ${(deep + 1).toLocaleString('en-US')} ·`), value);
      assert.match(markdown(await hoverAt(uri, 2)), /\*\*message\*\* · `assistant` · #0/);
      assert.equal(await hoverAt(uri, MALFORMED), null, 'a malformed line has no hover (its diagnostic explains it)');
    });

    test('a never-opened run record is verified from disk; a never-opened event log answers hovers', async () => {
      const recordUri = uriOf(path.join(DEMO, RUN_RECORD));
      let since = client.mark();
      const record = await client.connection.sendRequest(ValidateArtifactFileRequest, { uri: recordUri });
      assert.equal(record.kind, 'runRecord');
      assert.equal(record.problems, expectedRunRecord().length);
      const recordPublished = await client.waitForDiagnostics(recordUri, (p) => p.diagnostics.length > 0, 10000, since);
      assert.deepEqual(keys(recordPublished), expectedKeys(expectedRunRecord()));

      const logUri = uriOf(path.join(DEMO, EVENT_LOG));
      since = client.mark();
      const log = await client.connection.sendRequest(ValidateArtifactFileRequest, { uri: logUri });
      assert.deepEqual(log, { kind: 'eventLog', problems: 4, lines: 10 });
      const logPublished = await client.waitForDiagnostics(logUri, (p) => p.diagnostics.length > 0, 10000, since);
      assert.deepEqual(keys(logPublished), expectedKeys(expectedEventLog()));
      assert.ok(markdown(await hoverAt(logUri, 6)).includes('Registry: **Provider response ingestion**'));
    });

    test('an open document is validated from the editor text, not from disk', async () => {
      const edited = read(TRANSCRIPT).replace('"iteration":"1"', '"iteration":1');
      const { uri, published } = await open(path.join(DEMO, TRANSCRIPT), edited);
      try {
        const fixed = expectedKeys(expectedTranscript().filter((e) => e.code !== 'invalid_row'));
        assert.deepEqual(keys(published), fixed);
        const since = client.mark();
        const result = await client.connection.sendRequest(ValidateArtifactFileRequest, { uri });
        assert.deepEqual(result, { kind: 'transcript', problems: fixed.length, lines: edited.split('\n').length });
        const again = await client.waitForDiagnostics(uri, () => true, 10000, since);
        assert.equal(again.version, 1, 'published for the open version');
        assert.deepEqual(keys(again), fixed);
      } finally {
        await client.close(uri);
      }
    });

    test('a BOM in the middle of a file: the same utf8_bom from disk as from the editor, and its row answers hovers', async () => {
      const rows = read(TRANSCRIPT).trimEnd().split('\n');
      rows[2] = '\ufeff' + (rows[2] ?? '');
      const text = rows.join('\n') + '\n';
      const file = path.join(tmp, 'bom-middle', 'llm_transcript.jsonl');
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, text);
      const uri = uriOf(file);
      const since = client.mark();
      await client.connection.sendRequest(ValidateArtifactFileRequest, { uri });
      const fromDisk = await client.waitForDiagnostics(uri, (p) => p.diagnostics.length > 0, 10000, since);
      const bom = artifactDiagnostics(fromDisk).filter((d) => d.code === 'utf8_bom');
      assert.deepEqual(
        bom.map((d) => [rangeText(d.range), d.severity, messageOf(d)]),
        [['2:0-2:1', DiagnosticSeverity.Information, 'A UTF-8 byte order mark starts this line; Harn never writes one. It is skipped.']],
      );
      const diskHover = markdown(await hoverAt(uri, 2));
      assert.match(diskHover, /^\*\*message\*\* · `user` · #0/);
      // The same text open in the editor: the same diagnostics at the same places, the same hover.
      const { uri: openUri, published } = await open(path.join(tmp, 'bom-middle-open', 'llm_transcript.jsonl'), text);
      try {
        const shape = (p: PublishDiagnosticsParams): string[] => artifactDiagnostics(p).map((d) => `${keyOf(d)} ${messageOf(d)}`);
        assert.deepEqual(shape(published), shape(fromDisk));
        assert.equal(markdown(await hoverAt(openUri, 2)), diskHover);
      } finally {
        await client.close(openUri);
      }
    });

    test('a file that is not an artifact: kind undefined, nothing published', async () => {
      const file = path.join(tmp, 'notes.txt');
      fs.writeFileSync(file, 'hello\n');
      const result = await client.connection.sendRequest(ValidateArtifactFileRequest, { uri: uriOf(file) });
      assert.equal(result.kind, undefined);
      assert.equal(result.problems, 0);
      assert.equal(client.latestDiagnostics(uriOf(file)), undefined);
    });
  });
});
