// The scenarios of test/e2e/editor.test.ts (1-6), run inside a desktop VS Code's extension host
// (@vscode/test-electron, see test/electron/run.ts) and asserted through the `vscode` API instead of
// the DOM: diagnostics from vscode.languages.getDiagnostics (waited for with onDidChangeDiagnostics and
// a deadline, never a fixed sleep), and the editor's own provider commands (executeDefinitionProvider,
// executeCompletionItemProvider, executeCodeActionProvider, executeHoverProvider, ...).
//
// The window is opened on the folder test/electron/workspace.ts prepares: a copy of examples/demo with
// broken/main.harn (scenario 1), the misspelt `boundary: "chat_turn_capp"` in summarize.harn
// (scenarios 3-4) and runs/tampered (scenario 6). Scenarios 2-5 run in order and each leaves the
// workspace as the next expects, as in the e2e suite: 4 registers the misspelt id, 5 saves Rust edits.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { defined } from '../../support/assertions';
import { writeStandInHarn } from '../../support/standInHarn';

const EXTENSION_ID = 'harn-workbench.harn-workbench';
const BROKEN = 'broken/main.harn';
const SUMMARIZE = 'crates/harn-stdlib/src/stdlib/agent/summarize.harn';
const FUNNEL = 'crates/harn-vm/src/boundary.rs';
const REGISTRY = 'scripts/loud_boundaries.toml';
const RESPONSE = 'crates/harn-vm/src/llm/response.rs';
const HEALTHY = 'runs/healthy';
const TAMPERED = 'runs/tampered';
const TRANSCRIPT = 'run-llm/llm_transcript.jsonl';
const WAIT_MS = 30_000;

function workspaceRoot(): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'VS Code was opened on a folder (the first launch argument of test/electron/run.ts)');
  return folder.uri;
}

const fileUri = (relative: string): vscode.Uri => vscode.Uri.joinPath(workspaceRoot(), ...relative.split('/'));

async function open(relative: string): Promise<vscode.TextEditor> {
  const doc = await vscode.workspace.openTextDocument(fileUri(relative));
  return vscode.window.showTextDocument(doc, { preview: false });
}

function codeOf(d: vscode.Diagnostic): string {
  const code = d.code;
  if (code === undefined) return '';
  return typeof code === 'object' ? String(code.value) : String(code);
}

const at = (p: vscode.Position): string => `${p.line + 1}:${p.character + 1}`;

function describeDiagnostics(list: readonly vscode.Diagnostic[]): string {
  if (!list.length) return '(none)';
  return list.map((d) => `[${d.source ?? ''} ${codeOf(d)}] ${at(d.range.start)}-${at(d.range.end)} ${d.message}`).join('\n  ');
}

function withCode(list: readonly vscode.Diagnostic[], code: string): vscode.Diagnostic[] {
  return list.filter((d) => codeOf(d) === code);
}

/**
 * The diagnostics of `uri` once `accept` holds: checked now, then on every onDidChangeDiagnostics for
 * `uri`, until `timeoutMs` (the failure names what was there last).
 */
function waitForDiagnostics(uri: vscode.Uri, what: string, accept: (list: vscode.Diagnostic[]) => boolean, timeoutMs = WAIT_MS): Promise<vscode.Diagnostic[]> {
  return new Promise((resolve, reject) => {
    const key = uri.toString();
    // Subscribed before the first look, so no change falls between the two.
    const subscription = vscode.languages.onDidChangeDiagnostics((e) => {
      if (e.uris.some((u) => u.toString() === key)) check();
    });
    // Started before the first look too (which may already finish): finish() always has a timer to clear.
    const timer = setTimeout(() => {
      finish();
      reject(
        new Error(
          `${what}: not within ${timeoutMs} ms on ${vscode.workspace.asRelativePath(uri)}; its diagnostics:\n  ${describeDiagnostics(vscode.languages.getDiagnostics(uri))}`,
        ),
      );
    }, timeoutMs);
    const finish = (): void => {
      subscription.dispose();
      clearTimeout(timer);
    };
    function check(): boolean {
      const now = vscode.languages.getDiagnostics(uri);
      if (!accept(now)) return false;
      finish();
      resolve(now);
      return true;
    }
    check();
  });
}

/**
 * For answers that no event announces (a hover, an outline): asks again every 100 ms until `accept`
 * holds or `timeoutMs` passes.
 */
