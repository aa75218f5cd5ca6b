// The one Markdown builder for hovers, completion documentation and messages. Everything taken from a file
// (transcript rows, registry titles and paths, boundary ids, .harn names and doc comments) reaches Markdown
// through these functions, so a file cannot put a link, an image, raw HTML or a `command:` URI into a hover.
//
// What each function guarantees (checked against markdown-it with HTML and linkify on, in markdown.test.ts):
// - code(text): one code span holding exactly the text (line breaks shown as ⏎).
// - codeBlock(text, lang): one fenced block holding exactly the text.
// - escapeText(text): exactly the text as one line; every ASCII punctuation character is backslash-escaped.
// - plain(text), strong(text): exactly the text as one line (leading blanks dropped); only characters that could
//   start Markdown syntax or a bare link are escaped, so ordinary prose ("Drops: The rest of a turn.") reads the
//   same in the source as rendered. escapeText is kept for the row hovers, whose tests pin that form.
// - link(text, uri): a link only to a `file:` URI (optionally with a `#L…` line fragment) or to such a fragment
//   alone; any other target gives the escaped text without a link. Links are made by the server, never by files.
// - userMarkdown(text): Markdown written by a user (HarnDoc comments), kept as Markdown but with images, raw
//   HTML, reference definitions and links to anything but http(s)/file neutralised (see there for why).
// Pure: strings in, strings out.

/** Inline code for untrusted text: the fence is longer than any backtick run, line breaks become `⏎`. */
export function code(text: string): string {
  const s = text.replace(/\r\n|\r|\n/g, '⏎');
  if (s === '') return '*(empty)*';
  let longest = 0;
  let run = 0;
  for (let i = 0; i < s.length; i++) {
    if (s.charCodeAt(i) === 96) {
      run++;
      if (run > longest) longest = run;
    } else run = 0;
  }
  const fence = '`'.repeat(longest + 1);
  // CommonMark strips one space from each side when both are present; pad so the text survives exactly, and
  // pad a leading/trailing backtick so it does not merge with the fence.
  const pad = s.startsWith('`') || s.endsWith('`') || (s.length > 1 && s.startsWith(' ') && s.endsWith(' ') && s.trim() !== '') ? ' ' : '';
  return fence + pad + s + pad + fence;
}

