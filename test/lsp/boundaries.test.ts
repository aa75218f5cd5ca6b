// The loud-boundary features of the language server, driven over stdio on a temporary copy of
// examples/demo (a tree the gate passes): live `.harn` checks as you type, the gate on save and on
// watched-file changes with its findings on the right files, completion, hover, every code action
// applied to the text it was computed on (byte-for-byte on the registry and the funnel), and a broken
// registry.

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, afterEach, before, describe, test } from 'node:test';
import { isDeepStrictEqual } from 'node:util';
import {
  CodeAction,
  CodeActionRequest,
  CompletionItem,
  CompletionRequest,
  Diagnostic,
  DidChangeConfigurationNotification,
  FileChangeType,
  FileEvent,
  Hover,
  HoverRequest,
  MarkupContent,
  Position,
  PublishDiagnosticsParams,
  Range,
  TextEdit,
  WorkspaceEdit,
} from 'vscode-languageserver-protocol/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { URI } from 'vscode-uri';
import { defined } from '../support/assertions';
import { REPO_ROOT, TestClient } from '../support/lspClient';

const DEMO = path.join(REPO_ROOT, 'examples', 'demo');
const REGISTRY = 'scripts/loud_boundaries.toml';
const FUNNEL = 'crates/harn-vm/src/boundary.rs';
const RESPONSE = 'crates/harn-vm/src/llm/response.rs';
const CHAT = 'crates/harn-stdlib/src/stdlib/agent/chat.harn';
const CONFORMANCE = 'conformance/tests/boundary_events.harn';
/** A `.harn` file under the scanned globs that exists only in the editor (never saved). */
const NOTES = 'crates/harn-stdlib/src/stdlib/agent/notes.harn';
const ORIGINAL_REGISTRY = fs.readFileSync(path.join(DEMO, REGISTRY), 'utf8');
const ORIGINAL_FUNNEL = fs.readFileSync(path.join(DEMO, FUNNEL), 'utf8');

const SOURCE = 'harn.boundaries';

/** `text` with the single occurrence of `needle` replaced (fails when it occurs zero or several times). */
function replaceOnce(text: string, needle: string, replacement: string): string {
  const at = text.indexOf(needle);
  assert.ok(at >= 0, `${JSON.stringify(needle)} not found`);
  assert.equal(text.indexOf(needle, at + 1), -1, `${JSON.stringify(needle)} occurs twice`);
  return text.slice(0, at) + replacement + text.slice(at + needle.length);
}

/** Offset of the `occurrence`-th `needle` in `text`. */
function offsetOf(text: string, needle: string, occurrence = 0): number {
  let at = -1;
  for (let i = 0; i <= occurrence; i++) {
    at = text.indexOf(needle, at + 1);
    assert.ok(at >= 0, `${JSON.stringify(needle)} (#${occurrence}) not found`);
  }
  return at;
}

/** The LSP range of the `occurrence`-th `needle` in `text`. */
function rangeIn(text: string, needle: string, occurrence = 0): Range {
  const doc = TextDocument.create('file:///x', 'plaintext', 0, text);
  const at = offsetOf(text, needle, occurrence);
  return { start: doc.positionAt(at), end: doc.positionAt(at + needle.length) };
}

/** The position `delta` code units after the start of the `occurrence`-th `needle`. */
function positionIn(text: string, needle: string, delta = 0, occurrence = 0): Position {
  return TextDocument.create('file:///x', 'plaintext', 0, text).positionAt(offsetOf(text, needle, occurrence) + delta);
}

function applyTextEdits(text: string, edits: TextEdit[]): string {
  return TextDocument.applyEdits(TextDocument.create('file:///x', 'plaintext', 0, text), edits);
}

/** The text of a diagnostic, which must be there. */
const messageOf = (d: Diagnostic | undefined): string => {
  const { message } = defined(d, 'the diagnostic');
  return typeof message === 'string' ? message : message.value;
};
const codes = (p: PublishDiagnosticsParams | undefined): string[] => (p?.diagnostics ?? []).map((d) => String(d.code)).sort();
const has = (code: string) => (p: PublishDiagnosticsParams) => p.diagnostics.some((d) => d.code === code);
const lacks = (code: string) => (p: PublishDiagnosticsParams) => !p.diagnostics.some((d) => d.code === code);
const empty = (p: PublishDiagnosticsParams) => p.diagnostics.length === 0;

/** A document the test client holds open: its text follows each change it sends. */
class OpenDoc {
  private doc: TextDocument;

  constructor(
    private readonly client: TestClient,
    readonly uri: string,
    languageId: string,
    text: string,
    /** The client's publication mark just before it was opened. */
    readonly openedAt: number,
  ) {
    this.doc = TextDocument.create(uri, languageId, 1, text);
  }

  get text(): string {
    return this.doc.getText();
  }

  get version(): number {
    return this.doc.version;
  }

  /** Sends edits (LSP ranges in the current text) as incremental changes, last first, as an editor does. */
  async edit(edits: TextEdit[]): Promise<number> {
    const ordered = [...edits].sort((a, b) => this.doc.offsetAt(b.range.start) - this.doc.offsetAt(a.range.start));
    const version = await this.client.change(
      this.uri,
      ordered.map((e) => ({ range: e.range, text: e.newText })),
    );
    this.doc = TextDocument.update(
      this.doc,
      ordered.map((e) => ({ range: e.range, text: e.newText })),
      version,
    );
    assert.equal(this.doc.version, version);
    return version;
  }

  /** Replaces the `occurrence`-th `needle` by `replacement` with one incremental change. */
  replace(needle: string, replacement: string, occurrence = 0): Promise<number> {
    return this.edit([{ range: rangeIn(this.text, needle, occurrence), newText: replacement }]);
  }

  /** Replaces the whole text with one incremental change. */
  setText(text: string): Promise<number> {
    return this.edit([{ range: { start: { line: 0, character: 0 }, end: this.doc.positionAt(this.text.length) }, newText: text }]);
  }

  /** Types `typed` at the position `delta` code units after the start of `needle`. */
  type(needle: string, delta: number, typed: string): Promise<number> {
    const at = positionIn(this.text, needle, delta);
    return this.edit([{ range: { start: at, end: at }, newText: typed }]);
  }
}

/** A temporary copy of examples/demo with a language server started on it. */
class Demo {
  readonly docs = new Map<string, OpenDoc>();

  private constructor(
    readonly root: string,
    readonly client: TestClient,
  ) {}

