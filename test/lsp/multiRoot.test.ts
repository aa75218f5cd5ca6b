// Multi-root workspaces over stdio: two folders with different registries (one at a non-default
// `harn.boundaries.registryPath`, answered for that folder's scopeUri only) and a third nested inside the
// first. Each folder's gate publishes only on its own files, a `.harn` file is checked and hovered against its
// own folder's registry, and folders removed and added through didChangeWorkspaceFolders stop and start gates.

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  Diagnostic,
  DidChangeConfigurationNotification,
  Hover,
  HoverRequest,
  MarkupContent,
  PublishDiagnosticsParams,
} from 'vscode-languageserver-protocol/node';
import { URI } from 'vscode-uri';
import { TestClient } from '../support/lspClient';

const SOURCE = 'harn.boundaries';
const MAIN = 'crates/app/main.harn';
const OK = 'crates/app/ok.harn';

/** One folder's tree: a registry with one entry `id`, its funnel and site, and `.harn` files naming `foreign` and `id`. */
function folderTree(root: string, registryPath: string, id: string, variant: string, title: string, foreign: string): void {
  const files: Record<string, string> = {
    [registryPath]: `[[boundary]]\nid = "${id}"\ntitle = "${title}"\nanchors = ["crates/vm/site.rs", "${OK}"]\ntest = "crates/vm/site.rs"\n`,
    'crates/harn-vm/src/boundary.rs': `pub enum BoundaryId { ${variant} }\nimpl BoundaryId {\n    pub fn as_str(self) -> &'static str {\n        match self {\n            Self::${variant} => "${id}",\n        }\n    }\n}\n`,
    'crates/vm/site.rs': `fn f() { report(BoundaryId::${variant}); } // ${id}\n`,
    [MAIN]: `let r = {boundary: "${foreign}"}\n`,
    [OK]: `let r = {boundary: "${id}"}\n`,
  };
  for (const [relative, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, relative)), { recursive: true });
    fs.writeFileSync(path.join(root, relative), text);
  }
}

const uriOf = (root: string, relative: string): string => URI.file(path.join(root, relative)).toString();
const boundaryDiagnostics = (p: PublishDiagnosticsParams): Diagnostic[] => p.diagnostics.filter((d) => d.source === SOURCE);
const messageOf = (d: Diagnostic): string => (typeof d.message === 'string' ? d.message : d.message.value);
/** Each boundary diagnostic as its code and the first id its message names. */
const summary = (p: PublishDiagnosticsParams | undefined): string[] =>
  boundaryDiagnostics(p ?? { uri: '', diagnostics: [] }).map((d) => `${String(d.code)} ${/`([^`]+)`/.exec(messageOf(d))?.[1] ?? messageOf(d)}`);
const naming = (id: string) => (p: PublishDiagnosticsParams) => boundaryDiagnostics(p).some((d) => messageOf(d).includes(`\`${id}\``));

