// The workspace check in a multi-root window: one check per folder, a nested folder's files checked by its own
// check only (never twice), and handed to the outer folder's check when the nested folder is removed.

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { PublishDiagnosticsParams } from 'vscode-languageserver-protocol/node';
import { URI } from 'vscode-uri';
import { TestClient } from '../support/lspClient';

const BROKEN = 'pipelines/broken.harn';
const syntaxErrors = (p: PublishDiagnosticsParams | undefined): number => (p?.diagnostics ?? []).filter((d) => d.source === 'harn.syntax').length;
/** The "workspace check: N file(s) checked … (root)" log lines of one folder. */
const checksOf = (client: TestClient, root: string): string[] =>
  client.logMessages().filter((m) => m.startsWith('workspace check: ') && m.endsWith(`(${root})`));

describe('the workspace check in a multi-root window', () => {
  let client: TestClient;
  let scratch: string;
  let outer: string;
  let inner: string;

  before(async () => {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'harn-multiroot-scan-'));
    outer = path.join(scratch, 'outer');
    inner = path.join(outer, 'inner');
    for (const root of [outer, inner]) {
      fs.mkdirSync(path.join(root, 'pipelines'), { recursive: true });
      fs.writeFileSync(path.join(root, BROKEN), 'let broken = )\n');
      fs.writeFileSync(path.join(root, 'pipelines/ok.harn'), 'let fine = 1\n');
    }
    client = new TestClient();
    await client.initialize([outer, inner]);
  });

  after(async () => {
    await client.shutdown();
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  test("each folder's check covers its own files: the nested folder's are not the outer folder's", async () => {
    for (const root of [outer, inner]) {
      const published = await client.waitForDiagnostics(URI.file(path.join(root, BROKEN)).toString(), (p) => syntaxErrors(p) > 0);
      assert.equal(syntaxErrors(published), 1, `${root}: one syntax error, not one per check`);
    }
    assert.ok(await client.waitUntil(() => checksOf(client, outer).length > 0 && checksOf(client, inner).length > 0));
    // Two files each: outer's check does not walk into the nested folder.
    assert.match(checksOf(client, outer)[0] ?? '', /^workspace check: 2 file\(s\) checked/);
    assert.match(checksOf(client, inner)[0] ?? '', /^workspace check: 2 file\(s\) checked/);
  });

  test("removing the nested folder hands its files to the outer folder's check", async () => {
    const before = checksOf(client, outer).length;
    await client.changeFolders({ removed: [inner] });
    assert.ok(await client.waitUntil(() => checksOf(client, outer).length > before), 'the outer folder is checked again');
    assert.match(checksOf(client, outer).at(-1) ?? '', /^workspace check: 4 file\(s\) checked/);
    const innerBroken = URI.file(path.join(inner, BROKEN)).toString();
    assert.equal(syntaxErrors(client.latestDiagnostics(innerBroken)), 1, 'the nested file keeps its one syntax error');
  });
});