async function poll<T>(what: string, ask: () => Thenable<T>, accept: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await ask();
    if (accept(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms; last answer: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The position `delta` UTF-16 units after the start of the first line of `doc` containing `needle`. */
function positionOf(doc: vscode.TextDocument, needle: string, delta = 0): vscode.Position {
  for (let line = 0; line < doc.lineCount; line++) {
    const character = doc.lineAt(line).text.indexOf(needle);
    if (character >= 0) return new vscode.Position(line, character + delta);
  }
  throw new Error(`${JSON.stringify(needle)} is not in ${vscode.workspace.asRelativePath(doc.uri)}`);
}

function symbolNames(symbols: readonly (vscode.DocumentSymbol | vscode.SymbolInformation)[] | undefined): string[] {
  const names: string[] = [];
  const visit = (s: vscode.DocumentSymbol | vscode.SymbolInformation): void => {
    names.push(s.name);
    if ('children' in s) s.children.forEach(visit);
  };
  (symbols ?? []).forEach(visit);
  return names;
}

/** A hover's text with the Markdown emphasis and code marks taken out (what the hover widget shows). */
function hoverText(hovers: readonly vscode.Hover[] | undefined): string {
  const parts: string[] = [];
  for (const hover of hovers ?? []) {
    for (const content of hover.contents) parts.push(typeof content === 'string' ? content : content.value);
  }
  return parts.join('\n').replace(/\*\*|`/g, '');
}

before(async function () {
  this.timeout(60_000);
  const extension = vscode.extensions.getExtension(EXTENSION_ID);
  assert.ok(extension, `the extension under test (${EXTENSION_ID}) is loaded from --extensionDevelopmentPath`);
  await extension.activate();
  workspaceRoot();
});

describe('scenario 1: a broken .harn file', () => {
  it('has a harn.syntax error on the `)` token, and the outline keeps the declarations', async () => {
    const { document } = await open(BROKEN);
    const paren = positionOf(document, 'let x = )', 'let x = '.length);
    const diagnostics = await waitForDiagnostics(document.uri, 'a harn.syntax error', (all) => all.some((d) => d.source === 'harn.syntax'));
    const syntax = diagnostics.filter((d) => d.source === 'harn.syntax');
    const onParen = syntax.find((d) => d.range.start.isEqual(paren));
    assert.ok(onParen, `a harn.syntax diagnostic starts at the ')' (${at(paren)}, Ln 3, Col 11):\n  ${describeDiagnostics(diagnostics)}`);
    assert.equal(onParen.severity, vscode.DiagnosticSeverity.Error, 'it is an error');
    assert.ok(onParen.range.end.isEqual(paren.translate(0, 1)), `it ends after the ')', not at the end of the line: ${describeDiagnostics([onParen])}`);
    const letKeyword = positionOf(document, 'let x = )');
    assert.ok(
      !syntax.some((d) => d.range.contains(letKeyword)),
      `no syntax diagnostic covers the \`let\` of that line (${at(letKeyword)}):\n  ${describeDiagnostics(syntax)}`,
    );

    const symbols = await vscode.commands.executeCommand<(vscode.DocumentSymbol | vscode.SymbolInformation)[] | undefined>(
      'vscode.executeDocumentSymbolProvider',
      document.uri,
    );
    const names = symbolNames(symbols);
    assert.ok(names.includes('main'), `the outline lists the pipeline main: ${JSON.stringify(names)}`);
    assert.ok(names.includes('greet'), `the outline lists the function greet: ${JSON.stringify(names)}`);
  });
});

