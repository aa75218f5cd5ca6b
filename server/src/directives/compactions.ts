// Compactions recorded outside the transcript (spec §2, §3), which excuse a prefix break like a compaction row in
// it does: the run record's `observability.compaction_events[]` and `transcript_compacted` events of the run's
// event log. The run record of `<dir>/<stem>-llm/llm_transcript*.jsonl` is `<dir>/<stem>.json` (spec §1,
// Location). The spec does not say where the event log lies: we take `event_log*.jsonl` (rotated segments too)
// in the run's folder `<dir>`, beside the run record, else in the transcript's own folder.
//
// A compaction is placed between two requests by its time (`emitted_at_ms`, or a `timestamp` / `created_at` /
// `at` field: unix seconds as the transcript writes them, milliseconds, or an RFC 3339 date), compared with the
// requests' `timestamp`; without a time on both sides, by its `iteration` against theirs. It excuses request N+1
// when it lies after request N and no later than request N+1; one that cannot be placed excuses nothing.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { isObject } from '../artifacts/json';
import { readFileBytesSync, readFileTextSync, regularFileInfo } from '../workspace/files';

export interface ExternalCompaction {
  /** Where it is recorded, as the hover and tree name it ("run record run.json compaction_events[2]"). */
  source: string;
  sessionId?: string;
  /** Unix milliseconds. */
  atMs?: number;
  iteration?: number;
}

/** A request's position, to place compactions against. */
export interface RequestPosition {
  atMs?: number;
  iteration?: number;
}

