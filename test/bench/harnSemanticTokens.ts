// Semantic tokens per keystroke: one edit of the 5,000-line file test/bench/harn.ts assembles, then the delta the
// server answers semanticTokens/full/delta with, through the provider's own path: the workspace's analysis
// (HarnAnalysis.edited on its cached previous version), the document's SemanticTokensCache, tokenEdits.

import { Position, TextDocument } from 'vscode-languageserver-textdocument';
import { encodeTokens, semanticTokens, SemanticTokensCache, tokenEdits } from '../../server/src/harn/semanticTokens';
import { HarnWorkspace, uriToPath } from '../../server/src/workspace/harnWorkspace';
import { assembleFile } from './harn';
import { median, mulberry32, percentile } from './stats';

type Metric = (name: string, value: number, unit: string, goal: string) => void;

const URI = 'file:///bench/bench.harn';

export function semanticTokensDelta(sources: string[], metric: Metric): void {
  let doc = TextDocument.create(URI, 'harn', 1, assembleFile(sources, 5000));
  const workspace = new HarnWorkspace({ get: (uri) => (uri === URI ? doc : undefined) }, () => []);
  const file = uriToPath(URI);
  const cache = new SemanticTokensCache();
  const random = mulberry32(15);
  const alphabet = 'abcdefghijklmnopqrstuvwxyz (){}[]".,=\n';
  let data = cache.encoded(workspace.analysisOf(doc), file, workspace);

  const total: number[] = [];
  const tokensOnly: number[] = [];
  /** Keystroke to delta, split by whether HarnAnalysis.edited re-read one statement or parsed the whole file. */
  const split = { incremental: [] as number[], full: [] as number[] };
  /** The same split, for the tokens and the delta alone. */
  const tokensSplit = { incremental: [] as number[], full: [] as number[] };
  let recomputed = 0;
  /** One change through the provider's path, timed: the analysis, then the document's tokens and their delta. */
  const measured = (change: { range: { start: Position; end: Position }; text: string }): void => {
    doc = TextDocument.update(doc, [change], doc.version + 1);
    const started = process.hrtime.bigint();
    const analysis = workspace.analysisOf(doc);
    const analysed = process.hrtime.bigint();
    const next = cache.encoded(analysis, file, workspace);
    const edits = tokenEdits(data, next);
    const done = process.hrtime.bigint();
    if (edits.length > 1) throw new Error('tokenEdits gives at most one edit');
    data = next;
    total.push(Number(done - started) / 1e6);
    split[analysis.reparsed === 'full' ? 'full' : 'incremental'].push(Number(done - started) / 1e6);
    tokensOnly.push(Number(done - analysed) / 1e6);
    tokensSplit[analysis.reparsed === 'full' ? 'full' : 'incremental'].push(Number(done - analysed) / 1e6);
    recomputed += cache.lastRun.computed;
  };
  // A keystroke in the 5,000-line file, then its undo (a keystroke too): every keystroke lands in that file, not in
  // one that random typing has left with an unclosed string or brace swallowing the rest.
  const keystroke = (): void => {
    const offset = Math.floor(random() * (doc.getText().length - 1));
    const position = doc.positionAt(offset);
    if (random() < 0.7) {
      const typed = alphabet.charAt(Math.floor(random() * alphabet.length));
      measured({ range: { start: position, end: position }, text: typed });
      measured({ range: { start: position, end: doc.positionAt(offset + typed.length) }, text: '' });
    } else {
      const deleted = doc.getText().slice(offset, offset + 1);
      measured({ range: { start: position, end: doc.positionAt(offset + 1) }, text: '' });
      measured({ range: { start: position, end: position }, text: deleted });
    }
  };
  for (let i = 0; i < 10; i++) keystroke();
  total.length = 0;
  tokensOnly.length = 0;
  for (const samples of [split.incremental, split.full, tokensSplit.incremental, tokensSplit.full]) samples.length = 0;
  recomputed = 0;
  for (let i = 0; i < 100; i++) keystroke();

  // The cache must have given what a fresh computation gives (else the figure measures the wrong thing).
  const analysis = workspace.analysisOf(doc);
  const fresh = encodeTokens(semanticTokens(analysis, file, workspace), analysis.lineIndex);
  if (fresh.length !== data.length || fresh.some((v, i) => v !== data[i])) throw new Error('cached semantic tokens differ from a fresh computation');

  console.log(
    `semantic tokens delta: ${doc.lineCount} lines, ${analysis.file.statements.length} statements, ${data.length / 5} tokens; ` +
      `keystroke → delta (200, half of them undoing the one before) median ${median(total).toFixed(2)} ms (tokens and delta alone: median ${median(tokensOnly).toFixed(2)}, ` +
      `p95 ${percentile(tokensOnly, 95).toFixed(2)} ms); ${(recomputed / 200).toFixed(1)} statements recomputed per keystroke; ` +
      (['incremental', 'full'] as const)
        .map((kind) => {
          const all = split[kind];
          const tokens = tokensSplit[kind];
          if (all.length === 0) return `${kind} 0`;
          return (
            `${kind} ${all.length}: median ${median(all).toFixed(2)}, p95 ${percentile(all, 95).toFixed(2)} ms ` +
            `(tokens and delta alone ${median(tokens).toFixed(2)}, p95 ${percentile(tokens, 95).toFixed(2)})`
          );
        })
        .join('; '),
  );
  metric('semantic_tokens_delta_p95_ms', percentile(total, 95), 'ms', '<=5');
}
