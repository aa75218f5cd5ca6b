// One message of a request's array as text for the prefix-break diff (and the request hover): a header of its
// top-level fields, then its content as text with real line breaks (a string content as is; content blocks one
// after another, each with its type line), so that a diff of two versions reads line by line instead of as one long
// JSON line.
//
// Every byte of difference stays visible. The rendering is injective on text: a backslash is shown as `\\`, so the
// escapes it introduces cannot be confused with the text; a tab as `\t`, a carriage return as `\r`, other control,
// invisible and separator characters (no-break space, zero-width and bidi marks, U+2028/2029, a BOM, a lone
// surrogate) as `\uXXXX`, and spaces at the end of a line as `\u0020` (VS Code's diff ignores trailing whitespace by
// default). Non-text fields are their JSON, in their order. What a diff may still hide (leading whitespace, which
// VS Code's diff ignores by default too) is caught by the last line: the message's length and hash as sent, which
// differ whenever one byte of the message does.

import { createHash } from 'node:crypto';
import { isObject } from '../artifacts/json';

/** Control, invisible and separator code units (a lone surrogate is checked apart). */
function isInvisible(c: number): boolean {
  return (
    c < 0x20 ||
    (c >= 0x7f && c <= 0xa0) ||
    c === 0xad ||
    c === 0x34f ||
    c === 0x61c ||
    c === 0x115f ||
    c === 0x1160 ||
    c === 0x17b4 ||
    c === 0x17b5 ||
    c === 0x180e ||
    (c >= 0x2000 && c <= 0x200f) ||
    (c >= 0x2028 && c <= 0x202f) ||
    (c >= 0x205f && c <= 0x206f) ||
    c === 0x3000 ||
    c === 0x3164 ||
    c === 0xfeff ||
    c === 0xffa0 ||
    (c >= 0xfff0 && c <= 0xfffb)
  );
}

const hex = (c: number): string => `\\u${c.toString(16).padStart(4, '0')}`;

/** Text with real line breaks, every other invisible or ambiguous character escaped (see above). */
export function visibleText(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5c) out += '\\\\';
    else if (c === 0x0a) out += '\n';
    else if (c === 0x09) out += '\\t';
    else if (c === 0x0d) out += '\\r';
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      out += text.slice(i, i + 2);
      i++;
    } else if ((c & 0xf800) === 0xd800 || isInvisible(c)) out += hex(c);
    else out += text[i] ?? '';
  }
  return out.replace(/ +$/gm, (spaces) => '\\u0020'.repeat(spaces.length));
}

const json = (value: unknown): string => JSON.stringify(value) ?? 'undefined';

function fields(o: Record<string, unknown>, skip: ReadonlySet<string>): string[] {
  return Object.entries(o)
    .filter(([key]) => !skip.has(key))
    .map(([key, value]) => `${visibleText(key)}: ${json(value)}`);
}

const MESSAGE_SKIP = new Set(['role', 'content']);
const BLOCK_SKIP = new Set(['type', 'text']);

/** The readable text of one message as sent (see the module comment). */
export function messageText(message: unknown): string {
  const exact = json(message);
  const footer = `(as sent: ${Buffer.byteLength(exact)} bytes of JSON, sha1 ${createHash('sha1').update(exact).digest('hex').slice(0, 16)})`;
  if (!isObject(message)) return `${exact}\n\n${footer}`;
  const lines: string[] = [];
  if ('role' in message) lines.push(`role: ${typeof message.role === 'string' ? visibleText(message.role) : json(message.role)}`);
  for (const field of fields(message, MESSAGE_SKIP)) lines.push(field);
  const content = message.content;
  if (!('content' in message)) lines.push('(no content)');
  else if (typeof content === 'string') lines.push(`content: text, ${content.length} characters`, '', visibleText(content));
  else if (Array.isArray(content)) {
    lines.push(`content: ${content.length} block${content.length === 1 ? '' : 's'}`);
    content.forEach((block: unknown, i) => {
      lines.push('');
      if (!isObject(block)) {
        lines.push(`[${i}] ${json(block)}`);
        return;
      }
      lines.push(`[${i}] type: ${typeof block.type === 'string' ? visibleText(block.type) : json(block.type)}`, ...fields(block, BLOCK_SKIP));
      if (typeof block.text === 'string') lines.push(`text: ${block.text.length} characters`, '', visibleText(block.text));
      else if ('text' in block) lines.push(`text: ${json(block.text)}`);
    });
  } else lines.push(`content: ${json(content)}`);
  lines.push('', footer);
  return lines.join('\n');
}