  /** `prepare` may change the copy before the server starts. */
  static async start(prepare?: (root: string) => void, configuration?: Record<string, unknown>): Promise<Demo> {
    // A space in the root exercises URI encoding in links and paths.
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'harn boundaries-'));
    fs.cpSync(DEMO, root, { recursive: true });
    prepare?.(root);
    const client = new TestClient();
    // The gate alone: the demo's broken runs, checked by the workspace check, are workspaceScan.test.ts's.
    // A getter: a test changing `configuration.harn` later is read at each workspace/configuration request.
    const withScope = {
      get harn(): Record<string, unknown> {
        return { diagnostics: { scope: 'openFiles' }, ...(configuration?.harn as Record<string, unknown> | undefined) };
      },
    };
    await client.initialize(root, { configuration: withScope });
    await client.waitForNotification('harn/status', (p) => (p as { state?: string }).state === 'ready');
    return new Demo(root, client);
  }

  async stop(): Promise<void> {
    const errors = this.client.logMessages(1);
    try {
      await this.client.shutdown();
    } finally {
      fs.rmSync(this.root, { recursive: true, force: true });
    }
    assert.deepEqual(errors, [], 'the server logged errors');
  }

  /**
   * Back to the demo tree: closes every document, rewrites changed files and deletes added ones (telling
   * the server), waits for the gate, and checks that nothing is left published.
   */
  async restore(): Promise<void> {
    for (const doc of [...this.docs.values()]) await this.close(doc);
    const wanted = listFiles(DEMO);
    const changes: FileEvent[] = [];
    for (const rel of listFiles(this.root)) {
      if (wanted.has(rel)) continue;
      fs.rmSync(path.join(this.root, rel));
      changes.push({ uri: this.uri(rel), type: FileChangeType.Deleted });
    }
    for (const rel of wanted) {
      const text = fs.readFileSync(path.join(DEMO, rel), 'utf8');
      const file = path.join(this.root, rel);
      const existed = fs.existsSync(file);
      if (existed && fs.readFileSync(file, 'utf8') === text) continue;
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, text);
      changes.push({ uri: this.uri(rel), type: existed ? FileChangeType.Changed : FileChangeType.Created });
    }
    // One more gate run after everything (closing a document also re-runs it): what it publishes is final.
    changes.push({ uri: this.uri(REGISTRY), type: FileChangeType.Changed });
    const from = this.notificationMark();
    await this.client.filesChanged(changes);
    await this.gateRun(from);
    const left = () => this.client.allLatestDiagnostics().filter((p) => p.diagnostics.length > 0);
    if (!(await this.client.waitUntil(() => left().length === 0, 8000))) assert.deepEqual(left(), [], 'diagnostics left after restoring the demo tree');
  }

  uri(rel: string): string {
    return URI.file(path.join(this.root, rel)).toString();
  }

  read(rel: string): string {
    return fs.readFileSync(path.join(this.root, rel), 'utf8');
  }

  /** Writes a file and tells the server as the editor's file watcher would. */
  async write(rel: string, text: string): Promise<void> {
    const file = path.join(this.root, rel);
    const existed = fs.existsSync(file);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
    await this.client.filesChanged([{ uri: this.uri(rel), type: existed ? FileChangeType.Changed : FileChangeType.Created }]);
  }

  async remove(rel: string): Promise<void> {
    fs.rmSync(path.join(this.root, rel));
    await this.client.filesChanged([{ uri: this.uri(rel), type: FileChangeType.Deleted }]);
  }

  /** Opens a document with `text`, by default the file's text on disk. */
  async open(rel: string, text = this.read(rel), languageId = rel.endsWith('.harn') ? 'harn' : rel.endsWith('.rs') ? 'rust' : 'toml'): Promise<OpenDoc> {
    const openedAt = this.client.mark();
    const uri = await this.client.open(path.join(this.root, rel), text, languageId);
    const doc = new OpenDoc(this.client, uri, languageId, text, openedAt);
    this.docs.set(uri, doc);
    return doc;
  }

  async close(doc: OpenDoc): Promise<void> {
    this.docs.delete(doc.uri);
    await this.client.close(doc.uri);
  }

  /** Saves an open document: writes it, then didSave and the watcher's event, as the editor does. */
  async save(doc: OpenDoc): Promise<void> {
    fs.writeFileSync(URI.parse(doc.uri).fsPath, doc.text);
    await this.client.save(doc.uri);
    await this.client.filesChanged([{ uri: doc.uri, type: FileChangeType.Changed }]);
  }

  /** Waits for the latest publication for `rel` (or a URI) after `since` that satisfies `accept`. */
  diagnostics(target: string, accept: (p: PublishDiagnosticsParams) => boolean, since = 0): Promise<PublishDiagnosticsParams> {
    const uri = target.startsWith('file:') ? target : this.uri(target);
    return this.client.waitForDiagnostics(uri, accept, 8000, since);
  }

  /** The index of the next notification: pass it to `gateRun` to wait for a run after what follows. */
  notificationMark(): number {
    return this.client.notifications.length;
  }

  /** Waits for the gate to run after `from` (a publication only goes out for files whose findings change). */
  async gateRun(from: number): Promise<void> {
    await this.client.waitForNotification('window/logMessage', (p) => /^loud-boundary gate/.test((p as { message: string }).message), 8000, from);
  }

  /** Waits for the live diagnostics of `doc`'s current version (since it was opened) that satisfy `accept`. */
  live(doc: OpenDoc, accept: (p: PublishDiagnosticsParams) => boolean = () => true): Promise<PublishDiagnosticsParams> {
    return this.client.waitForDiagnostics(doc.uri, (p) => p.version === doc.version && accept(p), 8000, doc.openedAt);
  }

  async codeActions(target: string, diagnostics: Diagnostic[]): Promise<CodeAction[]> {
    const uri = target.startsWith('file:') ? target : this.uri(target);
    const result = await this.client.connection.sendRequest(CodeActionRequest.type, {
      textDocument: { uri },
      range: defined(diagnostics[0], 'a diagnostic').range,
      context: { diagnostics },
    });
    return (result ?? []).filter((a): a is CodeAction => 'title' in a && !('command' in a && typeof a.command === 'string'));
  }

  /** Applies a workspace edit as the editor does: open documents get didChange, other files are written. */
  async apply(edit: WorkspaceEdit | undefined): Promise<void> {
    assert.ok(edit?.changes, 'a code action without edits');
    for (const [uri, edits] of Object.entries(edit.changes)) {
      const open = this.docs.get(uri);
      if (open) await open.edit(edits);
      else {
        const rel = path.relative(this.root, URI.parse(uri).fsPath);
        await this.write(rel, applyTextEdits(this.read(rel), edits));
      }
    }
  }

  async hover(doc: OpenDoc, position: Position): Promise<Hover | null> {
    return this.client.connection.sendRequest(HoverRequest.type, { textDocument: { uri: doc.uri }, position });
  }

  async complete(doc: OpenDoc, position: Position): Promise<CompletionItem[]> {
    const result = await this.client.connection.sendRequest(CompletionRequest.type, { textDocument: { uri: doc.uri }, position });
    return Array.isArray(result) ? result : (result?.items ?? []);
  }
}

/** Root-relative paths (posix) of the files under `root`. */
function listFiles(root: string, rel = ''): Set<string> {
  const out = new Set<string>();
  for (const entry of fs.readdirSync(path.join(root, rel), { withFileTypes: true })) {
    const child = rel ? `${rel}/${entry.name}` : entry.name;
    if (entry.isDirectory()) for (const f of listFiles(root, child)) out.add(f);
    else out.add(child);
  }
  return out;
}

/** The edits of a single-file workspace edit for `uri`. */
function editsFor(edit: WorkspaceEdit | undefined, uri: string): TextEdit[] {
  assert.ok(edit?.changes, 'no edit');
  assert.deepEqual(Object.keys(edit.changes), [uri]);
  return defined(edit.changes[uri], `the edits of ${uri}`);
}

/** The edits of a workspace edit, by URI, checking that it edits exactly `uris`. */
function editsByUri(edit: WorkspaceEdit | undefined, uris: string[]): (uri: string) => TextEdit[] {
  assert.ok(edit?.changes, 'no edit');
  const { changes } = edit;
  assert.deepEqual(Object.keys(changes).sort(), [...uris].sort());
  return (uri) => defined(changes[uri], `the edits of ${uri}`);
}

function byTitle(actions: CodeAction[], title: string): CodeAction {
  const found = actions.filter((a) => a.title === title);
  assert.equal(found.length, 1, `expected one action titled ${JSON.stringify(title)}, got ${JSON.stringify(actions.map((a) => a.title))}`);
  return defined(found[0], `the action ${JSON.stringify(title)}`);
}

function only(p: PublishDiagnosticsParams, code: string): Diagnostic {
  const found = p.diagnostics.filter((d) => d.code === code);
  assert.equal(found.length, 1, `expected one ${code} in ${JSON.stringify(p.diagnostics)}`);
  return defined(found[0], `the ${code} diagnostic`);
}

const EMITTER = `// Notes on the chat loop (never saved).

pub fn report_cap(session_id: string, left: int) {
  agent_emit_event(session_id, "boundary_failure", {
    boundary: "chat_turn_cap",
    kind: "capped",
    detail: "cap reached with \${left} input(s) left",
  })
}
`;

const CAP_FN = `
/// Ends a conversation at the turn cap.
pub fn cap() -> BoundaryId {
    BoundaryId::ChatTurnCap
}
`;

/** The demo registry after "Register boundary 'chat_turn_capp'" from NOTES: a new last [[boundary]] table. */
const REGISTERED_CAPP = replaceOnce(
  ORIGINAL_REGISTRY,
  'test = "conformance/tests/boundary_events.harn"\n',
  'test = "conformance/tests/boundary_events.harn"\n' +
    '\n' +
    '[[boundary]]\n' +
    'id = "chat_turn_capp"\n' +
    'title = "TODO: describe this boundary"\n' +
    'drops = "TODO: describe what this boundary drops"\n' +
    'was_silent = true\n' +
    'event = "agent_event:boundary_failure"\n' +
    'anchors = ["crates/harn-stdlib/src/stdlib/agent/notes.harn"]\n',
);

