// scan_hover_p95_ms: hovers sent one after another to the real server (dist/server.js) while it runs its first
// workspace check (harn.diagnostics.scope: workspace) over a generated tree of 3,000 files: 2,700 `.harn` sources
// of realistic size (the shared corpus's files in turn when it is there, else generated ones of ~4 KB), 200
// transcripts and 100 event logs (the demo's healthy run, a tenth of each kind broken). Prints how long the scan
// took (the server's own "workspace check:" log line and the wall time from initialize).

import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  createProtocolConnection,
  DidOpenTextDocumentNotification,
  ExitNotification,
  HoverRequest,
  InitializedNotification,
  InitializeRequest,
  LogMessageNotification,
  PublishDiagnosticsNotification,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
} from 'vscode-languageserver-protocol/node';
import { URI } from 'vscode-uri';
import { corpusFiles, corpusSkip, readCorpus, repoRoot } from '../support/corpus';
import { percentile } from './stats';

type Metric = (name: string, value: number, unit: string, goal: string) => void;

const HARN_FILES = 2700;
const TRANSCRIPTS = 200;
const EVENT_LOGS = 100;
const HOVERED = 'src/hovered.harn';
const HOVERED_TEXT = '/** Adds two numbers. */\npub fn add(a, b) {\n  return a + b\n}\n\npipeline main() {\n  let total = add(1, 2)\n  log(total)\n}\n';

function generatedHarn(i: number): string {
  const fns = Array.from(
    { length: 30 },
    (_, k) =>
      `/** Helper ${k} of module ${i}. */\npub fn helper_${k}(items, limit) {\n  let kept = items.filter({ x -> x > ${k} })\n  return kept.take(limit)\n}\n`,
  );
  return `import "std/text"\n\n${fns.join('\n')}`;
}

function writeTree(): { root: string; harnBytes: number } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'harn-scan-bench-'));
  const put = (rel: string, text: string): void => {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  };
  const sources = corpusSkip ? [] : corpusFiles().map((f) => readCorpus(f));
  let harnBytes = 0;
  for (let i = 0; i < HARN_FILES; i++) {
    const text = sources.length > 0 ? (sources[i % sources.length] ?? '') : generatedHarn(i);
    harnBytes += Buffer.byteLength(text);
    put(`src/pkg_${Math.floor(i / 100)}/module_${i}.harn`, text);
  }
  put(HOVERED, HOVERED_TEXT);
  const demoRun = path.join(repoRoot, 'examples', 'demo', 'runs', 'healthy');
  const transcript = fs.readFileSync(path.join(demoRun, 'run-llm', 'llm_transcript.jsonl'), 'utf8');
  const eventLog = fs.readFileSync(path.join(demoRun, 'event_log.jsonl'), 'utf8');
  for (let i = 0; i < TRANSCRIPTS; i++) put(`runs/run_${i}/llm_transcript.jsonl`, i % 10 === 0 ? transcript + '{"type": "cut\n' : transcript);
  for (let i = 0; i < EVENT_LOGS; i++) put(`runs/run_${i}/event_log.jsonl`, i % 10 === 0 ? eventLog + 'not json\n' : eventLog);
  return { root, harnBytes };
}

async function hoverDuringFirstScan(root: string, metric: Metric): Promise<void> {
  const server = spawn(process.execPath, [path.join(repoRoot, 'dist', 'server.js'), '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
  server.stderr.resume();
  const connection = createProtocolConnection(new StreamMessageReader(server.stdout), new StreamMessageWriter(server.stdin));
  let scanLine: string | undefined;
  let withProblems = 0;
  connection.onNotification(LogMessageNotification.type, (p) => {
    if (p.message.startsWith('workspace check:')) scanLine = p.message;
  });
  connection.onNotification(PublishDiagnosticsNotification.type, (p) => {
    if (p.diagnostics.length > 0) withProblems++;
  });
  connection.listen();
  try {
    const started = process.hrtime.bigint();
    await connection.sendRequest(InitializeRequest.type, {
      processId: process.pid,
      rootUri: URI.file(root).toString(),
      workspaceFolders: [{ uri: URI.file(root).toString(), name: path.basename(root) }],
      capabilities: {},
    });
    await connection.sendNotification(InitializedNotification.type, {});
    const uri = URI.file(path.join(root, HOVERED)).toString();
    await connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'harn', version: 1, text: HOVERED_TEXT } });
    const position = { line: 6, character: 15 }; // `add` in `add(1, 2)`
    const samples: number[] = [];
    let answered = 0;
    // Hovers from the start: the scan begins after the gate's first run (none here: no registry), within milliseconds.
    while (scanLine === undefined) {
      const t = process.hrtime.bigint();
      const hover = await connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position });
      samples.push(Number(process.hrtime.bigint() - t) / 1e6);
      if (hover !== null) answered++;
    }
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    console.log(
      `scan_hover_p95_ms: ${samples.length} hovers, one after another, during the server's first workspace check of ${HARN_FILES + 1 + TRANSCRIPTS + EVENT_LOGS} files ` +
        `(${seconds.toFixed(1)} s from initialize; "${scanLine}"; ${withProblems} publications with problems): ` +
        `p50 ${percentile(samples, 50).toFixed(1)} ms, p95 ${percentile(samples, 95).toFixed(1)} ms, max ${Math.max(...samples).toFixed(1)} ms; ${answered} with a hover`,
    );
    metric('scan_hover_p95_ms', percentile(samples, 95), 'ms', '<=50');
    await connection.sendRequest(ShutdownRequest.type);
    await connection.sendNotification(ExitNotification.type);
  } finally {
    connection.dispose();
    server.kill();
  }
}

export async function runWorkspaceScanBenchmarks(metric: Metric, wanted: (name: string) => boolean): Promise<void> {
  if (!wanted('scan_hover_p95_ms')) return;
  const { root, harnBytes } = writeTree();
  console.log(
    `scan_hover_p95_ms tree: ${HARN_FILES + 1} .harn files (${(harnBytes / 1e6).toFixed(1)} MB, ${corpusSkip ? 'generated' : 'the shared corpus in turn'}), ${TRANSCRIPTS} transcripts, ${EVENT_LOGS} event logs`,
  );
  try {
    await hoverDuringFirstScan(root, metric);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}
