// End-to-end tests in a real VS Code (code-server) driven through headless chromium.
// Run: node scripts/run-tests.mjs e2e   (the toolchain installs through scripts/e2e/setup.mjs;
// the suite skips only when it cannot be installed here, and says why).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { Editor, ensureToolchain, packageExtension, repoRoot, type Box, type Problem, type ToolchainResult } from './harness';

const fixtures = join(__dirname, 'fixtures');

// Packaged once for every scenario of this file (the file runs in one process).
let packaged: string | undefined;
function vsix(): string {
  packaged ??= packageExtension();
  return packaged;
}

// Checked when the file loads, so an unavailable toolchain skips with its reason.
const toolchain: ToolchainResult = ensureToolchain();
const skip = toolchain.ok ? false : `e2e toolchain unavailable: ${toolchain.reason}`;
if (skip) console.log(`# SKIPPING e2e: ${skip}`);

function overlaps(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

function horizontallyCovers(squiggle: Box, char: Box): boolean {
  // The squiggle is drawn under the text: same line band, horizontally over the character.
  const sameLine = squiggle.y + squiggle.height > char.y && squiggle.y < char.y + char.height + 2;
  return sameLine && squiggle.x < char.x + char.width && char.x < squiggle.x + squiggle.width;
}

describe('scenario 1: a broken .harn file', { skip, timeout: 240_000 }, () => {
  let editor: Editor;

  before(async () => {
    if (!toolchain.ok) return;
    editor = new Editor(toolchain.toolchain, 'scenario1');
    await editor.open(join(fixtures, 'broken'), vsix());
    await editor.screenshot('workbench');
  });

  after(async () => {
    await editor?.teardown();
  });

  test('shows an error squiggle on the `)` token, lists it in Problems, keeps the outline', async (t) => {
    const clickedAt = await editor.openFileFromExplorer('main.harn');
    editor.timings.openToEditorShownMs = Date.now() - clickedAt;
    await editor.screenshot('opened');

    try {
      await editor.waitForSquiggle('error');
    } catch (error) {
      await editor.screenshot('no-squiggle');
      throw new Error(`${String(error)}\n--- extension log:\n${editor.extensionLog()}\n--- code-server:\n${editor.serverLog().slice(-4000)}`);
    }
    editor.timings.openToFirstSquiggleMs = Date.now() - clickedAt;

    // Activation, from the log files' timestamps: the extension host's "activating" line (the
    // extension activates on workspaceContains:**/*.harn, so usually before the file is opened)
    // and the client's "Harn language server ready" line in its "Harn Workbench" log channel.
    const activating = await editor.waitForLogLine(/_doActivateExtension harn-workbench\./, 'remoteexthost');
    const ready = await editor.waitForLogLine(/Harn language server ready/);
    editor.timings.activationToServerReadyMs = ready.at - activating.at;
    const self = await editor.waitForLogLine(/activated in \d+ ms/, 'Harn Workbench', 5_000).catch(() => undefined);
    const selfMs = self && /activated in (\d+) ms/.exec(self.line);
    if (selfMs) editor.timings.activationSelfReportedMs = Number(selfMs[1]);
    t.diagnostic(`activation event: ${/activationEvent: '([^']*)'/.exec(activating.line)?.[1] ?? '?'}`);
    await editor.screenshot('squiggle');

    // The squiggle sits on the `)` of `let x = )`.
    const paren = await editor.charBox('let x = )', 'let x = '.length);
    const squiggles = await editor.squiggleBoxes('error');
    assert.ok(squiggles.length >= 1, 'at least one error squiggle');
    assert.ok(
      squiggles.some((s) => horizontallyCovers(s, paren) || overlaps(s, paren)),
      `an error squiggle covers the ')' at ${JSON.stringify(paren)}; squiggles: ${JSON.stringify(squiggles)}`,
    );

    // ...and only on it, not on the whole line: the `let` before it has none.
    const letKeyword = await editor.charBox('let x = )', 0);
    assert.ok(
      !squiggles.some((s) => horizontallyCovers(s, letKeyword)),
      `no error squiggle under 'let' at ${JSON.stringify(letKeyword)}; squiggles: ${JSON.stringify(squiggles)}`,
    );

    const problems = await editor.readProblems(1);
    await editor.screenshot('problems');
    const errors = problems.filter((p) => p.severity === 'error');
    assert.ok(errors.length >= 1, `the Problems panel lists an error: ${JSON.stringify(problems)}`);
    assert.ok(
      errors.some((p) => /Ln 3, Col 11/.test(p.text)),
      `a Problems row points at line 3, column 11 (the ')'): ${JSON.stringify(errors)}`,
    );

    const outline = await editor.readOutline(2);
    await editor.screenshot('outline');
    assert.ok(outline.includes('main'), `the Outline lists the pipeline main: ${JSON.stringify(outline)}`);
    assert.ok(outline.includes('greet'), `the Outline lists the function greet: ${JSON.stringify(outline)}`);

    for (const [name, ms] of Object.entries(editor.timings)) t.diagnostic(`${name}: ${ms} ms`);
    if (editor.blockedRequests.length) t.diagnostic(`refused non-loopback requests: ${editor.blockedRequests.join(' ')}`);
  });
});

// Scenarios 2-5 share one editor on a copy of examples/demo with test/e2e/fixtures/demo-overlay
// over it: crates/harn-stdlib/src/stdlib/agent/summarize.harn reports `boundary: "chat_turn_capp"`
// (one letter too many). They run in order and each leaves the workspace as the next expects:
// 3 adds a call under the misspelt one, 4 registers the misspelt id (the registry is edited), 5
// saves Rust edits that break the gate.
const SUMMARIZE = 'crates/harn-stdlib/src/stdlib/agent/summarize.harn';
const REGISTRY = 'scripts/loud_boundaries.toml';
const RESPONSE = 'crates/harn-vm/src/llm/response.rs';

function rows(problems: Problem[], pattern: RegExp): Problem[] {
  return problems.filter((p) => pattern.test(p.text));
}

describe('scenarios 2-5: the demo repository', { skip, timeout: 240_000 }, () => {
  let editor: Editor;
  // A failing scenario adds the extension's log to its message.
  const withLogs = async <T>(step: string, body: () => Promise<T>): Promise<T> => {
    try {
      return await body();
    } catch (error) {
      await editor.screenshot(`failed-${step}`).catch(() => undefined);
      const message = error instanceof Error ? error.message : String(error);
      throw new Error(`${step}: ${message}\n--- extension log (tail):\n${editor.extensionLog().slice(-3000)}`);
    }
  };

  before(async () => {
    if (!toolchain.ok) return;
    editor = new Editor(toolchain.toolchain, 'demo');
    await editor.open(join(repoRoot, 'examples', 'demo'), vsix(), join(fixtures, 'demo-overlay'));
    // The server is up and the gate has read the whole tree.
    await editor.waitForLogLine(/Harn language server ready/);
    await editor.waitForLogLine(/loud-boundary gate \(workspace opened\)/);
  });

  after(async () => {
    await editor?.teardown();
  });

  test('scenario 2: Go to Definition (F12) across an import opens lib/prompts.harn at the declaration', async (t) => {
    editor.beginScenario('scenario2');
    const started = performance.now();
    await editor.openFileFromExplorer('pipelines/triage.harn');
    await editor.waitForLine('triage.harn to render', (l) => l.includes('let system = triage_system_prompt(LABELS)'));
    // The caret in the middle of the imported name, at its use on line 8.
    await editor.clickText('let system = triage_system_prompt(LABELS)', 'let system = '.length + 6);
    const at = await editor.waitForCursorLine(8);
    await editor.screenshot('caret-on-call');
    t.diagnostic(`caret before F12: ${at.text}`);

    await editor.page.keyboard.press('F12');
    await withLogs('Go to Definition', async () => {
      await editor.waitForActiveTab('prompts.harn');
      const landed = await editor.waitForCursorLine(22);
      await editor.screenshot('definition');
      t.diagnostic(`caret after F12: ${landed.text}`);
      const lines = await editor.visibleLines();
      assert.ok(
        lines.some((l) => l.startsWith('pub fn triage_system_prompt(')),
        `lib/prompts.harn shows the declaration; rendered lines:\n${lines.join('\n')}`,
      );
      // On the name itself (column 8, after `pub fn `), not only somewhere on the line.
      assert.equal(landed.column, 8, `the caret is at the start of the name (Ln 22, Col 8); status bar: ${landed.text}`);
    });
    editor.timings.scenario2Ms = Math.round(performance.now() - started);
  });

  test('scenario 3a: an unregistered boundary id is squiggled on the id and listed once in Problems with "Did you mean"', async (t) => {
    editor.beginScenario('scenario3');
    const started = performance.now();
    await editor.openFileFromExplorer(SUMMARIZE);
    await editor.waitForLine('summarize.harn to render', (l) => l.includes('boundary: "chat_turn_capp",'));

    await withLogs('squiggle on the id', async () => {
      await editor.waitForSquiggle('error', 30_000);
      await editor.screenshot('squiggle');
      const squiggles = await editor.squiggleBoxes('error');
      const line = 'boundary: "chat_turn_capp",';
      const idStart = await editor.charBox(line, 'boundary: '.length + 1); // the `c` after the quote
      const idEnd = await editor.charBox(line, 'boundary: "chat_turn_cap'.length); // the last `p`
      const key = await editor.charBox(line, 0); // the `b` of `boundary:`
      assert.ok(
        squiggles.some((s) => horizontallyCovers(s, idStart) && horizontallyCovers(s, idEnd)),
        `an error squiggle spans "chat_turn_capp"; id from ${JSON.stringify(idStart)} to ${JSON.stringify(idEnd)}; squiggles: ${JSON.stringify(squiggles)}`,
      );
      assert.ok(
        !squiggles.some((s) => horizontallyCovers(s, key)),
        `no error squiggle under the key \`boundary\`; squiggles: ${JSON.stringify(squiggles)}`,
      );
    });

    const hover = await withLogs('hover on the id', () => editor.hoverAt('"chat_turn_capp"'));
    await editor.screenshot('hover');
    t.diagnostic(`hover: ${hover.replace(/\s+/g, ' ')}`);
    assert.match(hover, /chat_turn_capp/, `the hover names the id: ${hover}`);
    assert.match(hover, /Did you mean .?chat_turn_cap.?\?/, `the hover carries the "Did you mean" text: ${hover}`);
    await editor.page.keyboard.press('Escape');

    const unknown = /chat_turn_capp.*not in the registry/;
    const problems = await withLogs('Problems panel', () =>
      editor.waitForProblems('a Problems row with "Did you mean" for the unknown id chat_turn_capp', (all) =>
        rows(all, unknown).some((p) => /Did you mean/.test(p.text)),
      ),
    );
    await editor.screenshot('problems');
    const found = rows(problems, unknown);
    for (const p of found) t.diagnostic(`Problems row: ${p.text}`);
    const row = found.find((p) => /Did you mean/.test(p.text))!;
    assert.equal(row.severity, 'error', `the row is an error: ${row.text}`);
    assert.match(row.text, /Did you mean .?chat_turn_cap.?\?/, `the row says "Did you mean": ${row.text}`);
    assert.match(row.text, /Ln 7, Col 17/, `the row points at the id's opening quote (line 7, column 17): ${row.text}`);
    editor.timings.scenario3aMs = Math.round(performance.now() - started);

    // One problem, one row: the live check owns unknown ids in open .harn files (the gate's own
    // finding for the file, published before it was opened, must go when it opens).
    let single: Problem[] | undefined;
    try {
      single = await editor.waitForProblems('exactly one Problems row for chat_turn_capp', (all) => rows(all, unknown).length === 1, 5_000);
    } catch {
      single = undefined;
    }
    const shown = single ?? rows(await editor.waitForProblems('the Problems panel', () => true), unknown);
    if (!single) await editor.screenshot('duplicate-rows');
    assert.ok(
      single,
      'PRODUCT BUG (see .e2e-screenshots/scenario3-02-hover.png, scenario3-03-problems.png, scenario3-04-duplicate-rows.png): ' +
        'the unknown id is reported twice for an open .harn file, once by the whole-tree gate that ran before the file was opened ' +
        '(no "Did you mean") and once by the live check; opening the document does not drop the gate\'s unknown_boundary for it ' +
        '(only the next gate run does), so the hover shows both messages and the Quick Fix menu lists "Register boundary" twice. ' +
        `Rows:\n${shown.map((p) => `  ${p.text}`).join('\n')}`,
    );
    assert.match(rows(single, unknown)[0]!.text, /Did you mean/, `the one row left is the live check's: ${JSON.stringify(single)}`);
  });

  test('scenario 3b: typing inside a new `boundary: "` offers the registered ids', async (t) => {
    editor.beginScenario('scenario3b');
    const started = performance.now();
    await editor.openFileFromExplorer(SUMMARIZE);
    await editor.waitForLine('summarize.harn to render', (l) => l.includes('boundary: "chat_turn_capp",'));
    // A second report under the first one (after its `})`).
    await editor.clickText('    })', 5);
    await editor.page.keyboard.press('End');
    await editor.page.keyboard.press('Enter');
    await editor.page.keyboard.type('agent_emit_event(session_id, "boundary_failure", {boundary: "');
    const typed = await editor.waitForLine('the typed call', (l) => l.includes('agent_emit_event(session_id, "boundary_failure", {boundary: "'));
    t.diagnostic(`typed line: ${typed.find((l) => l.includes('{boundary: "'))?.trim()}`);
    let labels: string[];
    try {
      labels = await editor.suggestions(false, 4_000);
      t.diagnostic('the suggest widget opened on `"` by itself');
    } catch {
      t.diagnostic('the suggest widget did not open on `"`: triggered with Ctrl+Space');
      labels = await withLogs('suggest widget', () => editor.suggestions(true));
    }
    await editor.screenshot('suggest');
    t.diagnostic(`suggestions: ${labels.join(', ')}`);
    assert.ok(labels.includes('response_content_extraction'), `the suggest widget lists response_content_extraction: ${JSON.stringify(labels)}`);
    assert.ok(labels.includes('chat_turn_cap'), `the suggest widget lists chat_turn_cap: ${JSON.stringify(labels)}`);
    assert.ok(!labels.includes('agent_loop_budget'), `an audited id is not offered as a boundary: ${JSON.stringify(labels)}`);

    const widget = editor.page.locator('.editor-instance .suggest-widget.visible');
    await widget.locator('.monaco-list-row').filter({ has: editor.page.locator('.label-name', { hasText: /^chat_turn_cap$/ }) }).first().click();
    const accepted = await editor.waitForLine('the accepted completion in the text', (l) => l.includes('{boundary: "chat_turn_cap"})'));
    t.diagnostic(`after accepting: ${accepted.find((l) => l.includes('{boundary: "chat_turn_cap"'))?.trim()}`);
    // The accepted id is registered: the live check drops the new call's unknown-id problem.
    await withLogs('the new id is accepted by the live check', () =>
      editor.waitForProblems('no unknown_boundary row on line 11', (all) => rows(all, /unknown_boundary.*\[Ln 11,/).length === 0),
    );
    await editor.screenshot('accepted');
    const newId = await editor.charBox('{boundary: "chat_turn_cap"})', '{boundary: "chat'.length);
    const errors = await editor.squiggleBoxes('error');
    assert.ok(!errors.some((s) => horizontallyCovers(s, newId)), `no error squiggle on the accepted id: ${JSON.stringify(errors)}`);
    editor.timings.scenario3bMs = Math.round(performance.now() - started);
  });

  test('scenario 4: Quick Fix "Register boundary" adds the entry to the registry and clears the problem', async (t) => {
    editor.beginScenario('scenario4');
    const started = performance.now();
    await editor.openFileFromExplorer(SUMMARIZE);
    await editor.waitForLine('summarize.harn to render', (l) => l.includes('boundary: "chat_turn_capp",'));
    await editor.waitForSquiggle('error', 30_000);
    await editor.clickText('boundary: "chat_turn_capp",', 'boundary: "chat_'.length);

    const titles = await withLogs('Quick Fix menu', () => editor.openCodeActions());
    await editor.screenshot('quick-fix-menu');
    t.diagnostic(`Quick Fix items: ${titles.join(' | ')}`);
    const register = `Register boundary 'chat_turn_capp' in ${REGISTRY}`;
    const offered = titles.filter((title) => title.includes(register)).length;
    assert.ok(offered >= 1, `the menu offers "${register}": ${JSON.stringify(titles)}`);
    // Twice while the gate's copy of the diagnostic is still listed (the bug scenario 3a reports).
    if (offered > 1) t.diagnostic(`"${register}" is offered ${offered} times (one per duplicate diagnostic, see scenario 3a)`);
    await editor.pickCodeAction(/Register boundary 'chat_turn_capp'/);

    // The live check follows the edited registry: the problem leaves the Problems panel...
    await withLogs('the problem clears', () =>
      editor.waitForProblems('the chat_turn_capp row to leave the Problems panel', (all) => rows(all, /chat_turn_capp.*not in the registry/).length === 0),
    );
    await editor.screenshot('problem-cleared');
    // ...and the squiggle leaves the id.
    const idChar = await editor.charBox('boundary: "chat_turn_capp",', 'boundary: "chat_'.length);
    const left = await editor.squiggleBoxes('error');
    assert.ok(!left.some((s) => horizontallyCovers(s, idChar)), `no error squiggle on "chat_turn_capp" any more: ${JSON.stringify(left)}`);

    // The registry now holds a [[boundary]] entry for the id, anchored at the file.
    await editor.openFileFromExplorer(REGISTRY);
    const count = await editor.findInEditor('"chat_turn_capp"');
    t.diagnostic(`Find "chat_turn_capp" in the registry: ${count}`);
    const lines = await editor.waitForLine('the new id line in the registry', (l) => l.trim() === 'id = "chat_turn_capp"');
    await editor.screenshot('registry');
    const at = lines.findIndex((l) => l.trim() === 'id = "chat_turn_capp"');
    const entry: string[] = [];
    for (let i = at + 1; i < lines.length && !/^\s*(\[|#|$)/.test(lines[i]!); i++) entry.push(lines[i]!.trim());
    t.diagnostic(`new entry: ${[lines[at - 1], lines[at], ...entry].map((l) => l?.trim()).join(' / ')}`);
    assert.equal(lines[at - 1]?.trim(), '[[boundary]]', `the id line follows a [[boundary]] header:\n${lines.join('\n')}`);
    assert.ok(entry.includes(`anchors = ["${SUMMARIZE}"]`), `the entry anchors the reporting file:\n${lines.join('\n')}`);
    const dirty = await editor.page.locator('.tabs-container .tab.active.dirty').count();
    const onDisk = readFileSync(join(editor.workspace, REGISTRY), 'utf8').includes('"chat_turn_capp"');
    t.diagnostic(`registry tab ${dirty ? 'has unsaved changes' : 'is saved'}; on disk the id is ${onDisk ? 'present' : 'absent'}`);
    editor.timings.scenario4Ms = Math.round(performance.now() - started);
  });

  test('scenario 5: saving Rust edits that break the gate shows its findings in Problems', async (t) => {
    editor.beginScenario('scenario5');
    const started = performance.now();
    await editor.openFileFromExplorer(RESPONSE);
    await editor.waitForLine('response.rs to render', (l) => l.includes('(text, failure)'));
    const before = await editor.waitForProblems('the Problems panel', () => true);
    assert.equal(rows(before, /unregistered_site|stale_entry/).length, 0, `no gate finding before the edit: ${JSON.stringify(before)}`);

    // 1. response.rs also constructs BoundaryId::ChatTurnCap, but is not an anchor of chat_turn_cap.
    await editor.clickText('    (text, failure)', 4, 'before');
    await editor.page.keyboard.type('let _capped = BoundaryId::ChatTurnCap;');
    await editor.page.keyboard.press('Enter');
    await editor.waitForLine('the new construction line', (l) => l.trim() === 'let _capped = BoundaryId::ChatTurnCap;');
    await editor.page.locator('.tabs-container .tab.active.dirty').waitFor({ timeout: 5_000 });
    await editor.screenshot('edited-unsaved');
    // The whole gate re-runs when the file is saved.
    const savedAt = performance.now();
    await editor.page.keyboard.press('Control+S');
    await editor.page.locator('.tabs-container .tab.active.dirty').waitFor({ state: 'detached', timeout: 10_000 });
    assert.match(readFileSync(join(editor.workspace, RESPONSE), 'utf8'), /let _capped = BoundaryId::ChatTurnCap;/, 'the edit is saved to disk');
    const site = await withLogs('unregistered_site after the save', () =>
      editor.waitForProblems('an unregistered_site row for chat_turn_cap', (all) => rows(all, /unregistered_site/).length > 0),
    );
    editor.timings.saveToUnregisteredSiteMs = Math.round(performance.now() - savedAt);
    await editor.screenshot('unregistered-site');
    const siteRow = rows(site, /unregistered_site/)[0]!;
    t.diagnostic(`Problems row: ${siteRow.text}`);
    assert.match(siteRow.text, /chat_turn_cap/, `the finding names chat_turn_cap: ${siteRow.text}`);
    assert.equal(siteRow.severity, 'error', `the finding is an error: ${siteRow.text}`);
    // Shown on the construction site in response.rs.
    const squiggles = await editor.squiggleBoxes('error');
    const variant = await editor.charBox('let _capped = BoundaryId::ChatTurnCap;', 'let _capped = BoundaryId::'.length + 2);
    assert.ok(
      squiggles.some((s) => horizontallyCovers(s, variant)),
      `an error squiggle on BoundaryId::ChatTurnCap in response.rs; squiggles: ${JSON.stringify(squiggles)}`,
    );

    // 2. The only construction of ResponseContentExtraction goes: its entry is stale.
    await editor.clickText('boundary: BoundaryId::ResponseContentExtraction,', 2);
    await editor.page.keyboard.press('Control+Shift+K');
    await editor.waitForLine('response.rs without the construction', (l) => l.includes('detail: format!')).then((lines) =>
      assert.ok(!lines.some((l) => l.includes('BoundaryId::ResponseContentExtraction')), `the construction line is deleted:\n${lines.join('\n')}`),
    );
    const savedAgainAt = performance.now();
    await editor.page.keyboard.press('Control+S');
    await editor.page.locator('.tabs-container .tab.active.dirty').waitFor({ state: 'detached', timeout: 10_000 });
    const stale = await withLogs('stale_entry after the save', () =>
      editor.waitForProblems('a stale_entry row for response_content_extraction', (all) => rows(all, /stale_entry/).length > 0),
    );
    editor.timings.saveToStaleEntryMs = Math.round(performance.now() - savedAgainAt);
    await editor.screenshot('stale-entry');
    const staleRow = rows(stale, /stale_entry/)[0]!;
    t.diagnostic(`Problems row: ${staleRow.text}`);
    assert.match(staleRow.text, /response_content_extraction/, `the stale entry is response_content_extraction: ${staleRow.text}`);
    assert.ok(rows(stale, /unregistered_site/).length > 0, `the unregistered_site finding stays: ${JSON.stringify(stale)}`);
    editor.timings.scenario5Ms = Math.round(performance.now() - started);

    for (const [name, ms] of Object.entries(editor.timings)) t.diagnostic(`${name}: ${ms} ms`);
    if (editor.blockedRequests.length) t.diagnostic(`refused non-loopback requests: ${editor.blockedRequests.join(' ')}`);
  });
});
