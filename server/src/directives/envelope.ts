// Context-directive envelopes inside one message text (spec/harn-artifacts.md §4). Pure: a decoded JSON string in,
// the envelopes it carries out, with offsets into that string (UTF-16). Bodies are arbitrary escaped text, so a
// `</directive>` or `</context-directives>` inside one must not end it: a directive's close is only the
// `\n</directive>` that is followed by the next directive's opening tag or by the envelope's own close, and the
// envelope's close is the last `</context-directives>` at a line start (the envelope is always the message's tail).
// Defanged sentinels (`&lt;directive`) are plain text here, never tags.

export type EnvelopeForm = 'current' | 'appended' | 'system-reminder' | 'system-reminder-text';

export interface Attribute {
  name: string;
  /** Decoded (XML entities). */
  value: string;
  start: number;
  end: number;
}

export interface ParsedDirective {
  /** As written; '' for the legacy forms (they have no authority). */
  authority: string;
  ttlTurns?: string;
  attributes: Attribute[];
  /** The decoded body (CDATA content as is). */
  body: string;
  /** The block exactly as rendered (`<directive …>…</directive>`): what upstream compares for commitment. */
  rendered: string;
  cdata: boolean;
  /** `<directive` … end of its opening tag … end of the block. */
  start: number;
  tagEnd: number;
  end: number;
}

export interface EnvelopeProblem {
  code: DirectiveAttributeCode;
  message: string;
  start: number;
  end: number;
}

export type DirectiveAttributeCode = 'invalid_authority' | 'invalid_ttl_turns' | 'invalid_speaker' | 'unknown_directive_attribute' | 'malformed_envelope';

export interface ParsedEnvelope {
  form: EnvelopeForm;
  speaker?: string;
  nonce?: string;
  attributes: Attribute[];
  start: number;
  tagEnd: number;
  end: number;
  directives: ParsedDirective[];
  problems: EnvelopeProblem[];
}

export const AUTHORITIES = ['contract', 'corrective', 'advisory'] as const;
const SPEAKERS = new Set(['harness', 'person']);
const ENVELOPE_OPEN = '<context-directives';
const ENVELOPE_CLOSE = '</context-directives>';
const DIRECTIVE_OPEN = '<directive';
const DIRECTIVE_CLOSE = '</directive>';
const REMINDER_OPEN = '<system-reminder>';
const REMINDER_CLOSE = '</system-reminder>';
const REMINDER_TEXT = 'System reminder:';

/** Whether a text may hold an envelope at all (one native search each; most messages hold none). */
export function mayHoldEnvelope(text: string): boolean {
  return text.includes(ENVELOPE_OPEN) || text.includes(REMINDER_OPEN) || text.includes(REMINDER_TEXT);
}

/** Every envelope in a message text, in order. */
export function parseEnvelopes(text: string): ParsedEnvelope[] {
  if (!mayHoldEnvelope(text)) return [];
  const out: ParsedEnvelope[] = [];
  let from = 0;
  for (;;) {
    const at = nextAtLineStart(text, ENVELOPE_OPEN, from);
    if (at < 0) break;
    const envelope = parseEnvelope(text, at);
    if (!envelope) {
      from = at + ENVELOPE_OPEN.length;
      continue;
    }
    out.push(envelope);
    from = envelope.end;
  }
  // A loop, not a spread: a hostile message can hold any number of reminders.
  if (out.length === 0) for (const reminder of legacyReminders(text)) out.push(reminder);
  return out;
}

/** The first `needle` at or after `from` that starts a line. */
function nextAtLineStart(text: string, needle: string, from: number): number {
  let at = text.indexOf(needle, from);
  while (at > 0 && text.charCodeAt(at - 1) !== 10) at = text.indexOf(needle, at + 1);
  return at;
}

const ATTRIBUTE = /\s+([A-Za-z_][\w.:-]*)="([^"]*)"/y;

