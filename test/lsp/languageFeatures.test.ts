// harn.languageFeatures beside upstream's extension, over stdio: with our `.harn` language features off
// (initializationOptions, then the harn/languageFeatures notification), a `.harn` file gets no Harn hover,
// completion, outline, folding, links, definition, semantic tokens, signature help, selection ranges, inlay hints, completion details or syntax
// diagnostic from us (the editor is asked to fetch its tokens again), while the loud-boundary features on it
// (unknown ids, their hover and fixes) stay; the notification switches live, both ways.

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  CodeActionRequest,
  CompletionItem,
  CompletionList,
  CompletionRequest,
  CompletionResolveRequest,
  DefinitionRequest,
  DocumentHighlightRequest,
  DocumentLinkRequest,
  DocumentSymbolRequest,
  FoldingRangeRequest,
  InlayHintRefreshRequest,
  InlayHintRequest,
  Hover,
  HoverRequest,
  MarkupContent,
  Position,
  PrepareRenameRequest,
  PublishDiagnosticsParams,
  ReferencesRequest,
  RenameRequest,
  WorkspaceSymbolRequest,
  SelectionRangeRequest,
  DeclarationRequest,
  TypeDefinitionRequest,
  ImplementationRequest,
  CallHierarchyPrepareRequest,
  SemanticTokensRefreshRequest,
  SemanticTokensRequest,
  SignatureHelpRequest,
} from 'vscode-languageserver-protocol/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { LanguageFeaturesParams } from '../../server/src/protocol';
import { REPO_ROOT, TestClient } from '../support/lspClient';

const DEMO = path.join(REPO_ROOT, 'examples', 'demo');
/** Under the gate's harnGlobs (crates/**\/*.harn), so the live boundary check reads it. */
const FILE = 'crates/harn-stdlib/src/stdlib/agent/beside_upstream.harn';
const TEXT = `import { triage_system_prompt } from "../../../../../lib/prompts"

/** Keeps at most \`cap\` messages. */
pub fn keep(session_id: string, messages: list<string>) -> string {
  let cap = 4
  if len(messages) > cap {
    agent_emit_event(session_id, "boundary_failure", {
      boundary: "chat_turn_capp",
      kind: "capped",
    })
  }
  let broken = )
  return join(messages, "\\n")
}
`;

const OFF: LanguageFeaturesParams = { enabled: false, reason: "harn.languageFeatures is auto and upstream's extension is installed" };
const ON: LanguageFeaturesParams = { enabled: true, reason: 'harn.languageFeatures is on' };

function positionOf(needle: string, delta = 0, occurrence = 0): Position {
  let at = -1;
  for (let i = 0; i <= occurrence; i++) at = TEXT.indexOf(needle, at + 1);
  assert.ok(at >= 0, `${needle} not found`);
  return TextDocument.create('file:///x', 'harn', 0, TEXT).positionAt(at + delta);
}

const WHOLE = { start: { line: 0, character: 0 }, end: TextDocument.create('file:///x', 'harn', 0, TEXT).positionAt(TEXT.length) };
/** A builtin's completion item as our list sends it: its details come from resolve. */
const BUILTIN_ITEM: CompletionItem = { label: 'len', kind: 3, sortText: '2len', data: { harn: 'builtin' } };
const codesOf = (p: PublishDiagnosticsParams): string[] => p.diagnostics.map((d) => `${d.source ?? ''}/${String(d.code)}`).sort();
const hasSyntaxError = (p: PublishDiagnosticsParams): boolean => p.diagnostics.some((d) => d.source === 'harn.syntax');
const hasUnknownBoundary = (p: PublishDiagnosticsParams): boolean => p.diagnostics.some((d) => d.code === 'unknown_boundary');
/** The live check's publication of the open document (the gate's, from disk before it opened, has no version). */
const live = (p: PublishDiagnosticsParams): boolean => p.version !== undefined && p.version !== null && hasUnknownBoundary(p);
const sourcesOf = (p: PublishDiagnosticsParams): string[] => [...new Set(p.diagnostics.map((d) => d.source ?? ''))];
const hoverText = (h: Hover | null): string => (h ? (h.contents as MarkupContent).value : '');
const labels = (c: CompletionItem[] | CompletionList | null): string[] => (Array.isArray(c) ? c : (c?.items ?? [])).map((i) => i.label);

/** How many workspace/semanticTokens/refresh requests the last started server sent. */
let tokenRefreshes = (): number => 0;
/** And workspace/inlayHint/refresh requests. */
let inlayHintRefreshes = (): number => 0;

