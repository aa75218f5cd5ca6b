// The loud-boundary gate on a generated registry of 50,000 entries (issue 9, "caps instead of crashes"):
// - gate_50k_per_entry_ratio: a cold gate run's time per entry on 50,000 entries over the same on 500 entries
//   (both trees generated alike, measured in this process, interleaved): linear work keeps it near 1;
// - gate_50k_hover_p95_ms: hovers sent one after another to the real server (dist/server.js) while it runs its
//   first gate over the 50,000-entry tree, which it does in slices between requests.
//
// The trees: test/support/bigTree.ts.

import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  createProtocolConnection,
  DidOpenTextDocumentNotification,
  ExitNotification,
  HoverRequest,
  InitializedNotification,
  InitializeRequest,
  LogMessageNotification,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
} from 'vscode-languageserver-protocol/node';
import { URI } from 'vscode-uri';
import { BoundaryGateWorkspace, DEFAULT_GATE_SETTINGS } from '../../server/src/boundaries/workspaceGate';
import { HARN_FILE, writeBigTree } from '../support/bigTree';
import { repoRoot } from '../support/corpus';
import { median, percentile } from './stats';

type Metric = (name: string, value: number, unit: string, goal: string) => void;

function coldRun(root: string): number {
  const started = process.hrtime.bigint();
  const run = new BoundaryGateWorkspace(root, DEFAULT_GATE_SETTINGS).run();
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (run.result.findings.length > 0)
    throw new Error(
      `the generated tree has findings: ${run.result.findings
        .slice(0, 3)
        .map((f) => f.message)
        .join('; ')}`,
    );
  return ms;
}

function perEntry(small: string, big: string, metric: Metric): void {
  for (let i = 0; i < 5; i++) coldRun(small);
  coldRun(big);
  const smallMs: number[] = [];
  const bigMs: number[] = [];
  for (let round = 0; round < 3; round++) {
    for (let i = 0; i < 10; i++) smallMs.push(coldRun(small));
    bigMs.push(coldRun(big));
  }
  const ratio = median(bigMs) / 50_000 / (median(smallMs) / 500);
  console.log(
    `gate_50k_per_entry_ratio: cold gate run (new BoundaryGateWorkspace) on 50,000 entries median ${median(bigMs).toFixed(0)} ms ` +
      `(${((median(bigMs) / 50_000) * 1000).toFixed(1)} µs per entry), on 500 entries median ${median(smallMs).toFixed(1)} ms ` +
      `(${((median(smallMs) / 500) * 1000).toFixed(1)} µs per entry); after warm-up, 3 interleaved rounds`,
  );
  metric('gate_50k_per_entry_ratio', ratio, 'x', '<=2');
}

async function hoverDuringFirstRun(root: string, metric: Metric): Promise<void> {
  const server = spawn(process.execPath, [path.join(repoRoot, 'dist', 'server.js'), '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
  server.stderr.resume();
  const connection = createProtocolConnection(new StreamMessageReader(server.stdout), new StreamMessageWriter(server.stdin));
  let gateLine: string | undefined;
  connection.onNotification(LogMessageNotification.type, (p) => {
    if (p.message.startsWith('loud-boundary gate (workspace opened)')) gateLine = p.message;
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
    const file = path.join(root, HARN_FILE);
    const uri = URI.file(file).toString();
    const text = fs.readFileSync(file, 'utf8');
    await connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'harn', version: 1, text } });
    const position = { line: 1, character: text.split('\n')[1]?.indexOf('boundary_0') ?? 0 };
    const samples: number[] = [];
    let answered = 0;
    while (gateLine === undefined) {
      const t = process.hrtime.bigint();
      const hover = await connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position });
      samples.push(Number(process.hrtime.bigint() - t) / 1e6);
      if (hover !== null) answered++;
    }
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    console.log(
      `gate_50k_hover_p95_ms: ${samples.length} hovers, one after another, during the server's first gate run (${seconds.toFixed(1)} s from initialize; "${gateLine}"): ` +
        `p50 ${percentile(samples, 50).toFixed(1)} ms, p95 ${percentile(samples, 95).toFixed(1)} ms, max ${Math.max(...samples).toFixed(1)} ms; ${answered} with a hover`,
    );
    metric('gate_50k_hover_p95_ms', percentile(samples, 95), 'ms', '<=50');
    await connection.sendRequest(ShutdownRequest.type);
    await connection.sendNotification(ExitNotification.type);
  } finally {
    connection.dispose();
    server.kill();
  }
}

export async function runBigRegistryBenchmarks(metric: Metric, wanted: (name: string) => boolean): Promise<void> {
  if (!wanted('gate_50k_per_entry_ratio') && !wanted('gate_50k_hover_p95_ms')) return;
  const big = writeBigTree(50_000);
  const small = writeBigTree(500);
  try {
    if (wanted('gate_50k_per_entry_ratio')) perEntry(small, big, metric);
    if (wanted('gate_50k_hover_p95_ms')) await hoverDuringFirstRun(big, metric);
  } finally {
    fs.rmSync(big, { recursive: true, force: true });
    fs.rmSync(small, { recursive: true, force: true });
  }
}