describe('multi-root workspaces over stdio', () => {
  let client: TestClient;
  let scratch: string;
  let alpha: string;
  let beta: string;
  /** Inside alpha's scanned tree (alpha's `crates/**` globs reach its files), but a folder of its own. */
  let nested: string;
  let betaRegistryPath = 'gate/boundaries.toml';

  before(async () => {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'harn multiroot-'));
    alpha = path.join(scratch, 'alpha');
    beta = path.join(scratch, 'beta');
    nested = path.join(alpha, 'crates', 'nested');
    folderTree(alpha, 'scripts/loud_boundaries.toml', 'alpha_only', 'AlphaOnly', 'Alpha boundary', 'beta_only');
    folderTree(beta, 'gate/boundaries.toml', 'beta_only', 'BetaOnly', 'Beta boundary', 'alpha_only');
    folderTree(nested, 'scripts/loud_boundaries.toml', 'nested_only', 'NestedOnly', 'Nested boundary', 'alpha_only');
    const betaUri = URI.file(beta).toString();
    client = new TestClient();
    await client.initialize([alpha, beta, nested], {
      // Only beta's scope has its registry elsewhere; the window and the other folders keep the default.
      configuration: (section, scopeUri) => (section === 'harn' && scopeUri === betaUri ? { boundaries: { registryPath: betaRegistryPath } } : {}),
    });
  });

  after(async () => {
    await client.shutdown();
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  test("each folder's gate publishes only on its own files: an id of one folder is unknown in the others", async () => {
    // Closed files: the gate's findings, each against the registry of the file's own folder.
    const alphaMain = await client.waitForDiagnostics(uriOf(alpha, MAIN), naming('beta_only'));
    assert.deepEqual(summary(alphaMain), ['unknown_boundary beta_only']);
    const betaMain = await client.waitForDiagnostics(uriOf(beta, MAIN), naming('alpha_only'));
    assert.deepEqual(summary(betaMain), ['unknown_boundary alpha_only']);
    // The nested folder's own gate says alpha_only is unknown there; alpha's gate (which scans these files too)
    // would call nested_only unknown on ok.harn, but that file is the nested folder's.
    const nestedMain = await client.waitForDiagnostics(uriOf(nested, MAIN), naming('alpha_only'));
    assert.deepEqual(summary(nestedMain), ['unknown_boundary alpha_only']);
    assert.ok(await client.waitUntil(() => client.logMessages().filter((m) => m.startsWith('loud-boundary gate (workspace opened)')).length >= 3));
    // Each folder's own id is known in it (beta's registry read from its configured path).
    for (const root of [alpha, beta, nested]) assert.deepEqual(summary(client.latestDiagnostics(uriOf(root, OK))), [], `${root}/${OK}`);
    // No publication of any folder's gate on a file outside the three trees.
    for (const p of client.allLatestDiagnostics()) {
      const file = URI.parse(p.uri).fsPath;
      assert.ok(
        [alpha, beta].some((root) => file.startsWith(root + path.sep)),
        p.uri,
      );
    }
  });

  test("live checks and hovers use the registry of the document's own folder", async () => {
    const alphaText = 'let r = {boundary: "beta_only"}\nlet s = {boundary: "alpha_only"}\n';
    const betaText = 'let r = {boundary: "alpha_only"}\nlet s = {boundary: "beta_only"}\n';
    const inAlpha = await client.open(path.join(alpha, MAIN), alphaText);
    const inBeta = await client.open(path.join(beta, MAIN), betaText);
    const alphaLive = await client.waitForDiagnostics(inAlpha, (p) => p.version === 1 && boundaryDiagnostics(p).length > 0);
    assert.deepEqual(summary(alphaLive), ['unknown_boundary beta_only']);
    assert.equal(alphaLive.diagnostics[0]?.range.start.line, 0);
    const betaLive = await client.waitForDiagnostics(inBeta, (p) => p.version === 1 && boundaryDiagnostics(p).length > 0);
    assert.deepEqual(summary(betaLive), ['unknown_boundary alpha_only']);

    const hoverText = async (uri: string, line: number): Promise<string> => {
      const hover = await client.connection.sendRequest<Hover | null>(HoverRequest.method, { textDocument: { uri }, position: { line, character: 22 } });
      return (hover?.contents as MarkupContent | undefined)?.value ?? '';
    };
    assert.match(await hoverText(inAlpha, 1), /\*\*alpha_only\*\* — Alpha boundary/);
    assert.match(await hoverText(inAlpha, 0), /beta_only\*\* is not in the loud-boundary registry/);
    assert.match(await hoverText(inBeta, 1), /\*\*beta_only\*\* — Beta boundary/);
    assert.match(await hoverText(inBeta, 0), /alpha_only\*\* is not in the loud-boundary registry/);
    const closed = client.mark();
    await client.close(inAlpha);
    await client.close(inBeta);
    // Closed, each file is its own folder's gate's again.
    assert.deepEqual(summary(await client.waitForDiagnostics(inAlpha, naming('beta_only'), 10000, closed)), ['unknown_boundary beta_only']);
    assert.deepEqual(summary(await client.waitForDiagnostics(inBeta, naming('alpha_only'), 10000, closed)), ['unknown_boundary alpha_only']);
  });

  test("a removed folder's gate findings are cleared; an added folder's gate starts", async () => {
    const mark = client.mark();
    await client.changeFolders({ removed: [beta] });
    const cleared = await client.waitForDiagnostics(uriOf(beta, MAIN), (p) => boundaryDiagnostics(p).length === 0, 10000, mark);
    assert.deepEqual(cleared.diagnostics, []);
    // Alpha's findings stay where they were.
    assert.deepEqual(summary(client.latestDiagnostics(uriOf(alpha, MAIN))), ['unknown_boundary beta_only']);

    // The nested folder removed: its files are alpha's again, and alpha's gate says what it finds there.
    const nestedMark = client.mark();
    await client.changeFolders({ removed: [nested] });
    const takenOver = await client.waitForDiagnostics(uriOf(nested, OK), naming('nested_only'), 10000, nestedMark);
    assert.deepEqual(summary(takenOver), ['unknown_boundary nested_only']);
    // Published with the same run: alpha_only is alpha's, but this file is no anchor of alpha's entry.
    assert.deepEqual(summary(client.latestDiagnostics(uriOf(nested, MAIN))), ['unregistered_site alpha_only']);

    // Beta added back: its gate runs again, with its own registry path.
    const addMark = client.mark();
    await client.changeFolders({ added: [beta] });
    const again = await client.waitForDiagnostics(uriOf(beta, MAIN), naming('alpha_only'), 10000, addMark);
    assert.deepEqual(summary(again), ['unknown_boundary alpha_only']);
    assert.deepEqual(summary(client.latestDiagnostics(uriOf(beta, OK))), []);
  });

  test('an invalid setting of one folder is reported naming the folder, once', async () => {
    const from = client.notifications.length;
    betaRegistryPath = '';
    await client.connection.sendNotification(DidChangeConfigurationNotification.type, { settings: null });
    const shown = (await client.waitForNotification('window/showMessage', () => true, 10000, from)) as { message: string };
    assert.equal(shown.message, 'Harn Workbench: folder beta: harn.boundaries.registryPath must not be empty; using the default');
    // The window's settings are valid: said for beta alone, and only once.
    assert.ok(await client.waitUntil(() => client.logMessages().filter((m) => m.startsWith('loud-boundary gate (workspace opened)')).length >= 5));
    const warnings = client.notifications.slice(from).filter((n) => n.method === 'window/showMessage');
    assert.equal(warnings.length, 1);
  });
});

describe('a window without folders over stdio', () => {
  let client: TestClient;
  let scratch: string;

  before(async () => {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'harn loose-'));
    client = new TestClient();
    await client.initialize([], { configuration: {} });
  });

  after(async () => {
    await client.shutdown();
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  test('a loose .harn file is checked and hovered; there is no gate, so no boundary finding', async () => {
    await client.waitForNotification('harn/status', (p) => (p as { state?: string }).state === 'ready');
    const text = 'fn greet(name) {\n  return name\n}\nlet r = {boundary: "anything"}\nlet x = greet(\n';
    const uri = await client.open(path.join(scratch, 'loose.harn'), text);
    const published = await client.waitForDiagnostics(uri, (p) => p.diagnostics.length > 0);
    assert.ok(
      published.diagnostics.every((d) => d.source === 'harn.syntax'),
      JSON.stringify(published.diagnostics),
    );
    const hover = await client.connection.sendRequest<Hover | null>(HoverRequest.method, { textDocument: { uri }, position: { line: 4, character: 9 } });
    assert.match((hover?.contents as MarkupContent | undefined)?.value ?? '', /greet/);
    assert.deepEqual(client.logMessages(1), []);
  });
});
