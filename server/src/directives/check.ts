// The directive contracts over a transcript (spec §1, §4), streamed row by row in file order. Linear: each
// request's message array is compared with the previous one of its session once, per message, by hash (snapshot)
// or by the rows that rewrote a slot (replay); nothing re-serialises a history. Memory: per session one hash or
// one line number per message, the committed directive set, and (only when asked, for the editor's tree and hover)
// one record per request. A replay slot rewritten between two requests is confirmed at the end by re-reading the
// two rows (the caller supplies their text: from the document, or from disk through the line index).

import { isObject } from '../artifacts/json';
import type { ArtifactSeverity } from '../artifacts/types';
import { compactionBetween, type ExternalCompaction, type RequestPosition } from './compactions';
import type { EnvelopeProblem } from './envelope';
import { normalizedBody } from './envelope';
import { WITHDRAWN_TURN_FALLBACK, withIds, type DirectiveFacts, type DirectiveRowFacts, type EnvelopeFacts, type JsonPath, type MessageFacts } from './facts';

export const DIRECTIVES_SOURCE = 'harn.directives';

export const DIRECTIVE_SEVERITY = {
  prefix_break: 'warning',
  directive_reissued: 'warning',
  withdrawn_turn_not_restated: 'error',
  nonce_mismatch: 'warning',
  invalid_authority: 'warning',
  invalid_ttl_turns: 'warning',
  invalid_speaker: 'warning',
  malformed_envelope: 'warning',
  unknown_directive_attribute: 'information',
} as const satisfies Record<string, ArtifactSeverity>;

export type DirectiveCode = keyof typeof DIRECTIVE_SEVERITY;

export interface DirectiveProblem {
  line: number;
  code: DirectiveCode;
  severity: ArtifactSeverity;
  message: string;
  data?: Record<string, unknown>;
  /** Where in the row: the string at `path`, decoded offsets [start, end) (else the whole row). */
  at?: { path: JsonPath; start: number; end: number };
}

export interface EnvelopeRef {
  line: number;
  envelope: EnvelopeFacts;
}

export interface RequestRecord {
  line: number;
  label: string;
  callId?: string;
  iteration?: number;
  messageCount: number;
  ordinal: number;
  prefix: 'intact' | 'broken' | 'excused' | 'first' | 'unknown';
  source: 'snapshot' | 'replay';
  divergentIndex?: number;
  excusedBy?: string;
  /** Why the status is unknown. */
  note?: string;
  /** The previous request of the session. */
  previous?: RequestRecord;
  /** Replay: the rows holding message `divergentIndex` as the previous request and this one sent it. */
  divergentRows?: { previous?: number; current?: number };
  envelopes: EnvelopeRef[];
  /** Snapshot messages whose committed row (same bytes, same index) names their directives: the ids it gives. */
  snapshotIds?: Map<number, readonly string[]>;
}

export interface SessionRecord {
  sessionId: string;
  firstLine: number;
  requests: RequestRecord[];
}

export interface DirectiveRecord {
  sessionId: string;
  authority: string;
  ttlTurns?: string;
  id?: string;
  /** The row that committed it, and the first request that carried it. */
  line: number;
  request?: RequestRecord;
}

export interface DirectiveCheckResult {
  problems: DirectiveProblem[];
  /** With `record`: the tree's data and the hover's index (by row line, then the directive's start offset). */
  sessions: SessionRecord[];
  directives: Map<string, DirectiveRecord>;
}

export interface CheckerOptions {
  /** Keep per-request records (tree, hover, prefix messages); the CLI does not need them. */
  record?: boolean;
  /** Where problems go as they are found (a capped sink); else they are collected in the result. */
  emit?: (p: DirectiveProblem) => void;
  /** Compactions recorded outside the transcript (run record, event log): each excuses the break it lies before. */
  compactions?: readonly ExternalCompaction[];
}

interface Withdrawn {
  line: number;
  satisfied: boolean;
}

interface Rewrite {
  slot: number;
  previousLine: number;
  currentLine: number;
}

interface Session {
  record: SessionRecord;
  /** Replay: the line of the row holding each message slot. */
  slots: number[];
  /** Replay: slots rewritten since the previous request, with the line they held then (first rewrite only). */
  rewritten: Map<number, number>;
  hasMessages: boolean;
  previous?: { request: RequestRecord; hashes?: string[]; length: number; slots?: number[]; position: RequestPosition };
  compacted?: string;
  committedIds: Set<string>;
  renderedWithoutIds: Set<string>;
  renderedAll: Set<string>;
  normalizedBodies: Set<string>;
  withdrawn?: Withdrawn;
  newEnvelopes: EnvelopeRef[];
  awaitingRequest: DirectiveRecord[];
  /** Records only: the ids of the message row committed at each slot, with the hash of the message as sent. */
  idsAt: Map<number, { sentHash: string; ids: readonly string[] }>;
}