describe('scenarios 2-5: the demo repository', () => {
  it('scenario 2: Go to Definition across an import lands in lib/prompts.harn at the declaration', async () => {
    const { document } = await open('pipelines/triage.harn');
    // In the middle of the imported name, at its use on line 8.
    const use = positionOf(document, 'let system = triage_system_prompt(LABELS)', 'let system = '.length + 6);
    const found = await vscode.commands.executeCommand<(vscode.Location | vscode.LocationLink)[] | undefined>(
      'vscode.executeDefinitionProvider',
      document.uri,
      use,
    );
    const targets = (found ?? []).map((f) =>
      'targetUri' in f ? { uri: f.targetUri, range: f.targetSelectionRange ?? f.targetRange } : { uri: f.uri, range: f.range },
    );
    const shown = JSON.stringify(targets.map((t) => `${vscode.workspace.asRelativePath(t.uri)} ${at(t.range.start)}-${at(t.range.end)}`));
    assert.equal(targets.length, 1, `one definition: ${shown}`);
    const target = defined(targets[0], 'the definition');
    assert.equal(target.uri.toString(), fileUri('lib/prompts.harn').toString(), `the definition is in lib/prompts.harn: ${shown}`);
    const prompts = await vscode.workspace.openTextDocument(target.uri);
    const declaration = positionOf(prompts, 'pub fn triage_system_prompt(', 'pub fn '.length);
    // On the name itself (Ln 22, Col 8, after `pub fn `), not only somewhere on the line.
    assert.ok(target.range.start.isEqual(declaration), `the definition starts at the name (${at(declaration)}): ${shown}`);
    assert.equal(prompts.getText(target.range), 'triage_system_prompt', `the definition's range is the name: ${shown}`);
  });

  it('scenario 3: an unregistered boundary id gets unknown_boundary on the id, and completion in `boundary: "` offers the registered ids', async () => {
    const { document } = await open(SUMMARIZE);
    const idStart = positionOf(document, '"chat_turn_capp"');
    // One problem, one diagnostic: the live check's (with "Did you mean"), not also the gate's from before the file was opened.
    const diagnostics = await waitForDiagnostics(document.uri, 'one unknown_boundary with "Did you mean"', (all) => {
      const unknown = withCode(all, 'unknown_boundary');
      return unknown.length === 1 && /Did you mean/.test(unknown[0]?.message ?? '');
    });
    const unknown = defined(withCode(diagnostics, 'unknown_boundary')[0], 'the unknown_boundary diagnostic');
    assert.equal(unknown.source, 'harn.boundaries');
    assert.equal(unknown.severity, vscode.DiagnosticSeverity.Error, 'unknown_boundary is an error');
    assert.ok(unknown.range.start.isEqual(idStart), `it starts at the id's opening quote (${at(idStart)}, Ln 7, Col 17): ${describeDiagnostics([unknown])}`);
    assert.equal(document.getText(unknown.range), '"chat_turn_capp"', 'it covers the id (its string literal), not the key `boundary`');
    assert.match(unknown.message, /chat_turn_capp.*not in the registry/, unknown.message);
    assert.match(unknown.message, /Did you mean `chat_turn_cap`\?/, unknown.message);

    const hover = hoverText(await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', document.uri, idStart.translate(0, 4)));
    assert.match(hover, /chat_turn_capp/, `the hover on the id names it: ${hover}`);

    // Inside the string after `boundary: "`.
    const inside = positionOf(document, 'boundary: "', 'boundary: "'.length);
    const list = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', document.uri, inside, '"');
    const labels = list.items.map((item) => (typeof item.label === 'string' ? item.label : item.label.label));
    assert.ok(labels.includes('response_content_extraction'), `completion offers response_content_extraction: ${JSON.stringify(labels)}`);
    assert.ok(labels.includes('chat_turn_cap'), `completion offers chat_turn_cap: ${JSON.stringify(labels)}`);
    assert.ok(!labels.includes('agent_loop_budget'), `an audited id is not offered as a boundary: ${JSON.stringify(labels)}`);
  });

  it('scenario 4: the Quick Fix "Register boundary" adds the entry to the registry and clears the problem', async () => {
    const { document } = await open(SUMMARIZE);
    // The live check's diagnostic (it carries the suggestions the "Change to" fix needs).
    const [unknown] = withCode(
      await waitForDiagnostics(document.uri, 'one unknown_boundary with "Did you mean"', (all) => {
        const found = withCode(all, 'unknown_boundary');
        return found.length === 1 && /Did you mean/.test(found[0]?.message ?? '');
      }),
      'unknown_boundary',
    );
    const { range } = defined(unknown, 'the unknown_boundary diagnostic');
    const actions = await vscode.commands.executeCommand<(vscode.CodeAction | vscode.Command)[]>('vscode.executeCodeActionProvider', document.uri, range);
    const titles = actions.map((a) => a.title);
    const title = `Register boundary 'chat_turn_capp' in ${REGISTRY} and ${FUNNEL}`;
    const register = actions.find((a): a is vscode.CodeAction => a.title === title && 'edit' in a && a.edit !== undefined);
    assert.ok(register?.edit, `the code actions offer "${title}" with an edit: ${JSON.stringify(titles)}`);
    assert.ok(titles.includes("Change to 'chat_turn_cap'"), `the code actions also offer the suggested id: ${JSON.stringify(titles)}`);
    assert.deepEqual(
      register.edit
        .entries()
        .map(([uri]) => uri.toString())
        .sort(),
      [fileUri(FUNNEL).toString(), fileUri(REGISTRY).toString()].sort(),
      'the edit changes the registry and the funnel (the enum and the registry correspond 1:1)',
    );

    assert.ok(await vscode.workspace.applyEdit(register.edit), 'VS Code applies the edit');
    // The live check follows the edited registry, saved or not.
    await waitForDiagnostics(document.uri, 'the unknown_boundary to clear', (all) => withCode(all, 'unknown_boundary').length === 0);

    const registry = await vscode.workspace.openTextDocument(fileUri(REGISTRY));
    const lines = registry.getText().split(/\r?\n/);
    const idLine = lines.findIndex((l) => l.trim() === 'id = "chat_turn_capp"');
    assert.ok(idLine > 0, `the registry has the new id:\n${registry.getText()}`);
    assert.equal(lines[idLine - 1]?.trim(), '[[boundary]]', `the id line follows a [[boundary]] header:\n${registry.getText()}`);
    const entry: string[] = [];
    for (const line of lines.slice(idLine + 1)) {
      if (/^\s*(\[|#|$)/.test(line)) break;
      entry.push(line.trim());
    }
    assert.ok(entry.includes(`anchors = ["${SUMMARIZE}"]`), `the entry anchors the reporting file: ${JSON.stringify(entry)}`);
    if (registry.isDirty) assert.ok(await registry.save(), 'the registry saves');
    assert.match(readFileSync(registry.uri.fsPath, 'utf8'), /id = "chat_turn_capp"/, 'the new entry is on disk');
    // Saving re-runs the gate; the problem stays gone.
    await waitForDiagnostics(document.uri, 'no unknown_boundary after saving the registry', (all) => withCode(all, 'unknown_boundary').length === 0);
  });

  it('scenario 5: saving a Rust edit that breaks the gate yields unregistered_site (and removing the only construction, stale_entry)', async () => {
    const editor = await open(RESPONSE);
    const document = editor.document;
    const before = vscode.languages.getDiagnostics(document.uri);
    assert.equal(
      before.filter((d) => ['unregistered_site', 'stale_entry'].includes(codeOf(d))).length,
      0,
      `no gate finding on response.rs before the edit:\n  ${describeDiagnostics(before)}`,
    );

    // 1. response.rs also constructs BoundaryId::ChatTurnCap, but is not an anchor of chat_turn_cap.
    const line = '    let _capped = BoundaryId::ChatTurnCap;';
    assert.ok(await editor.edit((edit) => edit.insert(positionOf(document, '    (text, failure)'), `${line}\n`)), 'the edit applies');
    assert.ok(await document.save(), 'response.rs saves');
    assert.ok(readFileSync(document.uri.fsPath, 'utf8').includes(line), 'the edit is on disk');
    const variant = positionOf(document, line, '    let _capped = BoundaryId::'.length);
    const sites = await waitForDiagnostics(document.uri, 'unregistered_site on response.rs', (all) => withCode(all, 'unregistered_site').length > 0);
    const site = defined(withCode(sites, 'unregistered_site')[0], 'the unregistered_site diagnostic');
    assert.equal(site.severity, vscode.DiagnosticSeverity.Error, 'unregistered_site is an error');
    assert.match(site.message, /chat_turn_cap/, site.message);
    assert.ok(site.range.contains(variant), `it is on BoundaryId::ChatTurnCap (${at(variant)}): ${describeDiagnostics([site])}`);

    // 2. The only construction of ResponseContentExtraction goes: its entry is stale.
    const gone = positionOf(document, 'boundary: BoundaryId::ResponseContentExtraction,');
    assert.ok(await editor.edit((edit) => edit.delete(document.lineAt(gone.line).rangeIncludingLineBreak)), 'the deletion applies');
    assert.ok(await document.save(), 'response.rs saves again');
    const registry = fileUri(REGISTRY);
    const stale = await waitForDiagnostics(registry, 'stale_entry on the registry', (all) => withCode(all, 'stale_entry').length > 0);
    assert.match(defined(withCode(stale, 'stale_entry')[0], 'the stale_entry diagnostic').message, /response_content_extraction/, describeDiagnostics(stale));
    assert.ok(withCode(vscode.languages.getDiagnostics(document.uri), 'unregistered_site').length > 0, 'the unregistered_site finding stays');
  });
});

describe('scenario 6: run artifacts', () => {
  it('hovering a provider_call_response row of a transcript shows its summary; the outline lists its session', async () => {
    const { document } = await open(`${HEALTHY}/${TRANSCRIPT}`);
    // Row 5 of the demo transcript: call c-01 of m-small on ollama.
    const row = positionOf(document, '{"type":"provider_call_response"', '{"type":"'.length + 4);
    const hover = await poll(
      'a hover with the row summary',
      async () => hoverText(await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', document.uri, row)),
      (text) => /provider_call_response/.test(text) && /Model/.test(text),
    );
    assert.match(hover, /provider_call_response · call c-01 · iteration 0/, `the hover's title names the row: ${hover}`);
    assert.match(hover, /Model: m-small · provider ollama/, `the hover shows the model: ${hover}`);
    assert.match(hover, /Tokens: 412 in · 23 out/, `the hover shows the tokens: ${hover}`);
    assert.match(hover, /Cost: \$0\.0004/, `the hover shows the cost: ${hover}`);
    assert.match(hover, /Stop reason: tool_use/, `the hover shows the stop reason: ${hover}`);
    assert.match(hover, /Latency: 1,190 ms/, `the hover shows the latency: ${hover}`);
    assert.match(hover, /lookup_invoice/, `the hover lists the parsed tool call: ${hover}`);

    const names = await poll(
      'the outline of the transcript',
      async () =>
        symbolNames(
          await vscode.commands.executeCommand<(vscode.DocumentSymbol | vscode.SymbolInformation)[] | undefined>(
            'vscode.executeDocumentSymbolProvider',
            document.uri,
          ),
        ),
      (list) => list.length > 0,
      5_000,
    );
    assert.ok(names.includes('session s-42'), `the outline lists the session: ${JSON.stringify(names)}`);
  });

  it('a run record whose transcript changed gets digest_mismatch on the sha256 value, with both hashes', async () => {
    const healthy = await open(`${HEALTHY}/run.json`);
    const { document } = await open(`${TAMPERED}/run.json`);
    const record = JSON.parse(document.getText()) as { observability: { transcript_pointers: { descriptor: { sha256: string } }[] } };
    const stated = defined(record.observability.transcript_pointers[0], 'the first transcript pointer').descriptor.sha256;
    const actual = `sha256:${createHash('sha256')
      .update(readFileSync(fileUri(`${TAMPERED}/${TRANSCRIPT}`).fsPath))
      .digest('hex')}`;
    assert.notEqual(stated, actual, 'the tampered transcript no longer matches its descriptor');

    const diagnostics = await waitForDiagnostics(document.uri, 'digest_mismatch', (all) => withCode(all, 'digest_mismatch').length > 0);
    // The artifacts' error; the training projector's note (harn.training, information) has the same code.
    const digest = withCode(diagnostics, 'digest_mismatch').filter((d) => d.source === 'harn.artifacts');
    assert.equal(digest.length, 1, `one digest_mismatch:\n  ${describeDiagnostics(diagnostics)}`);
    const mismatch = defined(digest[0], 'the digest_mismatch diagnostic');
    assert.equal(mismatch.severity, vscode.DiagnosticSeverity.Error, 'digest_mismatch is an error');
    const value = positionOf(document, `"sha256": "${stated}"`, '"sha256": '.length);
    assert.ok(mismatch.range.start.isEqual(value), `it starts at the sha256 value (${at(value)}, Ln 63, Col 21): ${describeDiagnostics(digest)}`);
    assert.equal(document.getText(mismatch.range), JSON.stringify(stated), 'it covers the value, not the key "sha256"');
    assert.ok(mismatch.message.includes(stated), `it names the descriptor's hash: ${mismatch.message}`);
    assert.ok(mismatch.message.includes(actual), `it names the transcript's hash on disk: ${mismatch.message}`);
    const onHealthy = withCode(vscode.languages.getDiagnostics(healthy.document.uri), 'digest_mismatch');
    assert.equal(onHealthy.length, 0, `the healthy run record has no digest_mismatch: ${describeDiagnostics(onHealthy)}`);
  });
});

// Scenario 12 (issue 14): "Harn: Run Pipeline" / "Run Pipeline With Input…" through executeCommand, which returns
// what the command did. Each refusal is returned (and shown as an error) and the stand-in harn records no start;
// a good input starts it in the input's repo_dir with HARN_TASK. The settings are written to the folder's settings.
describe('scenario 12: run a pipeline where it belongs', () => {
  type Outcome = { started: true; plan: { cwd: string; task: string | null; env: unknown } } | { started: false; refused?: string; cancelled?: true };
  const PIPELINE = 'pipelines/triage.harn';
  const outside = mkdtempSync(join(tmpdir(), 'harn-electron-run-'));
  const repo = join(outside, 'repo');
  mkdirSync(repo);
  const harn = writeStandInHarn({}, outside);
  const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('harn.run', workspaceRoot());
  const set = async (values: Record<string, unknown>): Promise<void> => {
    for (const key of ['binary', 'args', 'workspace', 'reservedParameters', 'env']) {
      await config().update(key, values[key], vscode.ConfigurationTarget.Workspace);
    }
  };
  const input = (name: string, value: unknown): vscode.Uri => {
    const file = join(outside, name);
    writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value));
    return vscode.Uri.file(file);
  };
  const run = (withInput?: vscode.Uri): Thenable<Outcome> =>
    withInput === undefined
      ? vscode.commands.executeCommand<Outcome>('harn.runPipeline', fileUri(PIPELINE))
      : vscode.commands.executeCommand<Outcome>('harn.runPipelineWithInput', fileUri(PIPELINE), withInput);
  const refusalOf = async (outcome: Thenable<Outcome>): Promise<string> => {
    const result = await outcome;
    assert.equal(result.started, false, `refused: ${JSON.stringify(result)}`);
    const refused = result.started ? undefined : result.refused;
    assert.ok(refused !== undefined, `a refusal, not a cancel: ${JSON.stringify(result)}`);
    assert.equal(harn.records().length, 0, `nothing was started: ${refused}`);
    return refused;
  };

  after(async () => {
    await set({});
    rmSync(outside, { recursive: true, force: true });
  });

  it('every refusal tried is returned with its cause, and nothing starts', async () => {
    await set({ binary: harn.path, workspace: '/srv/repo' });
    assert.match(
      await refusalOf(run()),
      /^Harn: pipelines\/triage\.harn was not run — harn\.run\.workspace must be \{"fixed": .*not a string \("\/srv\/repo"\)/,
    );
    await set({ binary: harn.path, workspace: { perRun: 'repo_dir' } });
    assert.match(await refusalOf(run()), /"repo_dir" parameter \(perRun\), and this run has no input: run it with an input file/);
    assert.match(await refusalOf(run(input('no-dir.json', { task: 'Fix it.' }))), /has no "repo_dir" parameter \(its fields: "task"\)/);
    assert.match(await refusalOf(run(input('not-json.json', 'repo_dir=/srv'))), /is not JSON/);
    assert.match(await refusalOf(run(input('null-dir.json', { repo_dir: null, task: 'Fix it.' }))), /has "repo_dir" as null/);
    assert.match(await refusalOf(run(input('relative.json', { repo_dir: 'repo', task: 'Fix it.' }))), /"repo" .* is not an absolute path/);
    assert.match(await refusalOf(run(input('gone.json', { repo_dir: join(outside, 'gone'), task: 'Fix it.' }))), /does not exist/);
    assert.match(await refusalOf(run(input('two.json', { repo_dir: repo, task: 'Fix it.', notes: 'x' }))), /has 2 fields left for the task/);
    await set({ binary: harn.path, workspace: { perRun: 'repo_dir' }, env: ['HARN_ELECTRON_NOT_SET_1'] });
    assert.match(await refusalOf(run(input('ok.json', { repo_dir: repo, task: 'Fix it.' }))), /missing on this machine: HARN_ELECTRON_NOT_SET_1/);
    await set({ binary: harn.path, workspace: { perRun: 'repo_dir' }, env: 'PATH' });
    assert.match(
      await refusalOf(run(input('ok.json', { repo_dir: repo, task: 'Fix it.' }))),
      /harn\.run\.env must be "inherit" or a list of variable names, not a string/,
    );
  });

  it("a good input starts the stand-in harn in the input's repo_dir with HARN_TASK", async () => {
    await set({ binary: harn.path, workspace: { perRun: 'repo_dir' } });
    const outcome = await run(input('ok.json', { repo_dir: repo, task: 'Fix the parser.' }));
    assert.ok(outcome.started, `started: ${JSON.stringify(outcome)}`);
    assert.equal(outcome.plan.cwd, repo);
    const deadline = Date.now() + WAIT_MS;
    while (harn.last() === undefined && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    const seen = harn.last();
    assert.ok(seen, 'the stand-in ran');
    assert.equal(seen.cwd, realpathSync(repo));
    assert.equal(seen.env['HARN_TASK'], 'Fix the parser.');
    assert.deepEqual(seen.argv, ['run', fileUri(PIPELINE).fsPath]);
  });
});