/** An opening tag `<name( attr="v")*>` at `at`: its attributes and end, or undefined. */
function openTag(text: string, at: number, name: string): { attributes: Attribute[]; end: number } | undefined {
  let i = at + name.length;
  const next = text.charCodeAt(i);
  if (next !== 62 /* > */ && next !== 32 && next !== 9) return undefined;
  const attributes: Attribute[] = [];
  for (;;) {
    if (text.charCodeAt(i) === 62) return { attributes, end: i + 1 };
    ATTRIBUTE.lastIndex = i;
    const m = ATTRIBUTE.exec(text);
    if (!m) {
      // Spaces before `>`.
      let j = i;
      while (text.charCodeAt(j) === 32 || text.charCodeAt(j) === 9) j++;
      return text.charCodeAt(j) === 62 && j > i ? { attributes, end: j + 1 } : undefined;
    }
    const name = m[1] ?? '';
    const raw = m[2] ?? '';
    const start = i + m[0].indexOf(name);
    attributes.push({ name, value: decodeXml(raw), start, end: ATTRIBUTE.lastIndex });
    i = ATTRIBUTE.lastIndex;
  }
}

function parseEnvelope(text: string, at: number): ParsedEnvelope | undefined {
  const tag = openTag(text, at, ENVELOPE_OPEN);
  if (!tag) return undefined;
  const close = envelopeClose(text, tag.end);
  const problems: EnvelopeProblem[] = [];
  const envelopeEnd = close < 0 ? text.length : close + ENVELOPE_CLOSE.length;
  if (close < 0) problems.push({ code: 'malformed_envelope', message: 'This <context-directives> envelope is never closed.', start: at, end: tag.end });
  const directives = parseDirectives(text, tag.end, close < 0 ? text.length : close, problems);
  const form: EnvelopeForm = text.slice(0, at).trim() === '' ? 'current' : 'appended';
  const envelope: ParsedEnvelope = { form, attributes: tag.attributes, start: at, tagEnd: tag.end, end: envelopeEnd, directives, problems };
  for (const a of tag.attributes) {
    if (a.name === 'speaker') {
      envelope.speaker = a.value;
      if (!SPEAKERS.has(a.value))
        problems.push({
          code: 'invalid_speaker',
          message: `speaker is ${JSON.stringify(a.value)}; Harn writes "harness" or "person".`,
          start: a.start,
          end: a.end,
        });
    } else if (a.name === 'nonce') envelope.nonce = a.value;
    else problems.push(unknownAttribute('context-directives', a));
  }
  return envelope;
}

/** The envelope's close: the last `</context-directives>` at a line start after `from` (bodies may quote one). */
function envelopeClose(text: string, from: number): number {
  let found = -1;
  for (let at = nextAtLineStart(text, ENVELOPE_CLOSE, from); at >= 0; at = nextAtLineStart(text, ENVELOPE_CLOSE, at + 1)) {
    found = at;
    // The envelope is the tail of its text: a close followed by only whitespace ends it for sure.
    if (onlySpaceBetween(text, at + ENVELOPE_CLOSE.length, text.length)) break;
  }
  return found;
}

/** Whether text[from, limit) is all whitespace (stops at the first other character: linear over a scan of closes). */
function onlySpaceBetween(text: string, from: number, limit: number): boolean {
  for (let i = from; i < limit; i++) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 10 && c !== 13) return false;
  }
  return true;
}

function parseDirectives(text: string, from: number, limit: number, problems: EnvelopeProblem[]): ParsedDirective[] {
  const out: ParsedDirective[] = [];
  let at = nextDirectiveOpen(text, from, limit);
  while (at >= 0) {
    const tag = openTag(text, at, DIRECTIVE_OPEN);
    if (!tag) break;
    const block = directiveBlock(text, tag.end, limit);
    if (!block) {
      problems.push({ code: 'malformed_envelope', message: 'This <directive> is never closed before the envelope ends.', start: at, end: tag.end });
      break;
    }
    const directive: ParsedDirective = {
      authority: '',
      attributes: tag.attributes,
      body: block.cdata ? block.body : decodeXml(block.body),
      rendered: text.slice(at, block.end),
      cdata: block.cdata,
      start: at,
      tagEnd: tag.end,
      end: block.end,
    };
    checkDirectiveAttributes(directive, problems);
    out.push(directive);
    at = nextDirectiveOpen(text, block.end, limit);
  }
  return out;
}