interface PendingRequest {
  facts: Extract<DirectiveRowFacts, { kind: 'request' }>;
  line: number;
  rowNumber: number;
}

interface Verification {
  request: RequestRecord;
  rewrites: Rewrite[];
  /** A divergence known without reading (the array got shorter). */
  definite?: number;
}

const FALLBACK = normalizedBody(WITHDRAWN_TURN_FALLBACK);
const MAX_SLOT_GAP = 4096;

export class DirectiveChecker {
  private readonly sessions = new Map<string, Session>();
  private readonly collected: DirectiveProblem[] = [];
  private readonly problems: { push(p: DirectiveProblem): void };
  private readonly directives = new Map<string, DirectiveRecord>();
  private readonly verifications: Verification[] = [];
  private pending: PendingRequest[] = [];
  private lastSession: Session | undefined;
  private nonce: string | undefined;

  constructor(private readonly options: CheckerOptions = {}) {
    const emit = options.emit;
    this.problems = emit ? { push: emit } : this.collected;
  }

  row(facts: DirectiveRowFacts, line: number, rowNumber: number): void {
    switch (facts.kind) {
      case 'nonce':
        this.nonce = facts.nonce;
        return;
      case 'compaction': {
        const reason = `a ${facts.type} row (row ${rowNumber})`;
        const session = facts.sessionId !== undefined ? this.session(facts.sessionId, line) : this.lastSession;
        // Requests before it were sent before it: they take the session it compacts (else the last one seen).
        if (session) this.flush(session);
        for (const s of session ? [session] : this.sessions.values()) compact(s, reason);
        return;
      }
      case 'request':
        this.pending.push({ facts, line, rowNumber });
        return;
      case 'message': {
        const session = this.session(facts.sessionId ?? '', line);
        this.flush(session);
        this.message(session, facts.message, facts.messageIndex, line);
        this.lastSession = session;
        return;
      }
    }
  }

  /** The lines whose text `finish` needs (rows that rewrote a replayed message). */
  wantedLines(): Set<number> {
    this.flushAll();
    const lines = new Set<number>();
    for (const v of this.verifications)
      for (const r of v.rewrites) {
        lines.add(r.previousLine);
        lines.add(r.currentLine);
      }
    return lines;
  }

  finish(texts: ReadonlyMap<number, string>): DirectiveCheckResult {
    this.flushAll();
    for (const v of this.verifications) this.verify(v, texts);
    this.verifications.length = 0;
    return { problems: this.collected, sessions: [...this.sessions.values()].map((s) => s.record), directives: this.directives };
  }

  private flushAll(): void {
    if (this.pending.length === 0) return;
    this.flush(this.lastSession ?? this.session('', this.pending[0]?.line ?? 0));
  }

  private session(id: string, line: number): Session {
    let s = this.sessions.get(id);
    if (!s) {
      s = {
        record: { sessionId: id, firstLine: line, requests: [] },
        slots: [],
        rewritten: new Map(),
        hasMessages: false,
        committedIds: new Set(),
        renderedWithoutIds: new Set(),
        renderedAll: new Set(),
        normalizedBodies: new Set(),
        newEnvelopes: [],
        awaitingRequest: [],
        idsAt: new Map(),
      };
      this.sessions.set(id, s);
    }
    return s;
  }

  /** Requests waiting for their session: the session of the next message row (requests carry none). */
  private flush(session: Session): void {
    this.lastSession = session;
    const pending = this.pending;
    if (pending.length === 0) return;
    this.pending = [];
    for (const p of pending) this.request(session, p);
  }

  private message(s: Session, m: MessageFacts, slot: number | undefined, line: number): void {
    s.hasMessages = true;
    if (slot !== undefined) {
      if (slot < s.slots.length) {
        const held = s.slots[slot];
        if (held !== undefined && !s.rewritten.has(slot)) s.rewritten.set(slot, held);
        // A slot written again rewrites the history from there on.
        s.slots.length = slot;
      }
      if (slot === s.slots.length) s.slots.push(line);
      // A gap is filled with unknown slots, within reason (a wild index is not a reason to allocate).
      else if (slot > s.slots.length && slot - s.slots.length <= MAX_SLOT_GAP) {
        while (s.slots.length < slot) s.slots.push(-1);
        s.slots.push(line);
      }
    }
    if (this.options.record && slot !== undefined) {
      if (m.ids !== undefined && m.sentHash !== undefined) s.idsAt.set(slot, { sentHash: m.sentHash, ids: m.ids });
      else s.idsAt.delete(slot);
    }
    this.envelopes(s, m, line, line);
    if (m.bookkeeping && (m.role === undefined || m.role === 'assistant')) s.withdrawn = { line, satisfied: false };
  }

