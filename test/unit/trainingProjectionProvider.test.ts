// The training projection diagnostic of an open run record follows the transcript on disk, even when the transcript
// is replaced while a projection of it is still running (the projection must be keyed by the state it read).

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, test } from 'node:test';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { URI } from 'vscode-uri';
import { TrainingProjectionProvider } from '../../server/src/providers/trainingProjectionProvider';
import { projectTrainingExampleAsync } from '../../server/src/training/project';
import { REPO_ROOT } from '../support/lspClient';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'harn-training-provider-'));
after(() => fs.rmSync(root, { recursive: true, force: true }));

/** Resolves on the provider's next revalidation, or rejects after `ms` saying what did not happen. */
function nextRevalidation(waiters: (() => void)[], ms: number, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(what)), ms);
    waiters.push(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

test('a transcript replaced after it was read, before the projection ends, is projected again: digest_mismatch', async () => {
  const dir = path.join(root, 'run');
  fs.cpSync(path.join(REPO_ROOT, 'examples', 'demo', 'runs', 'healthy'), dir, { recursive: true });
  const runRecord = path.join(dir, 'run.json');
  const transcript = path.join(dir, 'run-llm', 'llm_transcript.jsonl');
  const original = fs.readFileSync(transcript, 'utf8');
  const edited = original.replace('"billing"', '"bug!!!!"');
  assert.notEqual(edited, original);

  let replaced = false;
  // The real projector; the first time it has read the transcript, the file is replaced (as an editor saves).
  const project: typeof projectTrainingExampleAsync = (request, options = {}) =>
    projectTrainingExampleAsync(request, {
      ...options,
      onTranscriptRead: (file, size, mtimeMs) => {
        options.onTranscriptRead?.(file, size, mtimeMs);
        if (replaced) return;
        replaced = true;
        fs.writeFileSync(`${transcript}.tmp`, edited);
        // A different mtime even on a coarse clock: the state the projection read must differ from the new one.
        const later = new Date(fs.statSync(transcript).mtimeMs + 5_000);
        fs.utimesSync(`${transcript}.tmp`, later, later);
        fs.renameSync(`${transcript}.tmp`, transcript);
      },
    });
  const waiters: (() => void)[] = [];
  const provider = new TrainingProjectionProvider(() => waiters.shift()?.(), project);
  const doc = TextDocument.create(URI.file(runRecord).toString(), 'json', 1, fs.readFileSync(runRecord, 'utf8'));
  const codes = (): unknown[] => (provider.diagnostics(doc, 'runRecord') ?? []).map((d) => d.code);

  let done = nextRevalidation(waiters, 10_000, 'the first projection never finished');
  assert.deepEqual(codes(), [], 'nothing is known before the first projection ends');
  await done;
  assert.equal(replaced, true);
  done = nextRevalidation(waiters, 10_000, 'no second projection: the replaced transcript was taken for the one projected');
  assert.deepEqual(codes(), [], 'the first projection (of the original transcript) found nothing; shown while the next runs');
  await done;
  assert.deepEqual(codes(), ['digest_mismatch']);
});