function nextDirectiveOpen(text: string, from: number, limit: number): number {
  for (let at = nextAtLineStart(text, DIRECTIVE_OPEN, from); at >= 0 && at < limit; at = nextAtLineStart(text, DIRECTIVE_OPEN, at + 1)) {
    if (openTag(text, at, DIRECTIVE_OPEN)) return at;
  }
  return -1;
}

/** The body and end of a directive whose opening tag ends at `from`. */
function directiveBlock(text: string, from: number, limit: number): { body: string; end: number; cdata: boolean } | undefined {
  const lead = text.charCodeAt(from) === 10 ? from + 1 : from;
  if (text.startsWith('<![CDATA[', lead)) {
    const cdataEnd = text.indexOf(']]>', lead + 9);
    if (cdataEnd >= 0 && cdataEnd < limit) {
      let i = cdataEnd + 3;
      if (text.charCodeAt(i) === 10) i++;
      if (text.startsWith(DIRECTIVE_CLOSE, i)) {
        let body = text.slice(lead + 9, cdataEnd);
        if (body.startsWith('\n')) body = body.slice(1);
        if (body.endsWith('\n')) body = body.slice(0, -1);
        return { body, end: i + DIRECTIVE_CLOSE.length, cdata: true };
      }
    }
  }
  // An empty body closes at once; otherwise only a `\n</directive>` followed by the next directive or the envelope's end.
  for (let at = text.indexOf(DIRECTIVE_CLOSE, from); at >= 0 && at < limit; at = text.indexOf(DIRECTIVE_CLOSE, at + 1)) {
    if (at !== from && text.charCodeAt(at - 1) !== 10) continue;
    const end = at + DIRECTIVE_CLOSE.length;
    const nextLine = end < limit && text.charCodeAt(end) === 10 ? end + 1 : -1;
    if (onlySpaceBetween(text, end, limit) || (nextLine >= 0 && text.startsWith(DIRECTIVE_OPEN, nextLine) && openTag(text, nextLine, DIRECTIVE_OPEN))) {
      const bodyEnd = at === from ? at : at - 1;
      return { body: text.slice(lead, Math.max(lead, bodyEnd)), end, cdata: false };
    }
  }
  return undefined;
}

function checkDirectiveAttributes(d: ParsedDirective, problems: EnvelopeProblem[]): void {
  let sawAuthority = false;
  for (const a of d.attributes) {
    if (a.name === 'authority') {
      sawAuthority = true;
      d.authority = a.value;
      if (!(AUTHORITIES as readonly string[]).includes(a.value))
        problems.push({
          code: 'invalid_authority',
          message: `authority is ${JSON.stringify(a.value)}; it must be contract, corrective or advisory.`,
          start: a.start,
          end: a.end,
        });
    } else if (a.name === 'ttl_turns') {
      d.ttlTurns = a.value;
      if (!/^[1-9]\d*$/.test(a.value))
        problems.push({
          code: 'invalid_ttl_turns',
          message: `ttl_turns is ${JSON.stringify(a.value)}; it must be a positive integer.`,
          start: a.start,
          end: a.end,
        });
    } else problems.push(unknownAttribute('directive', a));
  }
  if (!sawAuthority)
    problems.push({
      code: 'invalid_authority',
      message: 'This <directive> has no authority (contract, corrective or advisory).',
      start: d.start,
      end: d.tagEnd,
    });
}

