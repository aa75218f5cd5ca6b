// Training example files over LSP (the real server over stdio): diagnostics from the workspace check on closed
// files (`*.training.json`, `*.training.jsonl`, a `.json` declaring the v1 schema, a `run.training.json` that is no
// run record), live diagnostics on an open file as it is edited, hovers on a message's pairing and on the
// provenance (open and closed), and the outline of the messages.

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { DocumentSymbol, DocumentSymbolRequest, HoverRequest, MarkupContent, PublishDiagnosticsParams } from 'vscode-languageserver-protocol/node';
import { URI } from 'vscode-uri';
import { defined } from '../support/assertions';
import { REPO_ROOT, TestClient } from '../support/lspClient';

const DEMO_EXAMPLE = path.join(REPO_ROOT, 'examples', 'demo', 'runs', 'training', 'mispaired.training.json');

type Json = Record<string, unknown>;

const demo = (): Json => JSON.parse(fs.readFileSync(DEMO_EXAMPLE, 'utf8')) as Json;
/** The demo's example with its second call removed: it pairs, and has no unknown field. */
function healthy(): Json {
  const e = demo();
  delete e.reviewer_note;
  const messages = e.messages as Json[];
  const assistant = defined(messages[2]);
  assistant.tool_calls = (assistant.tool_calls as Json[]).slice(0, 1);
  return e;
}

const messageOf = (d: { message: string | MarkupContent } | undefined): string =>
  d === undefined ? '' : typeof d.message === 'string' ? d.message : d.message.value;
const codesOf = (p: PublishDiagnosticsParams | undefined): string[] =>
  (p?.diagnostics ?? []).map((d) => `${String(d.source)}/${String(d.code)}@${d.range.start.line}`);