/** The demo funnel after registering 'chat_turn_capp': a documented variant at the end of the enum, its `as_str` arm. */
const FUNNEL_CAPP = replaceOnce(
  replaceOnce(ORIGINAL_FUNNEL, '    ChatTurnCap,\n}', '    ChatTurnCap,\n    /// TODO: describe this boundary\n    ChatTurnCapp,\n}'),
  '            Self::ChatTurnCap => "chat_turn_cap",\n',
  '            Self::ChatTurnCap => "chat_turn_cap",\n            Self::ChatTurnCapp => "chat_turn_capp",\n',
);

const REGISTER_BOTH = "Register boundary 'chat_turn_capp' in scripts/loud_boundaries.toml and crates/harn-vm/src/boundary.rs";
const REGISTER_ONLY = "Register boundary 'chat_turn_capp' in the registry only";
const ADD_VARIANT = "Add BoundaryId::ChatTurnCapp for 'chat_turn_capp' to crates/harn-vm/src/boundary.rs";
const REMOVE_CAPP = "Remove the entry 'chat_turn_capp' from scripts/loud_boundaries.toml";

// ---------------------------------------------------------------------------------------------------

describe('boundary diagnostics over stdio', () => {
  let demo: Demo;
  before(async () => {
    demo = await Demo.start();
  });
  afterEach(async () => {
    await demo.restore();
  });
  after(async () => {
    await demo.stop();
  });

  test('the demo tree passes: the gate publishes nothing', () => {
    assert.match(demo.client.logMessages().join('\n'), /loud-boundary gate \(workspace opened\): 0 finding\(s\)/);
    for (const rel of [REGISTRY, FUNNEL, RESPONSE, CHAT]) assert.deepEqual(codes(demo.client.latestDiagnostics(demo.uri(rel))), []);
  });

  test('an unknown id is an error on its string as you type, with the closest id, without saving', async () => {
    const doc = await demo.open(NOTES, EMITTER);
    assert.deepEqual((await demo.live(doc)).diagnostics, []);
    await doc.type('"chat_turn_cap"', 14, 'p');
    const published = await demo.live(doc);
    assert.equal(published.diagnostics.length, 1, JSON.stringify(published.diagnostics));
    const d = defined(published.diagnostics[0], 'the diagnostic');
    assert.equal(d.source, SOURCE);
    assert.equal(d.code, 'unknown_boundary');
    assert.equal(d.severity, 1);
    assert.deepEqual(d.range, rangeIn(doc.text, '"chat_turn_capp"'));
    assert.match(messageOf(d), /chat_turn_capp/);
    assert.match(messageOf(d), /Did you mean `chat_turn_cap`\?/);
    assert.ok(!fs.existsSync(path.join(demo.root, NOTES)));
    // Deleting the typo clears it at once.
    await doc.replace('chat_turn_capp', 'chat_turn_cap');
    assert.deepEqual((await demo.live(doc)).diagnostics, []);
    await demo.close(doc);
  });

  test('payloads lacking kind/detail and an unknown kind are flagged, in both call forms', async () => {
    const text = `pub fn report(agent, s: string) {
  agent_emit_event(s, "boundary_failure", {boundary: "chat_turn_cap"})
  agent_emit_event(agent, s, "boundary_failure", {boundary: "chat_turn_cap", kind: "capped"})
  agent_emit_event(s, "boundary_failure", {boundary: "chat_turn_cap", kind: "lost", detail: "gone"})
  agent_emit_event(s, "progress", {boundary: "chat_turn_cap"})
}
`;
    const doc = await demo.open('crates/harn-stdlib/src/stdlib/agent/payload.harn', text);
    const published = await demo.live(doc, (p) => p.diagnostics.length > 0);
    const got = published.diagnostics.map((d) => ({ code: d.code, range: d.range, source: d.source }));
    assert.deepEqual(got, [
      { code: 'boundary_payload_incomplete', range: rangeIn(text, '{boundary: "chat_turn_cap"}'), source: SOURCE },
      { code: 'boundary_payload_incomplete', range: rangeIn(text, '{boundary: "chat_turn_cap", kind: "capped"}'), source: SOURCE },
      { code: 'invalid_boundary_kind', range: rangeIn(text, '"lost"'), source: SOURCE },
    ]);
    assert.match(messageOf(published.diagnostics[0]), /lacks `kind`, `detail`/);
    assert.match(messageOf(published.diagnostics[1]), /lacks `detail`/);
    assert.match(messageOf(published.diagnostics[2]), /`lost` is not a boundary failure kind/);
    await demo.close(doc);
  });

  test('saving a .rs file that constructs a boundary outside its anchors reports that token, and fixing it clears it', async () => {
    const doc = await demo.open(RESPONSE);
    const original = doc.text;
    await doc.edit([{ range: rangeIn(doc.text, '(text, failure)\n}\n'), newText: `(text, failure)\n}\n${CAP_FN}` }]);
    let mark = demo.client.mark();
    await demo.save(doc);
    const published = await demo.diagnostics(RESPONSE, has('unregistered_site'), mark);
    assert.equal(published.diagnostics.length, 1, JSON.stringify(published.diagnostics));
    const d = only(published, 'unregistered_site');
    assert.equal(d.source, SOURCE);
    assert.equal(d.severity, 1);
    // The construction, not the mention inside a string literal earlier in the file.
    assert.deepEqual(d.range, rangeIn(doc.text, 'ChatTurnCap', 1));
    assert.match(messageOf(d), /^chat_turn_cap: constructs `chat_turn_cap` but is not one of its registered anchors/);
    // Nothing lands on the registry, the funnel or the boundary's anchor.
    for (const rel of [REGISTRY, FUNNEL, CHAT]) assert.deepEqual(codes(demo.client.latestDiagnostics(demo.uri(rel))), []);

    await doc.setText(original);
    mark = demo.client.mark();
    await demo.save(doc);
    assert.deepEqual((await demo.diagnostics(RESPONSE, empty, mark)).diagnostics, []);
    await demo.close(doc);
  });

  test('deleting a registered anchor reports missing_anchor on its string in the registry; restoring it clears it', async () => {
    const text = demo.read(RESPONSE);
    let mark = demo.client.mark();
    await demo.remove(RESPONSE);
    let published = await demo.diagnostics(REGISTRY, has('missing_anchor'), mark);
    assert.deepEqual(codes(published), ['missing_anchor', 'stale_entry']);
    const missing = only(published, 'missing_anchor');
    assert.deepEqual(missing.range, rangeIn(ORIGINAL_REGISTRY, `"${RESPONSE}"`));
    assert.equal(missing.source, SOURCE);
    assert.match(messageOf(missing), /^response_content_extraction: anchor file does not exist/);
    assert.deepEqual(only(published, 'stale_entry').range, rangeIn(ORIGINAL_REGISTRY, '"response_content_extraction"'));

    mark = demo.client.mark();
    await demo.write(RESPONSE, text);
    published = await demo.diagnostics(REGISTRY, empty, mark);
    assert.deepEqual(published.diagnostics, []);
  });

  test('an anchor deleted while open in an editor is missing too', async () => {
    const doc = await demo.open(RESPONSE);
    let mark = demo.client.mark();
    await demo.remove(RESPONSE);
    await demo.diagnostics(REGISTRY, has('missing_anchor'), mark);
    // Saving it again brings it back.
    mark = demo.client.mark();
    await demo.save(doc);
    await demo.client.filesChanged([{ uri: doc.uri, type: FileChangeType.Created }]);
    assert.deepEqual((await demo.diagnostics(REGISTRY, empty, mark)).diagnostics, []);
    await demo.close(doc);
  });

  test("the gate's findings on an open .harn document describe the text of the version they are published with, and come back on save", async () => {
    const rel = 'crates/harn-stdlib/src/stop.harn';
    const site = (indent: string): string => `${indent}agent_emit_event(s, "boundary_failure", {boundary: "chat_turn_cap", kind: "capped", detail: "x"})`;
    // On disk the site is on the second line; the editor opens other (unsaved) text, with it on the fourth line,
    // then an edit moves it up and leaves a short line where it was.
    const onDisk = `pub fn stop(s: string) {\n${site('  ')}\n}\n`;
    const opened = `// Stops.\npub fn stop(s: string) {\n  if true {\n${site('    ')}\n  }\n}\n`;
    const edited = `// Stops.\n${site('')}\n}\n}\n`;
    const siteIn = (text: string): Range => rangeIn(text, '"chat_turn_cap"');
    const atSite = (text: string) => (p: PublishDiagnosticsParams) =>
      p.diagnostics.some((d) => d.code === 'unregistered_site' && isDeepStrictEqual(d.range, siteIn(text)));

    let mark = demo.client.mark();
    await demo.write(rel, onDisk);
    const closed = await demo.diagnostics(rel, has('unregistered_site'), mark);
    assert.deepEqual(only(closed, 'unregistered_site').range, siteIn(onDisk));
    assert.match(messageOf(only(closed, 'unregistered_site')), /^chat_turn_cap: constructs `chat_turn_cap` but is not one of its registered anchors/);

    const doc = await demo.open(rel, opened);
    const texts = new Map([[doc.version, doc.text]]);
    const noSite = (p: PublishDiagnosticsParams): boolean => !p.diagnostics.some((d) => d.code === 'unregistered_site');
    // The gate read the file on disk: its finding is not shown on other text (it would point elsewhere) ...
    await demo.live(doc, noSite);
    texts.set(await doc.setText(edited), edited);
    await demo.live(doc, noSite);
    // ... and comes back, on the site of the text saved, when the file changes on disk.
    mark = demo.client.mark();
    await demo.save(doc);
    await demo.live(doc, atSite(edited));

    const publications = demo.client.publicationsSince(doc.uri, doc.openedAt);
    assert.ok(publications.length >= 3, JSON.stringify(publications));
    for (const p of publications) {
      if (p.diagnostics.some((d) => d.code === 'unregistered_site'))
        assert.notEqual(p.version, undefined, `a gate finding published without a version: ${JSON.stringify(p)}`);
      if (p.version === undefined || p.version === null) continue;
      const text = defined(texts.get(p.version), `the text of version ${p.version}`);
      const lines = text.split('\n');
      for (const d of p.diagnostics) {
        for (const end of [d.range.start, d.range.end]) {
          const line = lines[end.line];
          assert.ok(
            line !== undefined && end.character <= line.length,
            `version ${p.version}: ${String(d.code)} at ${JSON.stringify(d.range)} is outside its text`,
          );
        }
        if (d.code === 'unregistered_site') assert.deepEqual(d.range, siteIn(text), `version ${p.version}: the finding is not on the site of its text`);
      }
    }
    assert.ok(
      demo.client.publicationsSince(doc.uri, mark).every((p) => p.version === 2),
      'every publication after the edit is of its version',
    );
  });

  test('findings land on their files across the workspace, and a .harn file is reported once whether open or not', async () => {
    const funnel = demo.read(FUNNEL);
    const newFunnel = replaceOnce(
      replaceOnce(funnel, '    ChatTurnCap,\n}', '    ChatTurnCap,\n    /// Tool-call argument parsing.\n    ToolArgParse,\n}'),
      '            Self::ChatTurnCap => "chat_turn_cap",\n',
      '            Self::ChatTurnCap => "chat_turn_cap",\n            Self::ToolArgParse => "tool_arg_parse",\n',
    );
    const tools = 'use crate::boundary::BoundaryId;\n\npub fn parse_args() -> BoundaryId {\n    BoundaryId::ToolArgParse\n}\n';
    const typo = 'pub fn stop(s: string) {\n  agent_emit_event(s, "boundary_failure", {boundary: "chat_turn_capp", kind: "capped", detail: "x"})\n}\n';
    const mark = demo.client.mark();
    await demo.write(FUNNEL, newFunnel);
    await demo.write('crates/harn-vm/src/tools.rs', tools);
    await demo.write('crates/harn-stdlib/src/typo.harn', typo);

    const onFunnel = await demo.diagnostics(FUNNEL, has('unregistered_boundary'), mark);
    assert.deepEqual(codes(onFunnel), ['unregistered_boundary']);
    // On the enum variant (its first mention), where the boundary is declared.
    assert.deepEqual(onFunnel.diagnostics[0]?.range, rangeIn(newFunnel, 'ToolArgParse', 0));
    assert.match(messageOf(onFunnel.diagnostics[0]), /^tool_arg_parse: BoundaryId::ToolArgParse has no \[\[boundary\]\] entry/);
    const onTools = await demo.diagnostics('crates/harn-vm/src/tools.rs', has('unknown_boundary'), mark);
    assert.deepEqual(codes(onTools), ['unknown_boundary']);
    assert.deepEqual(onTools.diagnostics[0]?.range, rangeIn(tools, 'ToolArgParse'));
    const onTypo = await demo.diagnostics('crates/harn-stdlib/src/typo.harn', has('unknown_boundary'), mark);
    assert.deepEqual(codes(onTypo), ['unknown_boundary']);
    assert.deepEqual(onTypo.diagnostics[0]?.range, rangeIn(typo, '"chat_turn_capp"'));
    for (const rel of [REGISTRY, RESPONSE, CHAT]) assert.deepEqual(codes(demo.client.latestDiagnostics(demo.uri(rel))), []);

    // Opened, the live check follows it instead of the gate: still one diagnostic.
    const doc = await demo.open('crates/harn-stdlib/src/typo.harn');
    const live = await demo.live(doc);
    assert.deepEqual(codes(live), ['unknown_boundary']);
    assert.match(messageOf(live.diagnostics[0]), /Did you mean `chat_turn_cap`\?/);
    // An unsaved fix, then closing without saving: the file on disk is reported again.
    await doc.replace('chat_turn_capp', 'chat_turn_cap');
    await demo.live(doc, (p) => p.diagnostics.length === 0);
    let since = demo.client.mark();
    await demo.close(doc);
    assert.deepEqual(codes(await demo.diagnostics(doc.uri, has('unknown_boundary'), since)), ['unknown_boundary']);

    since = demo.client.mark();
    await demo.write(FUNNEL, funnel);
    await demo.remove('crates/harn-vm/src/tools.rs');
    await demo.remove('crates/harn-stdlib/src/typo.harn');
    for (const rel of [FUNNEL, 'crates/harn-vm/src/tools.rs', 'crates/harn-stdlib/src/typo.harn']) {
      assert.deepEqual((await demo.diagnostics(rel, empty, since)).diagnostics, []);
    }
  });
});