function unknownAttribute(tag: string, a: Attribute): EnvelopeProblem {
  return {
    code: 'unknown_directive_attribute',
    message: `Unknown attribute ${a.name} on <${tag}> (not one Harn writes; ignored).`,
    start: a.start,
    end: a.end,
  };
}

/** The legacy forms, before directives: `<system-reminder>…</system-reminder>` or `System reminder:\n…` (to the end). */
function legacyReminders(text: string): ParsedEnvelope[] {
  const out: ParsedEnvelope[] = [];
  for (let at = nextAtLineStart(text, REMINDER_OPEN, 0); at >= 0;) {
    const bodyStart = at + REMINDER_OPEN.length + (text.charCodeAt(at + REMINDER_OPEN.length) === 10 ? 1 : 0);
    let close = nextAtLineStart(text, REMINDER_CLOSE, bodyStart);
    // A quoted close inside the body: the reminder ends at the close followed by the end of the text or a blank line.
    for (let next = close; next >= 0; next = nextAtLineStart(text, REMINDER_CLOSE, next + 1)) {
      close = next;
      const after = next + REMINDER_CLOSE.length;
      if (onlySpaceBetween(text, after, text.length) || text.startsWith('\n\n', after)) break;
    }
    if (close < 0) break;
    const end = close + REMINDER_CLOSE.length;
    out.push(legacyEnvelope('system-reminder', text, at, at + REMINDER_OPEN.length, bodyStart, Math.max(bodyStart, close - 1), end));
    at = nextAtLineStart(text, REMINDER_OPEN, end);
  }
  if (out.length > 0) return out;
  const at = nextAtLineStart(text, REMINDER_TEXT, 0);
  if (at >= 0 && (at === 0 || text.slice(0, at).endsWith('\n\n'))) {
    const bodyStart = at + REMINDER_TEXT.length + (text.charCodeAt(at + REMINDER_TEXT.length) === 10 ? 1 : 0);
    out.push(legacyEnvelope('system-reminder-text', text, at, at + REMINDER_TEXT.length, bodyStart, text.trimEnd().length, text.trimEnd().length));
  }
  return out;
}

function legacyEnvelope(form: EnvelopeForm, text: string, start: number, tagEnd: number, bodyStart: number, bodyEnd: number, end: number): ParsedEnvelope {
  const directive: ParsedDirective = {
    authority: '',
    attributes: [],
    body: text.slice(bodyStart, bodyEnd),
    rendered: text.slice(start, end),
    cdata: false,
    start,
    tagEnd,
    end,
  };
  return { form, attributes: [], start, tagEnd, end, directives: [directive], problems: [] };
}

const ENTITY = /&(lt|gt|amp|quot|apos|#\d+|#x[0-9a-fA-F]+);/g;
const NAMED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** XML entities decoded (a bad code point stays as written). */
export function decodeXml(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(ENTITY, (whole, name: string) => {
    const named = NAMED[name];
    if (named !== undefined) return named;
    const cp = name.startsWith('#x') ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
    return Number.isInteger(cp) && cp >= 0 && cp <= 0x10ffff && !(cp >= 0xd800 && cp <= 0xdfff) ? String.fromCodePoint(cp) : whole;
  });
}

/** Whitespace-normalised body (upstream's `split_whitespace().join(" ")`). */
export function normalizedBody(body: string): string {
  return body
    .split(/\s+/)
    .filter((w) => w !== '')
    .join(' ');
}

/** The first non-empty line of a body, trimmed. */
export function firstLineOf(body: string): string {
  for (const line of body.split(/\r\n|\r|\n/)) if (line.trim() !== '') return line.trim();
  return '';
}

/** What an authority overrides (contract > corrective > advisory). */
export function overrides(authority: string): string {
  switch (authority) {
    case 'contract':
      return 'overrides corrective and advisory directives';
    case 'corrective':
      return 'overrides advisory directives; contract directives override it';
    case 'advisory':
      return 'overrides nothing; contract and corrective directives override it';
    default:
      return 'not an authority Harn knows: it ranks with nothing';
  }
}
