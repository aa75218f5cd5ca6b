// The folder the electron suite opens: a temporary copy of examples/demo with the e2e fixtures over
// it, so that one VS Code window holds every scenario of test/e2e/editor.test.ts:
//   broken/main.harn                               scenario 1 (test/e2e/fixtures/broken/main.harn)
//   crates/harn-stdlib/src/stdlib/agent/summarize.harn   scenarios 3-4 (test/e2e/fixtures/demo-overlay:
//                                                  reports `boundary: "chat_turn_capp"`, one letter too many)
//   runs/tampered/                                 scenario 6 (runs/healthy with one character of its
//                                                  transcript changed, same length: only the sha256 is wrong)
// examples/ is never touched.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const repoRoot = resolve(__dirname, '..', '..');
const fixtures = join(repoRoot, 'test', 'e2e', 'fixtures');

export const BROKEN = 'broken/main.harn';
export const HEALTHY = 'runs/healthy';
export const TAMPERED = 'runs/tampered';
export const TRANSCRIPT = 'run-llm/llm_transcript.jsonl';

/** Creates the workspace under a new temporary folder; returns the folder (the caller removes it). */
export function prepareWorkspace(): { root: string; workspace: string } {
  const root = mkdtempSync(join(tmpdir(), 'harn-electron-'));
  const workspace = join(root, 'demo');
  cpSync(join(repoRoot, 'examples', 'demo'), workspace, { recursive: true });
  cpSync(join(fixtures, 'demo-overlay'), workspace, { recursive: true });
  mkdirSync(join(workspace, 'broken'), { recursive: true });
  cpSync(join(fixtures, 'broken', 'main.harn'), join(workspace, BROKEN));

  cpSync(join(workspace, HEALTHY), join(workspace, TAMPERED), { recursive: true });
  const transcript = join(workspace, TAMPERED, TRANSCRIPT);
  const original = readFileSync(transcript);
  const changed = Buffer.from(original.toString('utf8').replace('Charged twice', 'Charged twicE'), 'utf8');
  if (changed.equals(original) || changed.length !== original.length) {
    throw new Error(`could not make ${TAMPERED}: "Charged twice" is not in ${HEALTHY}/${TRANSCRIPT} any more`);
  }
  writeFileSync(transcript, changed);
  return { root, workspace };
}