  /** The checks on envelopes newly committed into history (reported on `line`). */
  private envelopes(s: Session, m: MessageFacts, line: number, commitLine: number): void {
    for (const e of m.envelopes) {
      if (this.options.record) s.newEnvelopes.push({ line, envelope: e });
      for (const p of e.problems) this.problems.push(attributeProblem(line, e.path, p));
      if (this.nonce !== undefined && (e.form === 'current' || e.form === 'appended') && e.nonce !== this.nonce) {
        this.problems.push({
          line,
          code: 'nonce_mismatch',
          severity: DIRECTIVE_SEVERITY.nonce_mismatch,
          message:
            e.nonce === undefined
              ? `This envelope has no nonce, but the session's is ${JSON.stringify(this.nonce)}: the model is told not to treat it as authoritative.`
              : `This envelope's nonce ${JSON.stringify(e.nonce)} is not the session's ${JSON.stringify(this.nonce)}: the model is told not to treat it as authoritative.`,
          data: { nonce: e.nonce ?? null, expected: this.nonce },
          at: { path: e.path, start: e.start, end: e.tagEnd },
        });
      }
      for (const d of e.directives) this.directive(s, m, e, d, line, commitLine);
    }
    // Committed after the whole message: directives of one envelope never re-issue each other.
    for (const e of m.envelopes)
      for (const d of e.directives) {
        if (d.id !== undefined) s.committedIds.add(d.id);
        if (m.ids === undefined) s.renderedWithoutIds.add(d.rendered);
        s.renderedAll.add(d.rendered);
        s.normalizedBodies.add(d.normalized);
      }
  }

  private directive(s: Session, m: MessageFacts, e: EnvelopeFacts, d: DirectiveFacts, line: number, commitLine: number): void {
    const withdrawn = s.withdrawn;
    const restates = withdrawn !== undefined && !withdrawn.satisfied && restatesWithdrawal(d, s.normalizedBodies);
    if (restates) withdrawn.satisfied = true;
    const key = directiveKey(s.record.sessionId, d);
    if (!restates && isCommitted(d, s)) {
      const first = this.directives.get(key) ?? this.directives.get(directiveKey(s.record.sessionId, { rendered: d.rendered }));
      const where = first ? ` (first committed at row line ${first.line + 1}${first.request ? `, sent with request ${first.request.label}` : ''})` : '';
      this.problems.push({
        line,
        code: 'directive_reissued',
        severity: DIRECTIVE_SEVERITY.directive_reissued,
        message:
          d.id !== undefined && s.committedIds.has(d.id)
            ? `Directive ${JSON.stringify(d.id)} is already committed${where}; emitting it again is a re-issue (committed directives are re-sent as history, never emitted anew).`
            : `This directive's rendered bytes are already committed${where}; emitting it again is a re-issue.`,
        data: { id: d.id ?? null, ...(first ? { firstLine: first.line } : {}) },
        at: { path: e.path, start: d.start, end: d.tagEnd },
      });
    }
    if (this.options.record && !this.directives.has(key)) {
      const record: DirectiveRecord = { sessionId: s.record.sessionId, authority: d.authority, line: commitLine };
      if (d.ttlTurns !== undefined) record.ttlTurns = d.ttlTurns;
      if (d.id !== undefined) record.id = d.id;
      this.directives.set(key, record);
      if (d.id !== undefined) this.directives.set(directiveKey(s.record.sessionId, { rendered: d.rendered }), record);
      s.awaitingRequest.push(record);
    }
    void m;
  }