/** A fenced code block for untrusted multi-line text; the fence outlasts any backtick run inside. */
export function codeBlock(text: string, lang = 'text'): string {
  const s = text.replace(/\r\n|\r/g, '\n');
  let longest = 0;
  const runs = s.match(/`+/g);
  if (runs) for (const r of runs) if (r.length > longest) longest = r.length;
  const fence = '`'.repeat(Math.max(3, longest + 1));
  // The info string is the caller's (or a doc comment fence's first word): keep it a bare word, so it cannot
  // carry a backtick or markup onto the fence's line.
  return `${fence}${lang.replace(/[^\w+.-]/g, '')}\n${s}\n${fence}`;
}

const LINE_BREAKS = /\r\n|[\r\n\u2028\u2029]/g;

/** Untrusted prose as Markdown text: every ASCII punctuation character backslash-escaped, lines joined. */
export function escapeText(text: string): string {
  return text.replace(LINE_BREAKS, ' ').replace(/[!-/:-@[-`{-~]/g, '\\$&');
}

const isWordChar = (c: string | undefined): boolean => c !== undefined && /[\p{L}\p{N}]/u.test(c);

/**
 * The escaping of plain ('prose') and of link text ('label'). Both escape what starts inline syntax, and break
 * what a renderer would turn into a link by itself: a scheme's `://`, `www.`, the `@` of an e-mail address (GFM's
 * autolinks; a bare URL would also swallow a backslash escape after it). 'prose' also breaks `//` and a dot
 * before a word character (markdown-it's protocol-relative and fuzzy links: `//localhost`, `evil.com`), drops
 * leading blanks and escapes a leading `#`, `-`, `+`, `=` or `1.` that would start a heading, list or rule. Link
 * text needs none of that (nothing is linkified inside a link), so paths stay readable there.
 */
function escapeInline(text: string, mode: 'prose' | 'label'): string {
  const prose = mode === 'prose';
  const s = text.replace(LINE_BREAKS, ' ');
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    switch (c) {
      case ']':
        // `\]\(`: not even the source reads as a link tail.
        if (s[i + 1] === '(') {
          out += '\\]\\(';
          i++;
        } else out += '\\]';
        continue;
      case '\\':
      case '`':
      case '*':
      case '[':
      case '<':
      case '>':
      case '&':
      case '~':
      case '|':
      case '@':
        out += '\\' + c;
        continue;
      case '_':
        // An underscore between word characters never delimits emphasis (CommonMark), so `max_turns` stays as is.
        out += isWordChar(s[i - 1]) && isWordChar(s[i + 1]) ? c : '\\_';
        continue;
      case ':':
        out += s[i + 1] === '/' && s[i + 2] === '/' ? '\\:' : c;
        continue;
      case '/':
        // `//host` is a protocol-relative link to some linkifiers.
        if (prose && s[i + 1] === '/') {
          out += '/\\/';
          i++;
        } else out += c;
        continue;
      case '.':
        out += (prose && isWordChar(s[i + 1])) || /(^|[^\p{L}\p{N}])www$/iu.test(s.slice(Math.max(0, i - 4), i)) ? '\\.' : c;
        continue;
      case '\u0000':
        out += '\ufffd';
        continue;
      default:
        out += c;
    }
  }
  if (prose) {
    // Leading blanks would make an indented code block at the start of a line (and are not shown anyway). Then a
    // leading `#`, `+`, `=`, `-` is escaped itself; for `1.` / `1)` the mark after the digits.
    out = out.replace(/^[ \t]+/, '');
    const lead = /^(?:[#+=-]|\d{1,9}(?=[.)]))/.exec(out);
    if (lead) {
      const at = /\d$/.test(lead[0]) ? lead[0].length : 0;
      out = out.slice(0, at) + '\\' + out.slice(at);
    }
  }
  return out;
}

/** Untrusted prose as one line of Markdown text, escaped only where it could start Markdown syntax. */
export function plain(text: string): string {
  return escapeInline(text, 'prose');
}

/** Bold untrusted text (an id, a title). */
export function strong(text: string): string {
  return text === '' ? '*(empty)*' : `**${plain(text)}**`;
}

/** `#L12`, `#L12,5`, `#L12-L14`, `#L12-14`: a line (range) fragment as VS Code opens it. */
const LINE_FRAGMENT = /^#L\d+(,\d+)?(-L?\d+(,\d+)?)?$/;

/** Whether the server may link to `uri`: a `file:` URI with no fragment or a line fragment, or such a fragment alone. */
export function isLinkTarget(uri: string): boolean {
  const hash = uri.indexOf('#');
  const base = hash < 0 ? uri : uri.slice(0, hash);
  const fragment = hash < 0 ? '' : uri.slice(hash);
  if (fragment !== '' && !LINE_FRAGMENT.test(fragment)) return false;
  if (base === '') return fragment !== '';
  return /^file:/i.test(base);
}

/**
 * A Markdown link made by the server: the text escaped, the target a `file:` URI (or a `#L` fragment). Characters
 * that could end the destination early (spaces, parentheses, angle and square brackets, backslashes, quotes,
 * backticks, controls) are percent-encoded. Any other target gives the text alone, without a link.
 */
export function link(text: string, uri: string): string {
  if (!isLinkTarget(uri)) return plain(text);
  // eslint-disable-next-line no-control-regex -- control characters are among those percent-encoded in a link target
  const target = uri.replace(/[\s()<>[\]\\"'`\u0000-\u001f\u007f]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0'));
  const label = escapeInline(text, 'label');
  return `[${label === '' ? '(unnamed)' : label}](${target})`;
}

// ---------------------------------------------------------------------------------------------------------------
// Markdown written by users

/** Inline link tails left as they are: `](` + an http(s)/file URL with nothing that could start another construct + `)`. */
const SAFE_LINK_TAIL = /^\]\((?:https?|file):[^\s()<>\\&`"'[\]]*\)/i;

/** A fence line as CommonMark reads it at the top level (up to 3 spaces; a backtick fence's info has no backtick). */
const FENCE_OPEN = /^( {0,3})(`{3,}|~{3,})(.*)$/;

/**
 * A HarnDoc comment (Markdown written by the file's author) made safe to show in a hover. The author's emphasis,
 * code spans, fenced code, lists and links to web pages or files are kept; what a hover must never do on behalf
 * of a file is not:
 * - images: `![` loses its bracket (`!\[`) and the `](…)` after it is literal text, so nothing is fetched when a
 *   hover shows;
 * - raw HTML and `<…>` autolinks: `<` is written `&lt;`, so there is no `<img>`, `<a>`, `<script>` or `<command:…>`;
 * - links: an inline link survives only as `](http(s)|file:…)` in its simplest form; any other `](` (a
 *   `command:`, `vscode:` or `javascript:` target, a relative one, one with a title, spaces, entities or escapes
 *   that could spell a scheme, or one continued on the next line) becomes `\]\(`, literal text;
 * - reference definitions (`[x]: target`) are disabled (`\]:`), so `[x]` cannot point anywhere;
 * - bare URLs and e-mail addresses are not linkified (`\:`, `/\/`, `www\.`, `\@`): GFM's autolinks would turn an
 *   address into a `mailto:` link, and a bare URL swallows the backslash of an escape after it.
 * Code stays code. Fenced blocks are found as CommonMark finds them at the top level and written again with a fence
 * of ours (at column 0, longer than any backtick run inside, with an info string), so they are code whatever
 * containers the author's fence sat in; an unclosed fence ends at the end, as in CommonMark. Code spans keep their
 * text, but where a renderer might pair backticks differently (a span over two lines, a table cell split), their
 * dangerous sequences are broken by an invisible U+200B (`<\u200bimg`, `!\u200b[`, `]\u200b(`, `]\u200b:`, `/\u200b/`, `www\u200b.`, `\u200b@`), so
 * they are inert read as text too.
 */
export function userMarkdown(text: string): string {
  const lines = text.split(/\r\n|\r|\n/);
  const out: string[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i++] ?? '';
    const open = FENCE_OPEN.exec(line);
    const indent = open?.[1] ?? '';
    const fence = open?.[2] ?? '';
    const info = open?.[3] ?? '';
    if (!open || (fence.startsWith('`') && info.includes('`'))) {
      out.push(userInline(line));
      continue;
    }
    const body: string[] = [];
    for (; i < lines.length; i++) {
      const inner = lines[i] ?? '';
      const close = /^ {0,3}(`+|~+)[ \t]*$/.exec(inner)?.[1];
      if (close !== undefined && close[0] === fence[0] && close.length >= fence.length) {
        i++;
        break;
      }
      // CommonMark removes the opening fence's indentation from each line of its content.
      let cut = 0;
      while (cut < indent.length && inner[cut] === ' ') cut++;
      body.push(inner.slice(cut));
    }
    out.push(codeBlock(body.join('\n'), /^[\w+.-]+/.exec(info.trim())?.[0] ?? 'text'));
  }
  return out.join('\n');
}

/** One line of user Markdown outside fenced code (see userMarkdown). */
function userInline(line: string): string {
  let out = '';
  let i = 0;
  const n = line.length;
  /** An image opener was seen: its `](…)` is never kept as a link (the picture's URL is not fetched or linked). */
  let image = false;
  while (i < n) {
    const c = line[i];
    if (c === '\\') {
      // An escaped character stays escaped; in `\![` and `\](` the next one is escaped too, so that the source has
      // no `![` or `](` left that a careless reader (or renderer) could take for an image or a link.
      const pair = line.slice(i + 1, i + 3);
      const both = pair === '![' || pair === '](';
      out += both ? `\\${pair[0]}\\${pair[1]}` : line.slice(i, i + 2);
      i += both ? 3 : 2;
      continue;
    }
    if (c === '`') {
      let j = i;
      while (j < n && line[j] === '`') j++;
      const run = j - i;
      const close = closingRun(line, j, run);
      if (close >= 0) {
        out += line.slice(i, j) + inertInCode(line.slice(j, close)) + line.slice(close, close + run);
        i = close + run;
      } else {
        out += line.slice(i, j);
        i = j;
      }
      continue;
    }
    if (c === '<') {
      out += '&lt;';
      i++;
      continue;
    }
    if (c === '!' && line[i + 1] === '[') {
      out += '!\\[';
      image = true;
      i += 2;
      continue;
    }
    if (c === ']') {
      const next = line[i + 1];
      if (next === '(') {
        const safe = image ? null : SAFE_LINK_TAIL.exec(line.slice(i));
        if (safe) {
          out += safe[0];
          i += safe[0].length;
        } else {
          // Literal text; its target escaped too, so that nothing in it is linkified either.
          const target = /^[^\s)]*/.exec(line.slice(i + 2))?.[0] ?? '';
          out += '\\]\\(' + escapeText(target);
          i += 2 + target.length;
        }
        image = false;
        continue;
      }
      if (next === ':') {
        out += '\\]';
        i++;
        continue;
      }
    }
    if (c === ':' && line[i + 1] === '/' && line[i + 2] === '/') {
      out += '\\:';
      i++;
      continue;
    }
    if (c === '/' && line[i + 1] === '/') {
      out += '/\\/';
      i += 2;
      continue;
    }
    if (c === '.' && /(^|[^\p{L}\p{N}])www$/iu.test(line.slice(Math.max(0, i - 4), i))) {
      out += '\\.';
      i++;
      continue;
    }
    if (c === '@') {
      out += '\\@';
      i++;
      continue;
    }
    out += c;
    i++;
  }
  return out;
}

/** Code span text with every sequence that would be markup outside code broken by U+200B (invisible either way). */
function inertInCode(text: string): string {
  return text
    .replace(/<(?=[A-Za-z/!?])/g, '<\u200b')
    .replace(/!\[/g, '!\u200b[')
    .replace(/\](?=[(:])/g, ']\u200b')
    .replace(/\/\//g, '/\u200b/')
    .replace(/(www)\./gi, '$1\u200b.')
    .replace(/@/g, '\u200b@');
}

/** The start of the next run of exactly `length` backticks at or after `from`, or -1. */
function closingRun(line: string, from: number, length: number): number {
  let i = from;
  while (i < line.length) {
    if (line[i] !== '`') {
      i++;
      continue;
    }
    let j = i;
    while (j < line.length && line[j] === '`') j++;
    if (j - i === length) return i;
    i = j;
  }
  return -1;
}
