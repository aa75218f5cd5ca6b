// The server's work per keystroke in the 5,000-line file test/bench/harn.ts assembles, with the keystrokes of a
// typing session (typing.ts), every step through the server's own path: the document updated by the change, the
// workspace's analysis (HarnAnalysis.edited on its cached previous version), the diagnostics and outline it
// sends back, the file re-indexed from its previous index (which the server does lazily, on the next cross-file
// query: here on every keystroke), and the semantic-token delta through the document's SemanticTokensCache.
// Three figures of the same run: keystroke_p95_ms (all of it), semantic_tokens_delta_p95_ms (the change to the
// delta) and index_update_p95_ms (the re-index alone).

import { TextDocument } from 'vscode-languageserver-textdocument';
import { harnSyntaxDiagnostics } from '../../server/src/diagnostics';
import { allOccurrences, indexFile } from '../../server/src/harn/index/fileIndex';
import { encodeTokens, semanticTokens, SemanticTokensCache, tokenEdits } from '../../server/src/harn/semanticTokens';
import { documentSymbolsOf } from '../../server/src/providers/harnProvider';
import { HarnWorkspace, uriToPath } from '../../server/src/workspace/harnWorkspace';
import { assembleFile } from './harn';
import { median, mulberry32, percentile } from './stats';
import { TypingSession } from './typing';

type Metric = (name: string, value: number, unit: string, goal: string) => void;

const URI = 'file:///bench/bench.harn';
const WARM_UP = 40;
const MEASURED = 400;

interface SessionFigures {
  whole: number[];
  toDelta: number[];
  reindex: number[];
  parts: { analysis: number[]; tokens: number[]; diagnosticsAndOutline: number[] };
  full: number;
  reusedStatements: number;
  lines: number;
  statements: number;
  syntaxErrors: number;
}

/**
 * The typing session on a fresh document and workspace, the keystrokes after the first WARM_UP timed. Run twice:
 * the first time V8 is still compiling and deoptimising the server's code (with --trace-opt --trace-deopt, about
 * 170 compilations and 25 deoptimisations per hundred keystrokes up to the 200th, about 5 and 0–4 after), and
 * those pauses, not the server's work, set that run's p95. The second run types the same keystrokes into a new
 * document with nothing kept from the first but the process: the figures are of a server past its first minute.
 */
function typingSession(sources: string[]): SessionFigures {
  let doc = TextDocument.create(URI, 'harn', 1, assembleFile(sources, 5000));
  const workspace = new HarnWorkspace({ get: (uri) => (uri === URI ? doc : undefined) }, () => []);
  const file = uriToPath(URI);
  const cache = new SemanticTokensCache();
  let analysis = workspace.analysisOf(doc);
  let index = indexFile(file, analysis, { reusable: true });
  let data = cache.encoded(analysis, file, workspace);
  const session = new TypingSession(mulberry32(42));
  const whole: number[] = [];
  const toDelta: number[] = [];
  const reindex: number[] = [];
  const parts = { analysis: [] as number[], tokens: [] as number[], diagnosticsAndOutline: [] as number[] };
  let full = 0;
  let reusedStatements = 0;
  const since = (from: bigint): number => Number(process.hrtime.bigint() - from) / 1e6;

  for (let k = 0; k < WARM_UP + MEASURED; k++) {
    const key = session.next(analysis);
    const change = { range: { start: doc.positionAt(key.start), end: doc.positionAt(key.end) }, text: key.text };
    const started = process.hrtime.bigint();
    doc = TextDocument.update(doc, [change], doc.version + 1);
    analysis = workspace.analysisOf(doc);
    const analysed = since(started);
    const tokensFrom = process.hrtime.bigint();
    const next = cache.encoded(analysis, file, workspace);
    tokenEdits(data, next);
    data = next;
    const tokensMs = since(tokensFrom);
    const shownFrom = process.hrtime.bigint();
    harnSyntaxDiagnostics(analysis);
    documentSymbolsOf(analysis);
    const shownMs = since(shownFrom);
    const indexFrom = process.hrtime.bigint();
    index = indexFile(file, analysis, { previous: index });
    const indexMs = since(indexFrom);
    const total = since(started);
    if (k < WARM_UP) continue;
    whole.push(total);
    toDelta.push(analysed + tokensMs);
    reindex.push(indexMs);
    parts.analysis.push(analysed);
    parts.tokens.push(tokensMs);
    parts.diagnosticsAndOutline.push(shownMs);
    if (analysis.reparsed === 'full') full++;
    reusedStatements += index.reusedStatements;
  }

  // The cached answers must be what a fresh computation gives, else the figures measure the wrong thing.
  const fresh = encodeTokens(semanticTokens(analysis, file, workspace), analysis.lineIndex);
  if (fresh.length !== data.length || fresh.some((v, i) => v !== data[i])) throw new Error('cached semantic tokens differ from a fresh computation');
  if (JSON.stringify(allOccurrences(indexFile(file, analysis))) !== JSON.stringify(allOccurrences(index)))
    throw new Error('the re-indexed file differs from a fresh index');
  const statements = analysis.file.statements.length;
  return { whole, toDelta, reindex, parts, full, reusedStatements, lines: doc.lineCount, statements, syntaxErrors: analysis.parsed.diagnostics.length };
}

export function runKeystrokeBenchmarks(sources: string[], metric: Metric, wanted: (name: string) => boolean): void {
  if (!['keystroke_p95_ms', 'semantic_tokens_delta_p95_ms', 'index_update_p95_ms'].some(wanted)) return;
  const cold = typingSession(sources);
  const { whole, toDelta, reindex, parts, full, reusedStatements, lines, statements, syntaxErrors } = typingSession(sources);
  const shown = (xs: number[]): string => `median ${median(xs).toFixed(2)}, p95 ${percentile(xs, 95).toFixed(2)} ms`;
  console.log(`keystroke (typing session), first run, while V8 still compiles the server's code: whole ${shown(cold.whole)} (not a goal)`);
  console.log(
    `keystroke (typing session), second run: ${lines} lines, ${statements} statements, ${syntaxErrors} syntax errors at the end; ` +
      `${MEASURED} keystrokes, ${full} re-parsed in full; whole ${shown(whole)} = analysis ${shown(parts.analysis)} + ` +
      `semantic tokens and delta ${shown(parts.tokens)} + diagnostics and outline ${shown(parts.diagnosticsAndOutline)} + index ${shown(reindex)} ` +
      `(${(reusedStatements / MEASURED).toFixed(1)} statements reused per keystroke)`,
  );
  if (wanted('keystroke_p95_ms')) metric('keystroke_p95_ms', percentile(whole, 95), 'ms', '<=5');
  if (wanted('semantic_tokens_delta_p95_ms')) metric('semantic_tokens_delta_p95_ms', percentile(toDelta, 95), 'ms', '<=5');
  if (wanted('index_update_p95_ms')) metric('index_update_p95_ms', percentile(reindex, 95), 'ms', '<=1');
}