  private request(s: Session, p: PendingRequest): void {
    const { facts, line } = p;
    const snapshot = facts.snapshot;
    const source = snapshot ? 'snapshot' : 'replay';
    const length = snapshot ? snapshot.hashes.length : s.slots.length;
    const record: RequestRecord = {
      line,
      label: facts.callId ?? `row:${p.rowNumber}`,
      messageCount: length,
      ordinal: s.record.requests.length,
      prefix: 'first',
      source,
      envelopes: [],
    };
    if (facts.callId !== undefined) record.callId = facts.callId;
    if (facts.iteration !== undefined) record.iteration = facts.iteration;
    const previous = s.previous;
    if (previous) record.previous = previous.request;

    if (snapshot && snapshot.nonce !== undefined) this.nonce = snapshot.nonce;
    // A session without message rows: its snapshots' new messages are where envelopes are committed.
    if (snapshot && !s.hasMessages) {
      const from = previous?.length ?? 0;
      const entries = [...snapshot.messages].filter(([i]) => i >= from).sort((a, b) => a[0] - b[0]);
      for (const [, m] of entries) {
        this.envelopes(s, m, line, line);
        if (m.bookkeeping && (m.role === undefined || m.role === 'assistant')) s.withdrawn = { line, satisfied: false };
      }
    } else if (snapshot && this.options.record) {
      // The tree shows the envelopes of the array sent; message rows committed them (checked there). The snapshot
      // lost `_harn_directive_ids` (stripped before dispatch): the row committed at the same index with the same
      // bytes names them.
      const from = previous?.length ?? 0;
      s.newEnvelopes = [];
      for (const [i, m] of [...snapshot.messages].sort((a, b) => a[0] - b[0])) {
        const committed = s.idsAt.get(i);
        const ids = committed !== undefined && committed.sentHash === snapshot.hashes[i] ? committed.ids : undefined;
        if (ids) (record.snapshotIds ??= new Map()).set(i, ids);
        if (i >= from) for (const e of ids ? withIds(m.envelopes, ids) : m.envelopes) s.newEnvelopes.push({ line, envelope: e });
      }
    }

    if (s.withdrawn && !s.withdrawn.satisfied) {
      this.problems.push({
        line: s.withdrawn.line,
        code: 'withdrawn_turn_not_restated',
        severity: DIRECTIVE_SEVERITY.withdrawn_turn_not_restated,
        message:
          `This withdrawn turn (${'`harn_bookkeeping_turn: true`'}) is not followed by a corrective directive before request ${record.label} ` +
          `(line ${line + 1}): the model reads a placeholder with nothing after it. Harn restates the carried rejection, or "${WITHDRAWN_TURN_FALLBACK}"`,
        data: { request: record.label, requestLine: line },
      });
    }
    s.withdrawn = undefined;

    const position: RequestPosition = {};
    if (facts.atMs !== undefined) position.atMs = facts.atMs;
    if (facts.iteration !== undefined) position.iteration = facts.iteration;
    if (previous) this.comparePrefix(s, record, previous, snapshot?.hashes, s.compacted ?? this.compactionBefore(s, previous.position, position));
    s.previous = { request: record, length, position, ...(snapshot ? { hashes: snapshot.hashes } : {}) };
    s.rewritten = new Map();
    s.compacted = undefined;
    if (this.options.record) {
      record.envelopes = s.newEnvelopes;
      s.newEnvelopes = [];
      for (const d of s.awaitingRequest) d.request = record;
      s.awaitingRequest = [];
      s.record.requests.push(record);
    }
  }

  /** A compaction recorded outside the transcript between the session's previous request and this one. */
  private compactionBefore(s: Session, previous: RequestPosition, current: RequestPosition): string | undefined {
    const compactions = this.options.compactions;
    if (!compactions || compactions.length === 0) return undefined;
    return compactionBetween(compactions, s.record.sessionId, previous, current)?.source;
  }

  private comparePrefix(
    s: Session,
    record: RequestRecord,
    previous: NonNullable<Session['previous']>,
    hashes: string[] | undefined,
    compacted: string | undefined,
  ): void {
    if ((previous.hashes !== undefined) !== (hashes !== undefined)) {
      record.prefix = 'unknown';
      record.note = `request ${previous.request.label} was rebuilt ${previous.hashes ? 'from its snapshot' : 'by replay'} and this one ${hashes ? 'from its snapshot' : 'by replay'}: they are not compared`;
      return;
    }
    const prevHashes = previous.hashes;
    if (hashes && prevHashes) {
      let at = -1;
      const n = Math.min(prevHashes.length, hashes.length);
      for (let i = 0; i < n; i++)
        if (prevHashes[i] !== hashes[i]) {
          at = i;
          break;
        }
      if (at < 0 && hashes.length < prevHashes.length) at = hashes.length;
      this.settle(compacted, record, at < 0 ? undefined : at);
      return;
    }
    const rewrites: Rewrite[] = [];
    for (const [slot, previousLine] of s.rewritten) {
      const currentLine = s.slots[slot];
      if (slot < previous.length && currentLine !== undefined && currentLine >= 0) rewrites.push({ slot, previousLine, currentLine });
    }
    rewrites.sort((a, b) => a.slot - b.slot);
    const definite = s.slots.length < previous.length ? s.slots.length : undefined;
    if (rewrites.length === 0) {
      this.settle(compacted, record, definite);
      if (definite !== undefined) record.divergentRows = { previous: s.rewritten.get(definite) ?? -1 };
      return;
    }
    // Rewritten slots are confirmed by their rows' text at the end; the status is provisional until then.
    record.prefix = compacted ? 'excused' : 'intact';
    if (compacted) record.excusedBy = compacted;
    const v: Verification = { request: record, rewrites };
    if (definite !== undefined) v.definite = definite;
    this.verifications.push(v);
  }

