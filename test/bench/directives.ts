// Directive-check benchmarks (issue 11): prefix_check_linearity (a 100 MB transcript vs ten times a 10 MB one, the
// same generator) and transcript_1gb_rss_mb (peak RSS of a fresh process validating a generated 1 GB transcript from
// disk, directive checks included). Transcripts are generated into os.tmpdir() and deleted afterwards. Each
// measurement runs in its own child process (this bundle, `--child-directives MODE FILE`).

import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { validateArtifactFile } from '../../server/src/artifacts/validate';
import { median, mulberry32 } from './stats';

type Metric = (name: string, value: number, unit: string, goal: string) => void;

const WORDS = 'the a to of and in is it for on with as file function return value error test result call tool 読む café ✓'.split(' ');

/**
 * A verbose transcript with directives: sessions of up to 40 turns, each turn a user or tool message, an envelope
 * every few turns (with ids, sometimes a re-issue, a withdrawn turn now and then), an assistant reply, and a
 * request whose snapshot is the whole session so far (the exact array sent) in every other session, replayed in the rest.
 * A slot is rewritten now and then (a prefix break), and a compaction row restarts a session's prefix.
 */
export function writeDirectiveTranscript(file: string, targetBytes: number, seed = 7): number {
  const random = mulberry32(seed);
  const int = (lo: number, hi: number): number => lo + Math.floor(random() * (hi - lo + 1));
  const text = (n: number): string => {
    let out = '';
    while (out.length < n) out += (WORDS[int(0, WORDS.length - 1)] ?? 'x') + ' ';
    return out;
  };
  const fd = fs.openSync(file, 'w');
  let bytes = 0;
  let buffer: string[] = [];
  let buffered = 0;
  const write = (row: unknown): void => {
    const line = JSON.stringify(row) + '\n';
    buffer.push(line);
    buffered += line.length;
    bytes += Buffer.byteLength(line);
    if (buffered > 1 << 20) {
      fs.writeSync(fd, buffer.join(''));
      buffer = [];
      buffered = 0;
    }
  };
  let sessionNumber = 0;
  while (bytes < targetBytes) {
    const session = `s-${sessionNumber++}`;
    const history: Record<string, unknown>[] = [];
    const add = (m: Record<string, unknown>, index = history.length): void => {
      history[index] = m;
      history.length = index + 1;
      write({
        type: 'message',
        timestamp: '1767225600.000',
        span_id: null,
        session_id: session,
        message_index: index,
        role: m.role,
        content: m.content,
        message: m,
      });
    };
    add({ role: 'user', content: text(int(200, 2000)) });
    for (let turn = 0; turn < 40 && bytes < targetBytes; turn++) {
      if (turn % 4 === 1) {
        const body = `${text(int(40, 300))}</directive> quoted`;
        add({
          role: 'user',
          content: `<context-directives speaker="harness">\nFollow each directive.\n<directive authority="${turn % 8 === 1 ? 'contract' : 'advisory'}" ttl_turns="3">\n${body}\n</directive>\n</context-directives>`,
          _harn_directive_ids: [`r-${turn % 12}`],
        });
      }
      if (turn % 13 === 7) add({ role: 'assistant', content: '[withdrawn]', harn_bookkeeping_turn: true });
      if (turn % 17 === 9 && history.length > 2) add({ role: 'user', content: text(100) }, 1);
      if (turn % 19 === 11) write({ type: 'transcript_compacted', session_id: session, timestamp: '1767225600.000' });
      const request: Record<string, unknown> = {
        type: 'provider_call_request',
        timestamp: '1767225600.000',
        span_id: null,
        call_id: `${session}-c${turn}`,
        iteration: turn,
        message_count: history.length,
      };
      if (sessionNumber % 2 === 0) request.request_snapshot = { system: 'You are a careful agent.', messages: history };
      write(request);
      add({ role: 'assistant', content: text(int(100, 1500)) });
      add({ role: 'tool', content: text(int(200, 4000)) });
    }
    write({ type: 'agent_session_finalized', timestamp: '1767225600.000', span_id: null, session_id: session, final_status: 'done', terminal: true });
  }
  fs.writeSync(fd, buffer.join(''));
  fs.closeSync(fd);
  return bytes;
}