/** A time as the artifacts write it: "<unix_secs>.<ms3>" or seconds (transcript), milliseconds, or an RFC 3339 date. */
export function timeMs(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value > 1e11 ? value : value * 1000; // seconds until year 5138
  if (typeof value !== 'string' || value === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return timeMs(Number(value));
  const parsed = Date.parse(value);
  return Number.isNaN(parsed) ? undefined : parsed;
}

function positionOf(o: Record<string, unknown>): RequestPosition {
  const at = typeof o.emitted_at_ms === 'number' && Number.isFinite(o.emitted_at_ms) ? o.emitted_at_ms : timeMs(o.timestamp ?? o.created_at ?? o.at);
  const out: RequestPosition = {};
  if (at !== undefined) out.atMs = at;
  if (typeof o.iteration === 'number' && Number.isSafeInteger(o.iteration)) out.iteration = o.iteration;
  return out;
}

function compaction(source: string, o: Record<string, unknown>): ExternalCompaction {
  const out: ExternalCompaction = { source, ...positionOf(o) };
  if (typeof o.session_id === 'string') out.sessionId = o.session_id;
  return out;
}

/** The `observability.compaction_events[]` of a run record's text (none when it is not one). */
export function runRecordCompactions(text: string, name: string): ExternalCompaction[] {
  let record: unknown;
  try {
    record = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch {
    return [];
  }
  const events = isObject(record) && isObject(record.observability) ? record.observability.compaction_events : undefined;
  if (!Array.isArray(events)) return [];
  const out: ExternalCompaction[] = [];
  events.forEach((e: unknown, i) => {
    if (isObject(e)) out.push(compaction(`run record ${name} compaction_events[${i}]`, e));
  });
  return out;
}

const COMPACTED = Buffer.from('"transcript_compacted"');

/** The `transcript_compacted` events of an event log's bytes; only lines naming the type are parsed. */
export function eventLogCompactions(bytes: Uint8Array, name: string): ExternalCompaction[] {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out: ExternalCompaction[] = [];
  let line = 0;
  let lineStart = 0;
  for (let hit = buffer.indexOf(COMPACTED); hit >= 0; hit = buffer.indexOf(COMPACTED, hit + COMPACTED.length)) {
    if (hit < lineStart) continue; // a second mention on a line already read
    // Count the lines up to the hit (each byte once over the whole scan).
    for (let nl = buffer.indexOf(10, lineStart); nl >= 0 && nl < hit; nl = buffer.indexOf(10, lineStart)) {
      line++;
      lineStart = nl + 1;
    }
    const end = buffer.indexOf(10, hit);
    const text = buffer.toString('utf8', lineStart, end < 0 ? buffer.length : end);
    try {
      const row: unknown = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
      if (isObject(row) && row.type === 'transcript_compacted') out.push(compaction(`${name} line ${line + 1}`, row));
    } catch {
      // a malformed line is the event log's own diagnostic
    }
    if (end < 0) break;
    line++;
    lineStart = end + 1;
  }
  return out;
}

const EVENT_LOG_NAME = /^event_log(-\d+)?\.jsonl$/;
/** The largest run record or event log read for its compactions (each is read whole, once per change). */
const MAX_COMPACTION_SOURCE_BYTES = 256 << 20;

/** The run record and event logs that may record a transcript's compactions (they need not exist). */
export function compactionFilesOf(transcript: string): { runFolder: string; runRecord?: string; eventLogs: string[] } {
  const folder = path.dirname(transcript);
  const stem = /^(.+)-llm$/.exec(path.basename(folder))?.[1];
  const runFolder = stem !== undefined ? path.dirname(folder) : folder;
  let names: string[];
  try {
    names = fs.readdirSync(runFolder);
  } catch {
    names = [];
  }
  const eventLogs = names
    .filter((n) => EVENT_LOG_NAME.test(n))
    .sort()
    .map((n) => path.join(runFolder, n));
  return stem !== undefined ? { runFolder, runRecord: path.join(runFolder, `${stem}.json`), eventLogs } : { runFolder, eventLogs };
}

interface Cached {
  size: number;
  mtimeMs: number;
  compactions: ExternalCompaction[];
}

/** Compactions of the files beside a transcript, read from disk; a file unchanged (size, mtime) is not read again. */
export class CompactionFiles {
  private readonly cache = new Map<string, Cached>();

  of(transcript: string): ExternalCompaction[] {
    const files = compactionFilesOf(transcript);
    const out: ExternalCompaction[] = [];
    // Loops, not spreads: an event log can record any number of compactions.
    const add = (found: readonly ExternalCompaction[]): void => {
      for (const compaction of found) out.push(compaction);
    };
    if (files.runRecord !== undefined)
      add(
        this.read(files.runRecord, (file) => {
          const read = readFileTextSync(file, { maxBytes: MAX_COMPACTION_SOURCE_BYTES });
          return read.ok ? runRecordCompactions(read.text, path.basename(file)) : [];
        }),
      );
    for (const log of files.eventLogs)
      add(
        this.read(log, (file) => {
          // Bounded as the run record is: a bigger event log is not read for its compactions.
          const read = readFileBytesSync(file, { maxBytes: MAX_COMPACTION_SOURCE_BYTES });
          return read.ok ? eventLogCompactions(read.bytes, path.basename(file)) : [];
        }),
      );
    return out;
  }

  /** The files a transcript's compactions come from: a change to one of them changes its checks. */
  isSourceOf(file: string, transcript: string): boolean {
    const files = compactionFilesOf(transcript);
    return file === files.runRecord || (path.dirname(file) === files.runFolder && EVENT_LOG_NAME.test(path.basename(file)));
  }

  private read(file: string, parse: (file: string) => ExternalCompaction[]): ExternalCompaction[] {
    const info = regularFileInfo(file);
    if (!info.ok) {
      this.cache.delete(file);
      return [];
    }
    const known = this.cache.get(file);
    if (known && known.size === info.size && known.mtimeMs === info.mtimeMs) return known.compactions;
    const compactions = parse(file);
    this.cache.set(file, { size: info.size, mtimeMs: info.mtimeMs, compactions });
    return compactions;
  }
}

/**
 * The compaction that lies between two requests of a session (after `previous`, no later than `current`), if any.
 * Compactions naming another session are not theirs.
 */
export function compactionBetween(
  compactions: readonly ExternalCompaction[],
  sessionId: string,
  previous: RequestPosition,
  current: RequestPosition,
): ExternalCompaction | undefined {
  for (const c of compactions) {
    if (c.sessionId !== undefined && sessionId !== '' && c.sessionId !== sessionId) continue;
    if (c.atMs !== undefined && previous.atMs !== undefined && current.atMs !== undefined) {
      if (previous.atMs < c.atMs && c.atMs <= current.atMs) return c;
      continue;
    }
    if (c.iteration !== undefined && previous.iteration !== undefined && current.iteration !== undefined)
      if (previous.iteration < c.iteration && c.iteration <= current.iteration) return c;
  }
  return undefined;
}