  /** A divergence at `at` (undefined: none): broken, or excused by a compaction since the previous request. */
  private settle(compacted: string | undefined, record: RequestRecord, at: number | undefined): void {
    if (at === undefined) {
      record.prefix = 'intact';
      return;
    }
    record.divergentIndex = at;
    if (compacted !== undefined) {
      record.prefix = 'excused';
      record.excusedBy = compacted;
      return;
    }
    record.prefix = 'broken';
    const previous = record.previous;
    this.problems.push({
      line: record.line,
      code: 'prefix_break',
      severity: DIRECTIVE_SEVERITY.prefix_break,
      message:
        `The message array of request ${record.label} does not begin with request ${previous?.label ?? '?'}'s: message ${at} differs ` +
        `(rebuilt ${record.source === 'snapshot' ? 'from request_snapshot.messages' : 'by replaying the message rows'}). ` +
        `Every provider's prompt cache is a prefix cache: everything from message ${at} on is prefilled again.`,
      data: { divergentIndex: at, previous: previous?.label ?? null, source: record.source },
    });
  }

  private verify(v: Verification, texts: ReadonlyMap<number, string>): void {
    let at: number | undefined;
    let rows: RequestRecord['divergentRows'];
    for (const r of v.rewrites) {
      if (!sameMessage(texts.get(r.previousLine), texts.get(r.currentLine))) {
        at = r.slot;
        rows = { previous: r.previousLine, current: r.currentLine };
        break;
      }
    }
    if (at === undefined && v.definite !== undefined) at = v.definite;
    const compacted = v.request.prefix === 'excused' ? v.request.excusedBy : undefined;
    v.request.prefix = 'first';
    delete v.request.excusedBy;
    this.settle(compacted, v.request, at);
    if (rows) v.request.divergentRows = rows;
  }
}

/** A compaction starts a new prefix on purpose: the next comparison is excused, and history is committed anew. */
function compact(s: Session, reason: string): void {
  s.compacted = reason;
  s.committedIds.clear();
  s.renderedWithoutIds.clear();
  s.renderedAll.clear();
  s.normalizedBodies.clear();
}

/** Upstream's commitment rule (uncommitted_directives): by id when the directive has one, else by rendered bytes. */
export function isCommitted(
  d: Pick<DirectiveFacts, 'id' | 'rendered'>,
  committed: { committedIds: ReadonlySet<string>; renderedWithoutIds: ReadonlySet<string>; renderedAll: ReadonlySet<string> },
): boolean {
  if (d.id !== undefined) return committed.committedIds.has(d.id) || committed.renderedWithoutIds.has(d.rendered);
  return committed.renderedAll.has(d.rendered);
}

/** After a withdrawn turn: the carried rejection restated (a committed body), the fixed fallback, or a corrective directive. */
export function restatesWithdrawal(d: Pick<DirectiveFacts, 'normalized' | 'authority'>, committedBodies: ReadonlySet<string>): boolean {
  return d.normalized === FALLBACK || committedBodies.has(d.normalized) || d.authority === 'corrective';
}

export function directiveKey(sessionId: string, d: Pick<DirectiveFacts, 'rendered'> & { id?: string }): string {
  return d.id !== undefined ? `${sessionId}\u0000id\u0000${d.id}` : `${sessionId}\u0000r\u0000${d.rendered}`;
}

function attributeProblem(line: number, path: JsonPath, p: EnvelopeProblem): DirectiveProblem {
  return { line, code: p.code, severity: DIRECTIVE_SEVERITY[p.code], message: p.message, at: { path, start: p.start, end: p.end } };
}

/** Two message rows hold the same message (its full object when there is one, else role and content). */
function sameMessage(a: string | undefined, b: string | undefined): boolean {
  if (a === undefined || b === undefined) return true; // unreadable now: no claim
  return sentBytes(a) === sentBytes(b);
}

function sentBytes(text: string): string | undefined {
  try {
    const row: unknown = JSON.parse(text);
    if (!isObject(row)) return undefined;
    return JSON.stringify(isObject(row.message) ? row.message : { role: row.role, content: row.content });
  } catch {
    return undefined;
  }
}
