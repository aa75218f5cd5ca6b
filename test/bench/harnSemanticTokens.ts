// Semantic tokens per keystroke: one edit of the 5,000-line file test/bench/harn.ts assembles, then the delta the
// server answers semanticTokens/full/delta with, through the provider's own path: the workspace's analysis
// (HarnAnalysis.edited on its cached previous version), the document's SemanticTokensCache, tokenEdits.

import { TextDocument } from 'vscode-languageserver-textdocument';
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
  let recomputed = 0;
  const keystroke = (): void => {
    const offset = Math.floor(random() * doc.getText().length);
    const position = doc.positionAt(offset);
    const change =
      random() < 0.7
        ? { range: { start: position, end: position }, text: alphabet.charAt(Math.floor(random() * alphabet.length)) }
        : { range: { start: position, end: doc.positionAt(offset + 1) }, text: '' };
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
    tokensOnly.push(Number(done - analysed) / 1e6);
    recomputed += cache.lastRun.computed;
  };
  for (let i = 0; i < 20; i++) keystroke();
  total.length = 0;
  tokensOnly.length = 0;
  recomputed = 0;
  for (let i = 0; i < 200; i++) keystroke();

  // The cache must have given what a fresh computation gives (else the figure measures the wrong thing).
  const analysis = workspace.analysisOf(doc);
  const fresh = encodeTokens(semanticTokens(analysis, file, workspace), analysis.lineIndex);
  if (fresh.length !== data.length || fresh.some((v, i) => v !== data[i])) throw new Error('cached semantic tokens differ from a fresh computation');

  console.log(
    `semantic tokens delta: ${doc.lineCount} lines, ${analysis.file.statements.length} statements, ${data.length / 5} tokens; ` +
      `keystroke → delta median ${median(total).toFixed(2)} ms (tokens and delta alone: median ${median(tokensOnly).toFixed(2)}, ` +
      `p95 ${percentile(tokensOnly, 95).toFixed(2)} ms); ${(recomputed / 200).toFixed(1)} statements recomputed per keystroke`,
  );
  metric('semantic_tokens_delta_p95_ms', percentile(total, 95), 'ms', '<=5');
}
