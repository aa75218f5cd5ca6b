// What one transcript row tells the directive checks (spec §1, §4), computed from the parsed row alone, so that it
// can be cached with the row's other per-line results. Message texts are searched natively for the envelope
// sentinels; only texts that hold one are parsed. Tool results (role `tool`, `tool_result` blocks) are never
// searched: their sentinels egress defanged and are the tool's text, not envelopes.

import { createHash } from 'node:crypto';
import { isObject, type JsonObject } from '../artifacts/json';
import { timeMs } from './compactions';
import { firstLineOf, normalizedBody, parseEnvelopes, type EnvelopeForm, type EnvelopeProblem } from './envelope';

export const DIRECTIVE_IDS_KEY = '_harn_directive_ids';
export const BOOKKEEPING_TURN_KEY = 'harn_bookkeeping_turn';
export const WITHDRAWN_TURN_FALLBACK = 'The closing report above was withdrawn because it was not accepted. Continue the task before you close again.';

/** A JSON path from the row to a string (e.g. ['message', 'content', 1, 'text']). */
export type JsonPath = readonly (string | number)[];

export interface DirectiveFacts {
  authority: string;
  ttlTurns?: string;
  /** From `_harn_directive_ids`, when the envelope's ids match its directives one to one. */
  id?: string;
  body: string;
  normalized: string;
  firstLine: string;
  rendered: string;
  start: number;
  tagEnd: number;
  end: number;
}

export interface EnvelopeFacts {
  form: EnvelopeForm;
  speaker?: string;
  nonce?: string;
  /** The string holding it, from the row. */
  path: JsonPath;
  start: number;
  tagEnd: number;
  directives: DirectiveFacts[];
  problems: EnvelopeProblem[];
}

export interface MessageFacts {
  role?: string;
  bookkeeping: boolean;
  /** `_harn_directive_ids` when present (even empty). */
  ids?: string[];
  /** With ids: the hash of the message without them, as a snapshot holds it (the key is stripped before dispatch). */
  sentHash?: string;
  envelopes: EnvelopeFacts[];
}

export type DirectiveRowFacts =
  | { kind: 'message'; sessionId?: string; messageIndex?: number; message: MessageFacts }
  | {
      kind: 'request';
      callId?: string;
      iteration?: number;
      /** The row's `timestamp`, in unix milliseconds: places compactions recorded outside the transcript. */
      atMs?: number;
      messageCount?: number;
      /** From request_snapshot.messages: one hash per message, and the facts of those that matter. */
      snapshot?: { hashes: string[]; messages: Map<number, MessageFacts>; nonce?: string };
    }
  | { kind: 'compaction'; sessionId?: string; type: string }
  | { kind: 'nonce'; nonce: string };

const NONCE_TEXT = /directive authority nonce for this session: *([^\s.]+(?:\.[^\s.]+)*)/;

/** The nonce a system prompt announces (asset `directive_nonce_authority`), if any. */
export function announcedNonce(text: string): string | undefined {
  if (!text.includes('authority nonce')) return undefined;
  return NONCE_TEXT.exec(text)?.[1];
}

/** A row type that records a compaction (a copied `transcript_compacted` event, or a compaction row). */
export function isCompactionType(type: string): boolean {
  return type === 'transcript_compacted' || /(^|_)compact(ion|ed)?($|_)/.test(type);
}

