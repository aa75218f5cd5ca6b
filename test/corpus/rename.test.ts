// Rename on the shared corpus: in each corpus tree (Harn 0.7's conformance suite with its `_common` module, Harn
// 0.10's stdlib with its `std/…` imports), the top-level declaration referenced from the most files is renamed
// through the workspace index; the edits applied, every touched file re-parses with exactly the diagnostics it had,
// and the edited places are exactly the occurrences that go-to-definition (resolve.ts, which walks the ASTs and
// knows nothing of the index) sends to the declaration. Skipped when the corpus is absent.

import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { HarnAnalysis } from '../../server/src/harn/analysis';
import { definitionAt } from '../../server/src/harn/definition';
import { referencesAt } from '../../server/src/harn/index/references';
import { renameAt, RenameEdit } from '../../server/src/harn/index/rename';
import { isWord } from '../../server/src/harn/analysis';
import { corpusFiles, corpusPath, corpusRoot, corpusSkip, readCorpus } from '../support/corpus';
import { memoryIndex } from '../support/harnIndex';
import { memoryHost } from '../support/memoryHost';

const TREES = ['harn-v0.7', 'harn-0.10'];

function treeFiles(tree: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const relative of corpusFiles()) if (relative.startsWith(`${tree}/`)) files[path.join(corpusRoot, relative)] = readCorpus(relative);
  return files;
}

function applied(text: string, analysis: HarnAnalysis, edits: readonly RenameEdit[]): string {
  let out = text;
  const sorted = [...edits].sort((a, b) => analysis.lineIndex.offsetAt(b.range.start) - analysis.lineIndex.offsetAt(a.range.start));
  for (const e of sorted) out = out.slice(0, analysis.lineIndex.offsetAt(e.range.start)) + e.newText + out.slice(analysis.lineIndex.offsetAt(e.range.end));
  return out;
}

const messages = (text: string): string[] => new HarnAnalysis(text).parsed.diagnostics.map((d) => d.message);

describe('rename on the corpus', { skip: corpusSkip }, () => {
  for (const tree of TREES) {
    test(`${tree}: the most imported declaration renamed in its module and every importer`, (t) => {
      const root = corpusPath(tree);
      const files = treeFiles(tree);
      const { index, analysis } = memoryIndex(files, [root]);
      // The top-level declaration whose references reach the most files.
      let best: { file: string; start: number; name: string; files: number } | undefined;
      for (const fileIndex of index.allFiles()) {
        for (const d of fileIndex.declarations) {
          if (!d.topLevel || d.kind === 'parameter') continue;
          const refs = referencesAt(index, fileIndex.file, d.start, true) ?? [];
          const reached = new Set(refs.map((r) => r.file)).size;
          if (!best || reached > best.files || (reached === best.files && `${fileIndex.file}:${d.start}` < `${best.file}:${best.start}`)) {
            best = { file: fileIndex.file, start: d.start, name: d.name, files: reached };
          }
        }
      }
      assert.ok(best && best.files >= 2, `a declaration used from another file in ${tree}: ${JSON.stringify(best)}`);
      const newName = `${best.name}_renamed`;
      t.diagnostic(`${tree}: ${best.name} (${path.relative(root, best.file)}), referenced from ${best.files} files`);
      const edits = renameAt(index, analysis(best.file), best.file, best.start, newName);
      assert.ok(Array.isArray(edits), `renamed: ${JSON.stringify(edits)}`);
      assert.equal(new Set(edits.map((e) => e.file)).size, best.files);

      // What resolve.ts says, independently: every word token named like it that goes to the declaration.
      const host = memoryHost(files, [root]);
      const expected = new Set<string>([`${best.file}:${best.start}`]);
      for (const [file, text] of Object.entries(files)) {
        if (!text.includes(best.name)) continue;
        const a = analysis(file);
        for (const token of a.parsed.tokens) {
          if (!isWord(token) || token.value !== best.name) continue;
          const def = definitionAt(a, file, token.start, host);
          if (def && def.file === best.file && def.start === best.start) expected.add(`${file}:${token.start}`);
        }
      }
      const edited = new Set(edits.map((e) => `${e.file}:${analysis(e.file).lineIndex.offsetAt(e.range.start)}`));
      assert.deepEqual([...edited].sort(), [...expected].sort(), 'exactly the references, as go-to-definition finds them');

      for (const file of new Set(edits.map((e) => e.file))) {
        const before = files[file] ?? '';
        const after = applied(
          before,
          analysis(file),
          edits.filter((e) => e.file === file),
        );
        assert.deepEqual(messages(after), messages(before), `${path.relative(root, file)} parses with the same diagnostics`);
        assert.ok(after.includes(newName));
      }
    });
  }
});