// ---------------------------------------------------------------------------------------------------

describe('boundary completion and hover over stdio', () => {
  let demo: Demo;
  before(async () => {
    demo = await Demo.start();
  });
  after(async () => {
    await demo.stop();
  });

  const EMPTY_FIELDS = 'pub fn report(s: string) {\n  agent_emit_event(s, "boundary_failure", {boundary: "", kind: "", detail: "x"})\n}\n';

  test('inside boundary: "|" the registered ids, with title, drops and a textEdit on the string content', async () => {
    const doc = await demo.open('crates/harn-stdlib/src/emit.harn', EMPTY_FIELDS);
    const items = await demo.complete(doc, positionIn(doc.text, 'boundary: "', 11));
    const inside = { start: positionIn(doc.text, 'boundary: "', 11), end: positionIn(doc.text, 'boundary: "', 11) };
    assert.deepEqual(
      items.map((i) => ({ label: i.label, detail: i.detail, documentation: i.documentation, textEdit: i.textEdit })),
      [
        {
          label: 'response_content_extraction',
          detail: 'Provider response ingestion',
          documentation: { kind: 'markdown', value: 'Drops: Content blocks the runtime has no handler for.' },
          textEdit: { range: inside, newText: 'response_content_extraction' },
        },
        {
          label: 'chat_turn_cap',
          detail: 'Chat loop turn cap',
          documentation: { kind: 'markdown', value: 'Drops: The rest of a conversation when max_turns ends it.' },
          textEdit: { range: inside, newText: 'chat_turn_cap' },
        },
      ],
    );

    // Partly typed: the whole content is replaced, wherever the cursor is in it.
    await doc.type('boundary: "', 11, 'chat_t');
    const content = rangeIn(doc.text, 'chat_t');
    for (const delta of [0, 3, 6]) {
      const typed = await demo.complete(doc, positionIn(doc.text, 'chat_t', delta));
      assert.deepEqual(
        typed.map((i) => i.textEdit),
        [
          { range: content, newText: 'response_content_extraction' },
          { range: content, newText: 'chat_turn_cap' },
        ],
      );
    }
    // Outside the string: the ordinary Harn completion.
    const outside = await demo.complete(doc, positionIn(doc.text, 'agent_emit_event', 3));
    assert.ok(outside.some((i) => i.label === 'agent_emit_event'));
    assert.ok(!outside.some((i) => i.label === 'chat_turn_cap'));
    await demo.close(doc);
  });

  test('inside kind: "|" the five kinds with their owner', async () => {
    const doc = await demo.open('crates/harn-stdlib/src/emit.harn', EMPTY_FIELDS);
    const at = positionIn(doc.text, 'kind: "', 7);
    const items = await demo.complete(doc, at);
    assert.deepEqual(
      items.map((i) => [i.label, i.detail]),
      [
        ['dropped', 'owner: harness'],
        ['unrecognized', 'owner: harness'],
        ['truncated', 'owner: harness'],
        ['killed', 'owner: harness'],
        ['capped', 'owner: policy'],
      ],
    );
    for (const item of items) assert.deepEqual(item.textEdit, { range: { start: at, end: at }, newText: item.label });
    await demo.close(doc);
  });

  test('in an unterminated string while typing, and in a raw string', async () => {
    const doc = await demo.open('crates/harn-stdlib/src/emit.harn', 'pub fn report(s: string) {\n  \n}\n');
    await doc.type('{\n  ', 4, 'agent_emit_event(s, "boundary_failure", {boundary: "ch');
    const end = positionIn(doc.text, '"ch', 3);
    const ids = await demo.complete(doc, end);
    assert.deepEqual(
      ids.map((i) => i.label),
      ['response_content_extraction', 'chat_turn_cap'],
    );
    assert.deepEqual(ids[1]?.textEdit, { range: { start: positionIn(doc.text, '"ch', 1), end }, newText: 'chat_turn_cap' });

    await doc.type('"ch', 3, 'at_turn_cap", kind: "');
    const kinds = await demo.complete(doc, positionIn(doc.text, 'kind: "', 7));
    assert.deepEqual(
      kinds.map((i) => i.label),
      ['dropped', 'unrecognized', 'truncated', 'killed', 'capped'],
    );
    await demo.close(doc);

    const raw = await demo.open('crates/harn-stdlib/src/raw.harn', 'pub fn report(s: string) {\n  let payload = {boundary: r"ch"}\n}\n');
    const items = await demo.complete(raw, positionIn(raw.text, 'ch"', 2));
    assert.deepEqual(items[1]?.textEdit, { range: rangeIn(raw.text, 'ch"}'.slice(0, 2)), newText: 'chat_turn_cap' });
    await demo.close(raw);
  });

  /** The hover for chat_turn_cap, with links to the files. */
  function assertChatTurnCapHover(hover: Hover | null, range: Range): void {
    assert.ok(hover, 'no hover');
    const value = (hover.contents as MarkupContent).value;
    assert.equal((hover.contents as MarkupContent).kind, 'markdown');
    const lines = value.split('\n\n');
    assert.equal(lines[0], '**chat_turn_cap** — Chat loop turn cap');
    assert.ok(lines.includes('Drops: The rest of a conversation when max_turns ends it.'), value);
    assert.ok(lines.includes(`Anchors: [${CHAT}](${demo.uri(CHAT)})`), value);
    assert.ok(lines.includes(`Test: [${CONFORMANCE}](${demo.uri(CONFORMANCE)})`), value);
    assert.match(demo.uri(CHAT), /^file:\/\/\/.*harn%20boundaries-/);
    assert.deepEqual(hover.range, range);
  }

  test('hover on an id in .harn: a string, and a constant naming one', async () => {
    const doc = await demo.open(NOTES, EMITTER);
    assertChatTurnCapHover(await demo.hover(doc, positionIn(doc.text, '"chat_turn_cap"', 5)), rangeIn(doc.text, '"chat_turn_cap"'));
    await demo.close(doc);
    const chat = await demo.open(CHAT);
    assertChatTurnCapHover(await demo.hover(chat, positionIn(chat.text, 'boundary: CHAT_TURN_CAP', 12)), rangeIn(chat.text, 'CHAT_TURN_CAP', 1));
    // Elsewhere the Harn hover answers.
    const builtin = await demo.hover(chat, positionIn(chat.text, 'agent_emit_event', 2));
    assert.match((builtin?.contents as MarkupContent).value, /fn agent_emit_event\(/);
    await demo.close(chat);
  });

  test('hover on BoundaryId::X in a .rs file, and on the funnel arms and variants', async () => {
    const rs = await demo.open(RESPONSE);
    const hover = await demo.hover(rs, positionIn(rs.text, 'ResponseContentExtraction', 4));
    assert.match((hover?.contents as MarkupContent).value, /^\*\*response_content_extraction\*\* — Provider response ingestion/);
    assert.ok((hover?.contents as MarkupContent).value.includes(`Anchors: [${RESPONSE}](${demo.uri(RESPONSE)})`));
    assert.deepEqual(hover?.range, rangeIn(rs.text, 'ResponseContentExtraction'));
    // A mention inside a string literal is no boundary.
    assert.equal(await demo.hover(rs, positionIn(rs.text, 'ChatTurnCap', 3)), null);
    await demo.close(rs);

    const funnel = await demo.open(FUNNEL);
    assertChatTurnCapHover(await demo.hover(funnel, positionIn(funnel.text, '"chat_turn_cap"', 3)), rangeIn(funnel.text, '"chat_turn_cap"'));
    const onVariant = await demo.hover(funnel, positionIn(funnel.text, 'ChatTurnCap,', 2));
    assert.match((onVariant?.contents as MarkupContent | undefined)?.value ?? '', /^\*\*chat_turn_cap\*\*/);
    // Edited, not saved: the hover follows the text in the editor.
    await funnel.type('//!', 0, '// A new first line.\n');
    assertChatTurnCapHover(await demo.hover(funnel, positionIn(funnel.text, '"chat_turn_cap"', 3)), rangeIn(funnel.text, '"chat_turn_cap"'));
    await demo.close(funnel);
  });

  test('hover on the id value in the registry', async () => {
    const toml = await demo.open(REGISTRY);
    assertChatTurnCapHover(await demo.hover(toml, positionIn(toml.text, 'id = "chat_turn_cap"', 8)), rangeIn(toml.text, '"chat_turn_cap"'));
    const audited = await demo.hover(toml, positionIn(toml.text, '"agent_loop_budget"', 3));
    assert.match((audited?.contents as MarkupContent).value, /^\*\*agent_loop_budget\*\* — audited boundary: Agent-loop iteration cap/);
    // Edited, not saved, and asked at once: the ranges are those of the text in the editor.
    await toml.type('# Loud-boundary', 0, '# An extra comment line.\n');
    assertChatTurnCapHover(await demo.hover(toml, positionIn(toml.text, 'id = "chat_turn_cap"', 8)), rangeIn(toml.text, '"chat_turn_cap"'));
    assert.equal(await demo.hover(toml, positionIn(toml.text, 'title', 1)), null);
    await demo.close(toml);
  });
});

// ---------------------------------------------------------------------------------------------------

describe('boundary code actions over stdio', () => {
  let demo: Demo;
  before(async () => {
    demo = await Demo.start();
  });
  afterEach(async () => {
    await demo.restore();
  });
  after(async () => {
    await demo.stop();
  });

  test('unknown id: "Register boundary" adds the [[boundary]] entry and the BoundaryId variant in one edit; the gate then asks only for a test', async () => {
    // Saved (a new file), so that the new entry's anchor exists and constructs the boundary.
    const doc = await demo.open(NOTES, EMITTER.replace('"chat_turn_cap"', '"chat_turn_capp"'));
    await demo.save(doc);
    await demo.client.filesChanged([{ uri: doc.uri, type: FileChangeType.Created }]);
    const diagnostic = only(await demo.live(doc), 'unknown_boundary');
    const actions = await demo.codeActions(doc.uri, [diagnostic]);
    assert.deepEqual(
      actions.map((a) => [a.title, a.isPreferred ?? false]),
      [
        ["Change to 'chat_turn_cap'", true],
        [REGISTER_BOTH, false],
        [REGISTER_ONLY, false],
      ],
    );
    for (const a of actions) assert.deepEqual(a.diagnostics, [diagnostic]);

    // One WorkspaceEdit, two files: the entry after the last [[boundary]], the variant (+ as_str arm) in the funnel.
    const register = byTitle(actions, REGISTER_BOTH);
    const editsOf = editsByUri(register.edit, [demo.uri(REGISTRY), demo.uri(FUNNEL)]);
    assert.equal(applyTextEdits(ORIGINAL_REGISTRY, editsOf(demo.uri(REGISTRY))), REGISTERED_CAPP);
    assert.equal(applyTextEdits(ORIGINAL_FUNNEL, editsOf(demo.uri(FUNNEL))), FUNNEL_CAPP);
    // The registry-only variant edits the registry alike, and nothing else.
    assert.deepEqual(editsFor(byTitle(actions, REGISTER_ONLY).edit, demo.uri(REGISTRY)), editsOf(demo.uri(REGISTRY)));

    const mark = demo.client.mark();
    await demo.apply(register.edit);
    assert.equal(demo.read(REGISTRY), REGISTERED_CAPP);
    assert.equal(demo.read(FUNNEL), FUNNEL_CAPP);
    await demo.diagnostics(doc.uri, lacks('unknown_boundary'), mark);
    // The gate: no orphan, no unregistered variant, no stale entry; only the new entry's missing test.
    const onRegistry = await demo.diagnostics(REGISTRY, (p) => codes(p).join() === 'no_test', mark);
    assert.match(messageOf(onRegistry.diagnostics[0]), /^chat_turn_capp: entry declares no `test`/);
    const published = demo.client.allLatestDiagnostics().filter((p) => p.diagnostics.length > 0);
    assert.deepEqual(
      published.map((p) => [p.uri, codes(p)]),
      [[demo.uri(REGISTRY), ['no_test']]],
    );
    assert.deepEqual(await demo.codeActions(doc.uri, [diagnostic]), []);
  });

  test('unknown id: "Change to" edits the string, "in the registry only" adds an entry (an orphan); applied, neither is offered again', async () => {
    const doc = await demo.open(NOTES, EMITTER);
    await doc.type('"chat_turn_cap"', 14, 'p');
    const diagnostic = only(await demo.live(doc), 'unknown_boundary');
    const actions = await demo.codeActions(doc.uri, [diagnostic]);
    assert.deepEqual(
      actions.map((a) => a.title),
      ["Change to 'chat_turn_cap'", REGISTER_BOTH, REGISTER_ONLY],
    );

    // Register in the registry only: a new [[boundary]] after the last one, this file as its anchor.
    const register = byTitle(actions, REGISTER_ONLY);
    assert.equal(applyTextEdits(ORIGINAL_REGISTRY, editsFor(register.edit, demo.uri(REGISTRY))), REGISTERED_CAPP);
    let mark = demo.client.mark();
    await demo.apply(register.edit);
    assert.equal(demo.read(REGISTRY), REGISTERED_CAPP);
    assert.equal(demo.read(FUNNEL), ORIGINAL_FUNNEL);
    // The live check follows the registry.
    await demo.diagnostics(doc.uri, lacks('unknown_boundary'), mark);
    const onRegistry = await demo.diagnostics(REGISTRY, has('orphan_entry'), mark);
    assert.deepEqual(codes(onRegistry), ['missing_anchor', 'no_test', 'orphan_entry', 'stale_entry']);
    assert.deepEqual(await demo.codeActions(doc.uri, [diagnostic]), []);

    // Remove the entry (orphan and stale: one action for both) gives back the registry byte for byte. Nothing
    // reports the id (the file is not saved), so removing is preferred to adding the variant.
    const entryDiagnostics = onRegistry.diagnostics.filter((d) => d.code === 'orphan_entry' || d.code === 'stale_entry');
    assert.equal(entryDiagnostics.length, 2);
    const fixes = await demo.codeActions(REGISTRY, entryDiagnostics);
    assert.deepEqual(
      fixes.map((a) => [a.title, a.isPreferred ?? false]),
      [
        [ADD_VARIANT, false],
        [REMOVE_CAPP, true],
      ],
    );
    const removal = byTitle(fixes, REMOVE_CAPP);
    assert.equal(removal.diagnostics?.length, 2);
    assert.equal(applyTextEdits(REGISTERED_CAPP, editsFor(removal.edit, demo.uri(REGISTRY))), ORIGINAL_REGISTRY);
    mark = demo.client.mark();
    await demo.apply(removal.edit);
    assert.equal(demo.read(REGISTRY), ORIGINAL_REGISTRY);
    assert.deepEqual((await demo.diagnostics(REGISTRY, empty, mark)).diagnostics, []);
    assert.deepEqual(await demo.codeActions(REGISTRY, entryDiagnostics), []);
    const again = only(await demo.diagnostics(doc.uri, has('unknown_boundary'), mark), 'unknown_boundary');
    assert.deepEqual(again.range, diagnostic.range);

    // Change to the closest id: edits the string in the open document.
    const change = byTitle(await demo.codeActions(doc.uri, [again]), "Change to 'chat_turn_cap'");
    const edits = editsFor(change.edit, doc.uri);
    assert.equal(applyTextEdits(doc.text, edits), EMITTER);
    await demo.apply(change.edit);
    assert.equal(doc.text, EMITTER);
    assert.deepEqual((await demo.live(doc)).diagnostics, []);
    assert.deepEqual(await demo.codeActions(doc.uri, [again]), []);
    await demo.close(doc);
  });

  test('a CRLF registry and a CRLF funnel keep their line endings', async () => {
    const crlf = ORIGINAL_REGISTRY.replace(/\n/g, '\r\n');
    const crlfFunnel = ORIGINAL_FUNNEL.replace(/\n/g, '\r\n');
    let mark = demo.client.mark();
    await demo.write(REGISTRY, crlf);
    await demo.write(FUNNEL, crlfFunnel);
    const doc = await demo.open(NOTES, EMITTER.replace('"chat_turn_cap"', '"chat_turn_capp"'));
    const diagnostic = only(await demo.diagnostics(doc.uri, has('unknown_boundary'), mark), 'unknown_boundary');
    const register = byTitle(await demo.codeActions(doc.uri, [diagnostic]), REGISTER_BOTH);
    const editsOf = editsByUri(register.edit, [demo.uri(REGISTRY), demo.uri(FUNNEL)]);
    assert.equal(applyTextEdits(crlf, editsOf(demo.uri(REGISTRY))), REGISTERED_CAPP.replace(/\n/g, '\r\n'));
    assert.equal(applyTextEdits(crlfFunnel, editsOf(demo.uri(FUNNEL))), FUNNEL_CAPP.replace(/\n/g, '\r\n'));
    mark = demo.client.mark();
    await demo.apply(register.edit);
    await demo.diagnostics(doc.uri, lacks('unknown_boundary'), mark);
    // Not saved, so its anchor is missing and nothing constructs it; but the variant is there. The server
    // publishes only the state after the whole two-file edit: never a transient orphan_entry in between.
    const final = ['missing_anchor', 'no_test', 'stale_entry'];
    await demo.diagnostics(REGISTRY, (p) => codes(p).join() === final.join(), mark);
    const states = new Set(demo.client.publicationsSince(demo.uri(REGISTRY), mark).map((p) => codes(p).join(' ')));
    assert.deepEqual([...states], [final.join(' ')]);
  });

  test('a two-file fix whose files arrive 300 ms apart: only the state after the whole edit is published', async () => {
    let mark = demo.client.mark();
    const doc = await demo.open(NOTES, EMITTER.replace('"chat_turn_cap"', '"chat_turn_capp"'));
    const diagnostic = only(await demo.diagnostics(doc.uri, has('unknown_boundary'), mark), 'unknown_boundary');
    const register = byTitle(await demo.codeActions(doc.uri, [diagnostic]), REGISTER_BOTH);
    const editsOf = editsByUri(register.edit, [demo.uri(REGISTRY), demo.uri(FUNNEL)]);
    mark = demo.client.mark();
    await demo.write(REGISTRY, applyTextEdits(demo.read(REGISTRY), editsOf(demo.uri(REGISTRY))));
    // Six times the gate's debounce: without holding, the registry alone would be checked (orphan_entry).
    await new Promise((resolve) => setTimeout(resolve, 300));
    await demo.write(FUNNEL, applyTextEdits(demo.read(FUNNEL), editsOf(demo.uri(FUNNEL))));
    const final = ['missing_anchor', 'no_test', 'stale_entry'];
    await demo.diagnostics(REGISTRY, (p) => codes(p).join() === final.join(), mark);
    const states = new Set(demo.client.publicationsSince(demo.uri(REGISTRY), mark).map((p) => codes(p).join(' ')));
    assert.deepEqual([...states], [final.join(' ')]);
    assert.ok(demo.client.logMessages().some((m) => m.startsWith('loud-boundary gate: waiting for the rest of a multi-file fix')));
  });

  test('orphan_entry: "Add BoundaryId::X" adds the variant to the funnel open in the editor; the gate follows it unsaved', async () => {
    const doc = await demo.open(NOTES, EMITTER.replace('"chat_turn_cap"', '"chat_turn_capp"'));
    await demo.save(doc);
    await demo.client.filesChanged([{ uri: doc.uri, type: FileChangeType.Created }]);
    let mark = demo.client.mark();
    await demo.write(REGISTRY, REGISTERED_CAPP);
    const onRegistry = await demo.diagnostics(REGISTRY, has('orphan_entry'), mark);
    assert.deepEqual(codes(onRegistry), ['no_test', 'orphan_entry']);
    const orphan = only(onRegistry, 'orphan_entry');
    assert.deepEqual(orphan.range, rangeIn(REGISTERED_CAPP, '"chat_turn_capp"'));

    const funnel = await demo.open(FUNNEL);
    const actions = await demo.codeActions(REGISTRY, [orphan]);
    // Something reports the id: adding the variant is preferred to removing the entry.
    assert.deepEqual(
      actions.map((a) => [a.title, a.isPreferred ?? false]),
      [
        [ADD_VARIANT, true],
        [REMOVE_CAPP, false],
      ],
    );
    const add = byTitle(actions, ADD_VARIANT);
    assert.deepEqual(add.diagnostics, [orphan]);
    // The funnel only; the doc line is the entry's title.
    assert.equal(applyTextEdits(funnel.text, editsFor(add.edit, funnel.uri)), FUNNEL_CAPP);
    mark = demo.client.mark();
    await demo.apply(add.edit);
    assert.equal(funnel.text, FUNNEL_CAPP);
    assert.equal(demo.read(FUNNEL), ORIGINAL_FUNNEL);
    assert.deepEqual(codes(await demo.diagnostics(REGISTRY, lacks('orphan_entry'), mark)), ['no_test']);
    assert.deepEqual(await demo.codeActions(REGISTRY, [orphan]), []);

    // Closed unsaved, the funnel is read from disk again: the entry is an orphan again.
    mark = demo.client.mark();
    await demo.close(funnel);
    assert.deepEqual(codes(await demo.diagnostics(REGISTRY, has('orphan_entry'), mark)), ['no_test', 'orphan_entry']);
  });

  test('an empty id while typing is not reported (completion offers the ids there)', async () => {
    const doc = await demo.open(NOTES, EMITTER.replace('"chat_turn_cap"', '""'));
    const published = await demo.live(doc, () => true);
    assert.deepEqual(
      codes(published).filter((c) => c === 'unknown_boundary'),
      [],
    );
  });

  test('unregistered_site: "Add <file> to the anchors", applied in the open registry, clears the site', async () => {
    const rs = await demo.open(RESPONSE);
    const original = rs.text;
    const withCap = original + CAP_FN;
    await rs.setText(withCap);
    let mark = demo.client.mark();
    await demo.save(rs);
    const site = only(await demo.diagnostics(RESPONSE, has('unregistered_site'), mark), 'unregistered_site');

    const toml = await demo.open(REGISTRY);
    const actions = await demo.codeActions(rs.uri, [site]);
    const add = byTitle(actions, "Add crates/harn-vm/src/llm/response.rs to the anchors of 'chat_turn_cap'");
    assert.equal(add.isPreferred, true);
    const expected = replaceOnce(
      ORIGINAL_REGISTRY,
      'anchors = ["crates/harn-stdlib/src/stdlib/agent/chat.harn"]\ntest',
      'anchors = ["crates/harn-stdlib/src/stdlib/agent/chat.harn", "crates/harn-vm/src/llm/response.rs"]\ntest',
    );
    assert.equal(applyTextEdits(toml.text, editsFor(add.edit, toml.uri)), expected);
    mark = demo.client.mark();
    await demo.apply(add.edit);
    assert.equal(toml.text, expected);
    // Unsaved in the editor, and already followed by the gate.
    assert.equal(demo.read(REGISTRY), ORIGINAL_REGISTRY);
    assert.deepEqual((await demo.diagnostics(RESPONSE, empty, mark)).diagnostics, []);
    assert.deepEqual(await demo.codeActions(rs.uri, [site]), []);
    // Closed unsaved, the registry is read from disk again: the site is unregistered again.
    mark = demo.client.mark();
    await demo.close(toml);
    assert.deepEqual(codes(await demo.diagnostics(RESPONSE, has('unregistered_site'), mark)), ['unregistered_site']);
  });

  test('missing_anchor: "Remove the missing anchor"; stale_entry: "Remove the entry"', async () => {
    const response = demo.read(RESPONSE);
    let mark = demo.client.mark();
    await demo.remove(RESPONSE);
    const first = await demo.diagnostics(REGISTRY, has('missing_anchor'), mark);
    const missing = only(first, 'missing_anchor');
    const actions = await demo.codeActions(REGISTRY, [missing]);
    const removeAnchor = byTitle(actions, "Remove the missing anchor crates/harn-vm/src/llm/response.rs from 'response_content_extraction'");
    const noAnchor = replaceOnce(ORIGINAL_REGISTRY, 'anchors = ["crates/harn-vm/src/llm/response.rs"]', 'anchors = []');
    assert.equal(applyTextEdits(ORIGINAL_REGISTRY, editsFor(removeAnchor.edit, demo.uri(REGISTRY))), noAnchor);
    mark = demo.client.mark();
    await demo.apply(removeAnchor.edit);
    const second = await demo.diagnostics(REGISTRY, lacks('missing_anchor'), mark);
    assert.deepEqual(codes(second), ['no_anchor', 'stale_entry']);
    assert.deepEqual(await demo.codeActions(REGISTRY, [missing]), []);

    const stale = only(second, 'stale_entry');
    const removeEntry = byTitle(await demo.codeActions(REGISTRY, [stale]), "Remove the entry 'response_content_extraction' from scripts/loud_boundaries.toml");
    const withoutEntry = replaceOnce(
      noAnchor,
      '[[boundary]]\n' +
        'id = "response_content_extraction"\n' +
        'title = "Provider response ingestion"\n' +
        'drops = "Content blocks the runtime has no handler for."\n' +
        'was_silent = true\n' +
        'event = "agent_event:boundary_failure"\n' +
        'anchors = []\n' +
        'test = "crates/harn-vm/src/llm/response_tests.rs"\n' +
        'notes = "Reported once per response, with the count of dropped blocks."\n' +
        '\n',
      '',
    );
    assert.equal(applyTextEdits(noAnchor, editsFor(removeEntry.edit, demo.uri(REGISTRY))), withoutEntry);
    mark = demo.client.mark();
    await demo.apply(removeEntry.edit);
    assert.equal(demo.read(REGISTRY), withoutEntry);
    assert.deepEqual((await demo.diagnostics(REGISTRY, empty, mark)).diagnostics, []);
    assert.deepEqual(await demo.codeActions(REGISTRY, [stale]), []);
    // The variant now has no entry: that lands on the funnel.
    await demo.diagnostics(FUNNEL, has('unregistered_boundary'), mark);

    mark = demo.client.mark();
    await demo.write(RESPONSE, response);
    await demo.write(REGISTRY, ORIGINAL_REGISTRY);
    assert.deepEqual((await demo.diagnostics(FUNNEL, empty, mark)).diagnostics, []);
  });

  test('unregistered_boundary: "Add a [[boundary]] entry" for a new variant, anchored where it is constructed', async () => {
    const funnel = demo.read(FUNNEL);
    const newFunnel = replaceOnce(
      replaceOnce(funnel, '    ChatTurnCap,\n}', '    ChatTurnCap,\n    /// Tool-call argument parsing.\n    ToolArgParse,\n}'),
      '            Self::ChatTurnCap => "chat_turn_cap",\n',
      '            Self::ChatTurnCap => "chat_turn_cap",\n            Self::ToolArgParse => "tool_arg_parse",\n',
    );
    const TOOLS = 'crates/harn-vm/src/tools.rs';
    let mark = demo.client.mark();
    await demo.write(TOOLS, 'use crate::boundary::BoundaryId;\n\npub fn parse_args() -> BoundaryId {\n    BoundaryId::ToolArgParse\n}\n');
    // A test constructing it is exempt, and no anchor.
    await demo.write('crates/harn-vm/src/tools_tests.rs', '#[test]\nfn tool_arg_parse() {\n    let _ = crate::boundary::BoundaryId::ToolArgParse;\n}\n');
    const funnelDoc = await demo.open(FUNNEL, funnel);
    await funnelDoc.setText(newFunnel);
    await demo.save(funnelDoc);
    const variant = only(await demo.diagnostics(FUNNEL, has('unregistered_boundary'), mark), 'unregistered_boundary');
    assert.deepEqual(variant.range, rangeIn(newFunnel, 'ToolArgParse', 0));
    const site = only(await demo.diagnostics(TOOLS, has('unknown_boundary'), mark), 'unknown_boundary');

    const expected = replaceOnce(
      ORIGINAL_REGISTRY,
      'test = "conformance/tests/boundary_events.harn"\n',
      'test = "conformance/tests/boundary_events.harn"\n' +
        '\n' +
        '[[boundary]]\n' +
        'id = "tool_arg_parse"\n' +
        'title = "TODO: describe this boundary"\n' +
        'drops = "TODO: describe what this boundary drops"\n' +
        'was_silent = true\n' +
        'event = "agent_event:boundary_failure"\n' +
        'anchors = ["crates/harn-vm/src/tools.rs"]\n',
    );
    const add = byTitle(await demo.codeActions(FUNNEL, [variant]), "Add a [[boundary]] entry for 'tool_arg_parse'");
    assert.equal(applyTextEdits(ORIGINAL_REGISTRY, editsFor(add.edit, demo.uri(REGISTRY))), expected);
    // The site's own fix registers the same entry.
    const register = byTitle(await demo.codeActions(TOOLS, [site]), "Register boundary 'tool_arg_parse' in scripts/loud_boundaries.toml");
    assert.equal(applyTextEdits(ORIGINAL_REGISTRY, editsFor(register.edit, demo.uri(REGISTRY))), expected);

    mark = demo.client.mark();
    await demo.apply(add.edit);
    assert.equal(demo.read(REGISTRY), expected);
    assert.deepEqual((await demo.diagnostics(FUNNEL, empty, mark)).diagnostics, []);
    assert.deepEqual((await demo.diagnostics(TOOLS, empty, mark)).diagnostics, []);
    // What is left to do is on the new entry: its test.
    assert.deepEqual(codes(await demo.diagnostics(REGISTRY, has('no_test'), mark)), ['no_test']);
    assert.deepEqual(await demo.codeActions(FUNNEL, [variant]), []);
    assert.deepEqual(await demo.codeActions(TOOLS, [site]), []);

    mark = demo.client.mark();
    await funnelDoc.setText(funnel);
    await demo.save(funnelDoc);
    await demo.close(funnelDoc);
    await demo.remove(TOOLS);
    await demo.remove('crates/harn-vm/src/tools_tests.rs');
    await demo.write(REGISTRY, ORIGINAL_REGISTRY);
    assert.deepEqual((await demo.diagnostics(REGISTRY, empty, mark)).diagnostics, []);
  });
});

// ---------------------------------------------------------------------------------------------------

describe('a broken registry over stdio', () => {
  let demo: Demo;
  const broken = replaceOnce(
    ORIGINAL_REGISTRY,
    'was_silent = true\nevent = "agent_event:boundary_failure"\nanchors = ["crates/harn-stdlib',
    'was_silent = yes\nevent = "agent_event:boundary_failure"\nanchors = ["crates/harn-stdlib',
  );
  before(async () => {
    demo = await Demo.start((root) => fs.writeFileSync(path.join(root, REGISTRY), broken));
  });
  after(async () => {
    await demo.stop();
  });

  test('one toml_syntax diagnostic at the error; no crash; hover and completion answer elsewhere', async () => {
    const published = await demo.diagnostics(REGISTRY, has('toml_syntax'));
    assert.equal(published.diagnostics.length, 1, JSON.stringify(published.diagnostics));
    const d = defined(published.diagnostics[0], 'the diagnostic');
    assert.equal(d.source, SOURCE);
    assert.equal(d.severity, 1);
    // A one-character range at the unexpected `y`.
    const at = positionIn(broken, 'was_silent = yes', 13);
    assert.deepEqual(d.range, { start: at, end: { line: at.line, character: at.character + 1 } });
    assert.deepEqual(await demo.codeActions(REGISTRY, [d]), []);

    // Without a registry the live check reports no ids, but still the payload.
    const doc = await demo.open(NOTES, EMITTER.replace('chat_turn_cap', 'chat_turn_capp').replace('    kind: "capped",\n', ''));
    const live = await demo.live(doc);
    assert.deepEqual(codes(live), ['boundary_payload_incomplete']);
    const builtin = await demo.hover(doc, positionIn(doc.text, 'agent_emit_event', 2));
    assert.match((builtin?.contents as MarkupContent).value, /fn agent_emit_event\(/);
    assert.ok(!(await demo.hover(doc, positionIn(doc.text, '"chat_turn_capp"', 3))));
    const names = await demo.complete(doc, positionIn(doc.text, 'detail', 0));
    assert.ok(names.some((i) => i.label === 'agent_emit_event'));
    const kinds = await demo.complete(doc, positionIn(doc.text, 'detail: "', 9));
    assert.ok(!kinds.some((i) => i.label === 'capped'));

    const toml = await demo.open(REGISTRY);
    assert.equal(await demo.hover(toml, positionIn(toml.text, '"chat_turn_cap"', 3)), null);
    // Fixed in the editor: the error goes and the ids are known again.
    let mark = demo.client.mark();
    await toml.replace('was_silent = yes', 'was_silent = true');
    assert.deepEqual((await demo.diagnostics(REGISTRY, empty, mark)).diagnostics, []);
    assert.deepEqual(codes(await demo.diagnostics(doc.uri, has('unknown_boundary'), mark)), ['boundary_payload_incomplete', 'unknown_boundary']);
    // Broken again, elsewhere: one error, at the new place.
    mark = demo.client.mark();
    await toml.replace('title = "Chat loop turn cap"', 'title = "Chat loop turn cap');
    const again = await demo.diagnostics(REGISTRY, has('toml_syntax'), mark);
    assert.equal(again.diagnostics.length, 1);
    assert.deepEqual(again.diagnostics[0]?.range.start, positionIn(toml.text, 'turn cap\n', 8));
    assert.deepEqual(codes(await demo.diagnostics(doc.uri, lacks('unknown_boundary'), mark)), ['boundary_payload_incomplete']);
    assert.equal(demo.client.exitCode, null);
    await demo.close(toml);
    await demo.close(doc);
  });
});

// ---------------------------------------------------------------------------------------------------

describe('boundary settings from the client over stdio', () => {
  let demo: Demo;
  const MOVED = 'config/registry.toml';
  const configuration: Record<string, unknown> = { harn: { boundaries: { registryPath: MOVED } } };
  before(async () => {
    demo = await Demo.start((root) => {
      fs.mkdirSync(path.join(root, 'config'));
      fs.renameSync(path.join(root, REGISTRY), path.join(root, MOVED));
    }, configuration);
  });
  after(async () => {
    await demo.stop();
  });

  test('the registry path comes from workspace/configuration; a changed or invalid setting re-reads it', async () => {
    const chat = await demo.open(CHAT);
    const hover = await demo.hover(chat, positionIn(chat.text, 'boundary: CHAT_TURN_CAP', 12));
    assert.match((hover?.contents as MarkupContent).value, /^\*\*chat_turn_cap\*\* — Chat loop turn cap/);
    let mark = demo.client.mark();
    await demo.remove(RESPONSE);
    const missing = only(await demo.diagnostics(MOVED, has('missing_anchor'), mark), 'missing_anchor');
    assert.deepEqual(missing.range, rangeIn(ORIGINAL_REGISTRY, `"${RESPONSE}"`));

    // An empty path is refused with a warning, and the default (absent here) switches the gate off: its findings go.
    configuration.harn = { boundaries: { registryPath: '' } };
    const from = demo.notificationMark();
    mark = demo.client.mark();
    await demo.client.connection.sendNotification(DidChangeConfigurationNotification.type, { settings: null });
    const warning = await demo.client.waitForNotification('window/showMessage', () => true, 8000, from);
    assert.match((warning as { message: string }).message, /harn\.boundaries\.registryPath must not be empty; using the default/);
    assert.deepEqual((await demo.diagnostics(MOVED, empty, mark)).diagnostics, []);
    const after = await demo.hover(chat, positionIn(chat.text, 'boundary: CHAT_TURN_CAP', 12));
    assert.doesNotMatch((after?.contents as MarkupContent | undefined)?.value ?? '', /chat_turn_cap\*\* —/);
    await demo.close(chat);
  });
});