describe('training example files over LSP', () => {
  let client: TestClient;
  let root: string;
  const uriOf = (relative: string): string => URI.file(path.join(root, relative)).toString();
  const write = (relative: string, text: string): void => {
    fs.mkdirSync(path.dirname(path.join(root, relative)), { recursive: true });
    fs.writeFileSync(path.join(root, relative), text);
  };
  const hoverText = async (uri: string, line: number, character: number): Promise<string> => {
    const hover = await client.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line, character } });
    return (defined(hover ?? undefined, `hover at ${line}:${character}`).contents as MarkupContent).value;
  };

  before(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'harn-training-lsp-'));
    write('runs/mispaired.training.json', fs.readFileSync(DEMO_EXAMPLE, 'utf8'));
    write('runs/good.training.json', JSON.stringify(healthy(), null, 2) + '\n');
    write('runs/batch.training.jsonl', [JSON.stringify(healthy()), '', JSON.stringify(demo())].join('\n') + '\n');
    write('runs/declared.json', JSON.stringify({ ...healthy(), schema_version: 'harn.agent_training_example.v1', messages: [] }, null, 2));
    // Named like a run record: still a training example (its messages do not pair), never checked as a run record.
    write('runs/run.training.json', JSON.stringify({ ...healthy(), messages: (healthy().messages as Json[]).slice(0, 2) }));
    client = new TestClient();
    await client.initialize(root);
  });

  after(async () => {
    await client.shutdown();
    fs.rmSync(root, { recursive: true, force: true });
  });

  test('the workspace check publishes each closed training file’s problems, source harn.training', async () => {
    const has = (p: PublishDiagnosticsParams): boolean => p.diagnostics.length > 0;
    const mispaired = await client.waitForDiagnostics(uriOf('runs/mispaired.training.json'), has, 20000);
    assert.deepEqual(codesOf(mispaired), ['harn.training/unpaired_tool_call@43', 'harn.training/unknown_field@105']);
    assert.equal(mispaired.diagnostics[0]?.severity, 1);
    assert.equal(mispaired.diagnostics[1]?.severity, 3);
    assert.match(messageOf(mispaired.diagnostics[0]), /call tc_1 \(refund_status\) from message 2 is unanswered at the next assistant turn \(message 4\)$/);
    const batch = await client.waitForDiagnostics(uriOf('runs/batch.training.jsonl'), has, 20000);
    assert.deepEqual(codesOf(batch), ['harn.training/unpaired_tool_call@2', 'harn.training/unknown_field@2']);
    const declared = await client.waitForDiagnostics(uriOf('runs/declared.json'), has, 20000);
    assert.deepEqual(codesOf(declared), ['harn.training/missing_terminal_assistant@2']);
    const named = await client.waitForDiagnostics(uriOf('runs/run.training.json'), has, 20000);
    assert.deepEqual(codesOf(named), ['harn.training/missing_terminal_assistant@0']);
    // The valid one: nothing published at all.
    assert.equal(client.latestDiagnostics(uriOf('runs/good.training.json')), undefined);
  });

  test('hover on a closed file (read from disk): the tool message names the call it answers, the turn its calls', async () => {
    const uri = uriOf('runs/mispaired.training.json');
    const lines = fs.readFileSync(DEMO_EXAMPLE, 'utf8').split('\n');
    const toolLine = lines.findIndex((l) => l.includes('"role": "tool"'));
    const onTool = await hoverText(uri, toolLine, 6);
    assert.match(onTool, /\*\*Training message 3\*\* of 5, role `tool`/);
    assert.match(onTool, /Answers call `tc_0` \(`lookup_invoice`\) of assistant message 2\./);
    assert.match(onTool, /The pairing breaks at message 4: `unpaired_tool_call`/);
    const assistantLine = lines.findIndex((l) => l.includes('"tool_calls": ['));
    const onAssistant = await hoverText(uri, assistantLine, 6);
    assert.match(onAssistant, /`tc_0` \(`lookup_invoice`\) → answered by message 3/);
    assert.match(onAssistant, /`tc_1` \(`refund_status`\) → \*\*unanswered\*\*/);
    const provenanceLine = lines.findIndex((l) => l.includes('"run_id"'));
    assert.match(await hoverText(uri, provenanceLine, 6), /run `r9`, session `s-42`[\s\S]*model `m-small`[\s\S]*sha256:5b0c/);
  });

  test('an open file: live diagnostics follow its edits, hovers and the outline read its text', async () => {
    const file = path.join(root, 'runs', 'good.training.json');
    const text = fs.readFileSync(file, 'utf8');
    const mark = client.mark();
    const uri = await client.open(file, text, 'json');
    await client.waitForDiagnostics(uri, (p) => p.diagnostics.length === 0, 10000, mark);
    // Break it: the tool result now answers a call nobody made.
    const at = text.indexOf('"tool_call_id": "tc_0"');
    const lines = text.slice(0, at).split('\n');
    const line = lines.length - 1;
    const character = defined(lines.at(-1)).length + '"tool_call_id": "'.length;
    const edited = client.mark();
    await client.change(uri, [{ range: { start: { line, character }, end: { line, character: character + 4 } }, text: 'tc_9' }]);
    const live = await client.waitForDiagnostics(uri, (p) => p.diagnostics.length > 0, 10000, edited);
    assert.deepEqual(
      live.diagnostics.map((d) => [d.source, d.code]),
      [['harn.training', 'orphaned_tool_result']],
    );
    assert.match(messageOf(live.diagnostics[0]), /expected the result for tc_0 \(lookup_invoice\), got tc_9 \(message 3\)/);
    assert.match(await hoverText(uri, line, 6), /Answers no call: no assistant turn before it calls tc\\?_9[\s\S]*\*\*The pairing breaks here\*\*/);
    const symbols = (await client.connection.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri } })) as DocumentSymbol[];
    assert.equal(symbols.length, 1);
    assert.deepEqual(
      defined(symbols[0]).children?.map((s) => s.name),
      ['0 system', '1 user', '2 assistant', '3 tool', '4 assistant'],
    );
    await client.close(uri);
  });
});