/** `--child-directives MODE FILE`: prints one JSON result. */
export function directiveChild(args: string[]): void {
  const [mode, file] = args;
  if (file === undefined) throw new Error('--child-directives: the file');
  if (mode === 'time') {
    const seconds: number[] = [];
    for (let i = 0; i < 3; i++) {
      const start = process.hrtime.bigint();
      validateArtifactFile('transcript', file, { fileName: file });
      seconds.push(Number(process.hrtime.bigint() - start) / 1e9);
    }
    console.log(JSON.stringify({ seconds: median(seconds) }));
  } else if (mode === 'rss') {
    const start = process.hrtime.bigint();
    const result = validateArtifactFile('transcript', file, { fileName: file });
    const codes: Record<string, number> = {};
    for (const p of result.problems) codes[p.code] = (codes[p.code] ?? 0) + 1;
    console.log(
      JSON.stringify({
        maxRss: process.resourceUsage().maxRSS * 1024,
        seconds: Number(process.hrtime.bigint() - start) / 1e9,
        lines: result.summaries.length,
        codes,
      }),
    );
  } else throw new Error(`unknown mode ${String(mode)}`);
}

function child<T>(script: string, args: string[]): T {
  const result = spawnSync(process.execPath, [script, '--child-directives', ...args], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
  if (result.status !== 0) throw new Error(`child ${args.join(' ')} failed: ${result.stderr}`);
  return JSON.parse(result.stdout.trim().split('\n').pop() ?? '') as T;
}

export function runDirectiveBenchmarks(metric: Metric, wanted: (name: string) => boolean, script: string): void {
  if (!wanted('prefix_check_linearity') && !wanted('transcript_1gb_rss_mb')) return;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'harn-directive-bench-'));
  try {
    if (wanted('prefix_check_linearity')) {
      const small = path.join(dir, 'small', 'llm_transcript.jsonl');
      const big = path.join(dir, 'big', 'llm_transcript.jsonl');
      fs.mkdirSync(path.dirname(small));
      fs.mkdirSync(path.dirname(big));
      const smallBytes = writeDirectiveTranscript(small, 10 * 1024 * 1024);
      const bigBytes = writeDirectiveTranscript(big, 100 * 1024 * 1024);
      const ratios: number[] = [];
      const rounds: string[] = [];
      for (let round = 0; round < 3; round++) {
        const a = child<{ seconds: number }>(script, ['time', small]).seconds;
        const b = child<{ seconds: number }>(script, ['time', big]).seconds;
        // Per byte, so that the two files' slightly different sizes do not count.
        ratios.push(b / bigBytes / (a / smallBytes));
        rounds.push(`${a.toFixed(3)} s / ${b.toFixed(3)} s`);
      }
      console.log(`prefix checks: ${(smallBytes / 1e6).toFixed(1)} MB vs ${(bigBytes / 1e6).toFixed(1)} MB transcripts, per round ${rounds.join(', ')}`);
      metric('prefix_check_linearity', median(ratios), 'x', '<=1.1');
    }
    if (wanted('transcript_1gb_rss_mb')) {
      const file = path.join(dir, 'gb', 'llm_transcript.jsonl');
      fs.mkdirSync(path.dirname(file));
      const bytes = writeDirectiveTranscript(file, 1024 * 1024 * 1024, 11);
      const run = child<{ maxRss: number; seconds: number; lines: number; codes: Record<string, number> }>(script, ['rss', file]);
      console.log(`1 GB transcript: ${(bytes / 1e6).toFixed(0)} MB, ${run.lines} lines in ${run.seconds.toFixed(1)} s, problems ${JSON.stringify(run.codes)}`);
      fs.rmSync(file);
      metric('transcript_1gb_rss_mb', run.maxRss / 1e6, 'MB', '<=256');
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