async function startServer(initializationOptions: unknown): Promise<{ client: TestClient; root: string; uri: string }> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'harn-langfeat-'));
  fs.cpSync(DEMO, root, { recursive: true });
  fs.writeFileSync(path.join(root, FILE), TEXT);
  const client = new TestClient();
  // As VS Code: the client is asked to fetch semantic tokens again when ours step back or return.
  let refreshes = 0;
  client.connection.onRequest(SemanticTokensRefreshRequest.type, () => {
    refreshes++;
  });
  tokenRefreshes = () => refreshes;
  let hintRefreshes = 0;
  client.connection.onRequest(InlayHintRefreshRequest.type, () => {
    hintRefreshes++;
  });
  inlayHintRefreshes = () => hintRefreshes;
  await client.initialize(root, { initializationOptions, semanticTokensRefresh: true, inlayHintRefresh: true });
  await client.waitForNotification('harn/status', (p) => (p as { state?: string }).state === 'ready');
  const uri = await client.open(path.join(root, FILE), TEXT);
  return { client, root, uri };
}

async function stopServer(client: TestClient, root: string): Promise<void> {
  try {
    await client.shutdown();
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

describe('harn.languageFeatures: our .harn language features step back, the boundary features stay', () => {
  let client: TestClient;
  let root: string;
  let uri: string;
  const textDocument = (): { uri: string } => ({ uri });

  before(async () => {
    ({ client, root, uri } = await startServer({ languageFeatures: OFF }));
  });

  after(async () => {
    await stopServer(client, root);
  });

  test('off from initializationOptions: the unknown boundary id is reported, no Harn syntax error', async () => {
    const published = await client.waitForDiagnostics(uri, live);
    assert.deepEqual(sourcesOf(published), ['harn.boundaries'], `only the boundary checks report while off: ${JSON.stringify(codesOf(published))}`);
    assert.ok(
      published.diagnostics.some((d) => d.code === 'unknown_boundary' && /Did you mean/.test(typeof d.message === 'string' ? d.message : d.message.value)),
      `the live unknown-id check says "Did you mean": ${JSON.stringify(published.diagnostics)}`,
    );
    assert.ok(
      client.logMessages().some((m) => m.startsWith('Harn language features on .harn files: off') && m.includes("upstream's extension is installed")),
      `the server logs the choice and its reason: ${JSON.stringify(client.logMessages())}`,
    );
  });

  test('off: no hover, completion, outline, folding, links or definition of ours; the boundary hover and fixes stay', async () => {
    const onLocal = await client.connection.sendRequest(HoverRequest.type, { textDocument: textDocument(), position: positionOf('cap {', 1) });
    assert.equal(onLocal, null, `no hover on a local name: ${hoverText(onLocal)}`);
    const onBuiltin = await client.connection.sendRequest(HoverRequest.type, { textDocument: textDocument(), position: positionOf('join(', 1) });
    assert.equal(onBuiltin, null, `no hover on a builtin: ${hoverText(onBuiltin)}`);

    const onId = await client.connection.sendRequest(HoverRequest.type, { textDocument: textDocument(), position: positionOf('chat_turn_capp', 3) });
    assert.match(hoverText(onId), /chat_turn_capp.*not in the loud-boundary registry/, `the boundary id hover stays: ${hoverText(onId)}`);

    const names = await client.connection.sendRequest(CompletionRequest.type, { textDocument: textDocument(), position: positionOf('  return', 2) });
    assert.deepEqual(labels(names), [], 'no completion of Harn names');
    const ids = await client.connection.sendRequest(CompletionRequest.type, { textDocument: textDocument(), position: positionOf('chat_turn_capp', 0) });
    assert.ok(labels(ids).includes('chat_turn_cap'), `completion of registered ids inside boundary: "…" stays: ${JSON.stringify(labels(ids))}`);

    const symbols = await client.connection.sendRequest(DocumentSymbolRequest.type, { textDocument: textDocument() });
    assert.deepEqual(symbols ?? [], [], 'no outline');
    const folds = await client.connection.sendRequest(FoldingRangeRequest.type, { textDocument: textDocument() });
    assert.deepEqual(folds ?? [], [], 'no folding ranges');
    const links = await client.connection.sendRequest(DocumentLinkRequest.type, { textDocument: textDocument() });
    assert.deepEqual(links ?? [], [], 'no import links');
    const definition = await client.connection.sendRequest(DefinitionRequest.type, { textDocument: textDocument(), position: positionOf('cap {', 1) });
    assert.deepEqual(definition ?? [], [], 'no definition');
    const at = { textDocument: textDocument(), position: positionOf('cap {', 1) };
    assert.deepEqual(
      (await client.connection.sendRequest(ReferencesRequest.type, { ...at, context: { includeDeclaration: true } })) ?? [],
      [],
      'no references',
    );
    assert.deepEqual((await client.connection.sendRequest(DocumentHighlightRequest.type, at)) ?? [], [], 'no highlights');
    assert.equal(await client.connection.sendRequest(PrepareRenameRequest.type, at), null, 'no rename of ours');
    assert.equal(await client.connection.sendRequest(RenameRequest.type, { ...at, newName: 'limit' }), null, 'no rename edit');
    assert.deepEqual((await client.connection.sendRequest(WorkspaceSymbolRequest.type, { query: 'keep' })) ?? [], [], 'no workspace symbols');
    const tokens = await client.connection.sendRequest(SemanticTokensRequest.type, { textDocument: textDocument() });
    assert.deepEqual(tokens?.data ?? [], [], 'no semantic tokens');
    const signature = await client.connection.sendRequest(SignatureHelpRequest.type, { textDocument: textDocument(), position: positionOf('join(', 5) });
    assert.equal(signature, null, 'no signature help');
    const selection = await client.connection.sendRequest(SelectionRangeRequest.type, { textDocument: textDocument(), positions: [positionOf('cap {', 1)] });
    assert.deepEqual(selection ?? [], [], 'no selection ranges');
    assert.deepEqual((await client.connection.sendRequest(DeclarationRequest.type, at)) ?? [], [], 'no declaration');
    assert.deepEqual((await client.connection.sendRequest(TypeDefinitionRequest.type, at)) ?? [], [], 'no type definition');
    assert.deepEqual((await client.connection.sendRequest(ImplementationRequest.type, at)) ?? [], [], 'no implementation');
    const onKeep = { textDocument: textDocument(), position: positionOf('keep(', 1) };
    assert.deepEqual((await client.connection.sendRequest(CallHierarchyPrepareRequest.type, onKeep)) ?? [], [], 'no call hierarchy');
    assert.deepEqual((await client.connection.sendRequest(InlayHintRequest.type, { textDocument: textDocument(), range: WHOLE })) ?? [], [], 'no inlay hints');
    assert.deepEqual(await client.connection.sendRequest(CompletionResolveRequest.type, BUILTIN_ITEM), BUILTIN_ITEM, 'no completion details');

    const diagnostics = (client.latestDiagnostics(uri)?.diagnostics ?? []).filter((d) => d.code === 'unknown_boundary');
    const actions = await client.connection.sendRequest(CodeActionRequest.type, {
      textDocument: textDocument(),
      range: diagnostics[0]?.range ?? { start: positionOf('chat_turn_capp'), end: positionOf('chat_turn_capp') },
      context: { diagnostics },
    });
    const titles = (actions ?? []).map((a) => a.title);
    assert.ok(
      titles.some((t) => /Change to 'chat_turn_cap'/.test(t)),
      `the boundary quick fixes stay: ${JSON.stringify(titles)}`,
    );
  });

  test('the notification turns them on live: the syntax error comes back, hover and outline answer', async () => {
    const since = client.mark();
    const refreshesBefore = tokenRefreshes();
    const hintRefreshesBefore = inlayHintRefreshes();
    await client.connection.sendNotification('harn/languageFeatures', ON);
    const published = await client.waitForDiagnostics(uri, hasSyntaxError, 10_000, since);
    assert.ok(hasUnknownBoundary(published), `the boundary problem is still there: ${JSON.stringify(codesOf(published))}`);
    assert.ok(
      published.diagnostics.some((d) => d.source === 'harn.syntax' && d.range.start.line === positionOf('= )', 2).line),
      `the syntax error is on the \`let broken = )\` line: ${JSON.stringify(published.diagnostics)}`,
    );

    const onLocal = await client.connection.sendRequest(HoverRequest.type, { textDocument: textDocument(), position: positionOf('cap {', 1) });
    assert.match(hoverText(onLocal), /cap/, 'a hover on the local name');
    const names = await client.connection.sendRequest(CompletionRequest.type, { textDocument: textDocument(), position: positionOf('  return', 2) });
    assert.ok(labels(names).includes('cap'), `completion offers the local name: ${JSON.stringify(labels(names).slice(0, 20))}`);
    const references = await client.connection.sendRequest(ReferencesRequest.type, {
      textDocument: textDocument(),
      position: positionOf('cap {', 1),
      context: { includeDeclaration: true },
    });
    assert.equal(references?.length, 2, `the references of cap answer again: ${JSON.stringify(references)}`);
    const found = await client.connection.sendRequest(WorkspaceSymbolRequest.type, { query: 'keep' });
    assert.ok(
      (found ?? []).some((s) => s.name === 'keep'),
      'workspace symbols answer again',
    );
    const symbols = await client.connection.sendRequest(DocumentSymbolRequest.type, { textDocument: textDocument() });
    assert.ok(
      (symbols ?? []).some((s) => s.name === 'keep'),
      `the outline lists keep: ${JSON.stringify(symbols)}`,
    );
    const tokens = await client.connection.sendRequest(SemanticTokensRequest.type, { textDocument: textDocument() });
    assert.ok((tokens?.data.length ?? 0) > 0, 'semantic tokens answer');
    const signature = await client.connection.sendRequest(SignatureHelpRequest.type, { textDocument: textDocument(), position: positionOf('join(', 5) });
    assert.match(signature?.signatures[0]?.label ?? '', /^fn join\(/, 'signature help answers');
    const selection = await client.connection.sendRequest(SelectionRangeRequest.type, { textDocument: textDocument(), positions: [positionOf('cap {', 1)] });
    assert.equal(selection?.length, 1, 'selection ranges answer');
    const declaration = await client.connection.sendRequest(DeclarationRequest.type, { textDocument: textDocument(), position: positionOf('cap {', 1) });
    assert.equal((Array.isArray(declaration) ? declaration : []).length, 1, 'declaration answers');
    const calls = await client.connection.sendRequest(CallHierarchyPrepareRequest.type, { textDocument: textDocument(), position: positionOf('keep(', 1) });
    assert.equal(calls?.[0]?.name, 'keep', 'call hierarchy answers');
    const hints = (await client.connection.sendRequest(InlayHintRequest.type, { textDocument: textDocument(), range: WHOLE })) ?? [];
    assert.ok(
      hints.some((h) => h.position.line === positionOf('"\\n"').line && h.position.character === positionOf('"\\n"').character),
      `inlay hints answer (join's literal separator): ${JSON.stringify(hints)}`,
    );
    const details = await client.connection.sendRequest(CompletionResolveRequest.type, BUILTIN_ITEM);
    assert.match(details.detail ?? '', /len\(/, 'completion resolve answers');
    assert.ok(await client.waitUntil(() => tokenRefreshes() > refreshesBefore), 'the editor is asked to fetch semantic tokens again');
    assert.ok(await client.waitUntil(() => inlayHintRefreshes() > hintRefreshesBefore), 'and inlay hints');
  });

  test('and off again: the syntax error goes at once, the boundary problem stays', async () => {
    const since = client.mark();
    const refreshesBefore = tokenRefreshes();
    await client.connection.sendNotification('harn/languageFeatures', OFF);
    const published = await client.waitForDiagnostics(uri, (p) => !hasSyntaxError(p), 10_000, since);
    assert.deepEqual(sourcesOf(published), ['harn.boundaries'], `only the boundary checks report: ${JSON.stringify(codesOf(published))}`);
    assert.ok(hasUnknownBoundary(published));
    const onLocal = await client.connection.sendRequest(HoverRequest.type, { textDocument: textDocument(), position: positionOf('cap {', 1) });
    assert.equal(onLocal, null);
    assert.ok(await client.waitUntil(() => tokenRefreshes() > refreshesBefore), 'the editor is asked to fetch semantic tokens again');
    const tokens = await client.connection.sendRequest(SemanticTokensRequest.type, { textDocument: textDocument() });
    assert.deepEqual(tokens?.data ?? [], [], 'no semantic tokens');
  });

  test('a malformed notification is refused with a clear log line and changes nothing', async () => {
    const from = client.notifications.length;
    await client.connection.sendNotification('harn/languageFeatures', { enabled: 'yes' });
    const logged = await client.waitForNotification(
      'window/logMessage',
      (p) => (p as { message: string }).message.startsWith('harn/languageFeatures ignored'),
      10_000,
      from,
    );
    assert.match((logged as { message: string }).message, /expected \{ enabled: boolean, reason: string \} \(enabled\)/);
    const onLocal = await client.connection.sendRequest(HoverRequest.type, { textDocument: textDocument(), position: positionOf('cap {', 1) });
    assert.equal(onLocal, null, 'still off');
  });
});

describe('harn.languageFeatures: initializationOptions that are not a choice', () => {
  for (const [what, options, warning] of [
    ['absent', undefined, undefined],
    ['without languageFeatures', { other: 1 }, undefined],
    ['a string', 'off', /initializationOptions ignored.*expected an object, got string/],
    ['a malformed languageFeatures', { languageFeatures: { enabled: false } }, /initializationOptions\.languageFeatures ignored.*\(reason\)/],
  ] as const) {
    test(`${what}: our features stay on${warning ? ', with a warning' : ''}`, async () => {
      const { client, root, uri } = await startServer(options);
      try {
        const published = await client.waitForDiagnostics(uri, (p) => live(p) && hasSyntaxError(p));
        assert.ok(hasSyntaxError(published));
        const warnings = client.logMessages(2).filter((m) => /initializationOptions/.test(m));
        if (warning)
          assert.ok(
            warnings.some((m) => warning.test(m)),
            `a warning matching ${warning}: ${JSON.stringify(client.logMessages())}`,
          );
        else assert.deepEqual(warnings, []);
      } finally {
        await stopServer(client, root);
      }
    });
  }
});
