// End-to-end tests in a real VS Code (code-server) driven through headless chromium.
// Run: node scripts/run-tests.mjs e2e   (the toolchain installs through scripts/e2e/setup.mjs;
// the suite skips only when it cannot be installed here, and says why).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { join } from 'node:path';
import { Editor, ensureToolchain, packageExtension, type Box, type ToolchainResult } from './harness';

const fixtures = join(__dirname, 'fixtures');

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
    const vsix = packageExtension();
    editor = new Editor(toolchain.toolchain, 'scenario1');
    await editor.open(join(fixtures, 'broken'), vsix);
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