/** The directive facts of one parsed transcript row, or undefined when it has none to tell. */
export function directiveRowFacts(o: JsonObject, type: string | undefined): DirectiveRowFacts | undefined {
  switch (type) {
    case 'message': {
      const full = isObject(o.message) ? o.message : undefined;
      // The full message object carries the keys (`_harn_directive_ids`, `harn_bookkeeping_turn`); `content` at the
      // top is the same text, and is what positions are computed on when there is no full object.
      const message = messageFacts(full ?? o, full ? ['message'] : []);
      const sessionId = typeof o.session_id === 'string' ? o.session_id : undefined;
      const messageIndex = typeof o.message_index === 'number' && Number.isSafeInteger(o.message_index) && o.message_index >= 0 ? o.message_index : undefined;
      const facts: DirectiveRowFacts = { kind: 'message', message };
      if (sessionId !== undefined) facts.sessionId = sessionId;
      if (messageIndex !== undefined) facts.messageIndex = messageIndex;
      return facts;
    }
    case 'provider_call_request': {
      const facts: DirectiveRowFacts = { kind: 'request' };
      if (typeof o.call_id === 'string') facts.callId = o.call_id;
      if (typeof o.iteration === 'number') facts.iteration = o.iteration;
      if (typeof o.message_count === 'number') facts.messageCount = o.message_count;
      const atMs = timeMs(o.timestamp);
      if (atMs !== undefined) facts.atMs = atMs;
      const snapshot = isObject(o.request_snapshot) ? o.request_snapshot : undefined;
      if (snapshot && Array.isArray(snapshot.messages)) {
        const hashes: string[] = [];
        const messages = new Map<number, MessageFacts>();
        snapshot.messages.forEach((m: unknown, i) => {
          hashes.push(messageHash(m));
          if (!isObject(m)) return;
          const f = messageFacts(m, ['request_snapshot', 'messages', i]);
          if (f.bookkeeping || f.envelopes.length > 0) messages.set(i, f);
        });
        const nonce = typeof snapshot.system === 'string' ? announcedNonce(snapshot.system) : undefined;
        facts.snapshot = nonce === undefined ? { hashes, messages } : { hashes, messages, nonce };
      }
      return facts;
    }
    case 'system_prompt': {
      const nonce = typeof o.content === 'string' ? announcedNonce(o.content) : undefined;
      return nonce === undefined ? undefined : { kind: 'nonce', nonce };
    }
    default:
      if (type !== undefined && isCompactionType(type)) {
        const facts: DirectiveRowFacts = { kind: 'compaction', type };
        if (typeof o.session_id === 'string') facts.sessionId = o.session_id;
        return facts;
      }
      return undefined;
  }
}

/** The bytes of one message as sent, hashed: compared per index between requests, never whole arrays. */
export function messageHash(m: unknown): string {
  return createHash('sha1')
    .update(JSON.stringify(m) ?? 'undefined')
    .digest('base64');
}

/** The envelopes and keys of one message object, `path` leading from the row to it. */
export function messageFacts(m: JsonObject, path: JsonPath): MessageFacts {
  const role = typeof m.role === 'string' ? m.role : undefined;
  const facts: MessageFacts = { bookkeeping: m[BOOKKEEPING_TURN_KEY] === true, envelopes: [] };
  if (role !== undefined) facts.role = role;
  const ids = m[DIRECTIVE_IDS_KEY];
  if (Array.isArray(ids)) {
    facts.ids = ids.filter((id): id is string => typeof id === 'string');
    const { [DIRECTIVE_IDS_KEY]: _stripped, ...sent } = m;
    facts.sentHash = messageHash(sent);
  }
  if (role === 'tool' || role === 'tool_result') return facts;
  const content = m.content;
  if (typeof content === 'string') addEnvelopes(facts, content, [...path, 'content']);
  else if (Array.isArray(content)) {
    content.forEach((block: unknown, i) => {
      if (!isObject(block) || block.type === 'tool_result') return;
      if (typeof block.text === 'string') addEnvelopes(facts, block.text, [...path, 'content', i, 'text']);
    });
  }
  if (facts.ids) nameDirectives(facts.envelopes, facts.ids);
  return facts;
}

/** Ids name the directives of a message's envelopes in order, when they match one to one (mutates `envelopes`). */
export function nameDirectives(envelopes: readonly EnvelopeFacts[], ids: readonly string[]): void {
  const directives = envelopes.flatMap((e) => e.directives);
  if (ids.length === directives.length) directives.forEach((d, i) => (d.id = ids[i]));
}

/** A snapshot message's envelopes named by the ids of its committed row (copies: facts are cached per line). */
export function withIds(envelopes: readonly EnvelopeFacts[], ids: readonly string[]): EnvelopeFacts[] {
  const copies = envelopes.map((e) => ({ ...e, directives: e.directives.map((d) => ({ ...d })) }));
  nameDirectives(copies, ids);
  return copies;
}

function addEnvelopes(facts: MessageFacts, text: string, path: JsonPath): void {
  for (const e of parseEnvelopes(text)) {
    const envelope: EnvelopeFacts = {
      form: e.form,
      path,
      start: e.start,
      tagEnd: e.tagEnd,
      problems: e.problems,
      directives: e.directives.map((d) => {
        const out: DirectiveFacts = {
          authority: d.authority,
          body: d.body,
          normalized: normalizedBody(d.body),
          firstLine: firstLineOf(d.body),
          rendered: d.rendered,
          start: d.start,
          tagEnd: d.tagEnd,
          end: d.end,
        };
        if (d.ttlTurns !== undefined) out.ttlTurns = d.ttlTurns;
        return out;
      }),
    };
    if (e.speaker !== undefined) envelope.speaker = e.speaker;
    if (e.nonce !== undefined) envelope.nonce = e.nonce;
    facts.envelopes.push(envelope);
  }
}
