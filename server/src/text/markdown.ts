// The one Markdown builder for hovers, completion documentation and messages. Everything taken from a file
// (transcript rows, registry titles and paths, boundary ids, .harn names and doc comments) reaches Markdown
// through these functions, so a file cannot put a link, an image, raw HTML or a `command:` URI into a hover.
//
// What each function guarantees (checked against markdown-it with HTML and linkify on, in markdown.test.ts):
// - code(text): one code span holding exactly the text (line breaks shown as ⏎).
// - codeBlock(text, lang): one fenced block holding exactly the text.
// - escapeText(text): exactly the text as one line; every ASCII punctuation character is backslash-escaped.
// - plain(text): exactly the text as one line; only characters that could start Markdown syntax are escaped,
//   so ordinary prose ("Drops: The rest of a turn.") reads the same in the source as rendered.
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
  // The info string is ours, but keep it a bare word: a backtick in it would end the fence's line early.
  return `${fence}${lang.replace(/[^\w+.-]/g, '')}\n${s}\n${fence}`;
}

const LINE_BREAKS = /\r\n|[\r\n\u2028\u2029]/g;

/** Untrusted prose as Markdown text: every ASCII punctuation character backslash-escaped, lines joined. */
export function escapeText(text: string): string {
  return text.replace(LINE_BREAKS, ' ').replace(/[!-/:-@[-`{-~]/g, '\\$&');
}

const isWordChar = (c: string | undefined): boolean => c !== undefined && /[\p{L}\p{N}]/u.test(c);

/**
 * The escaping of plain and linkText. `autolinks`: also break what a linkifier would turn into a link (a
 * scheme's `:/`, a dot between word characters as in `www.x.com` or `evil.com`, the `@` of an e-mail address);
 * not needed inside link text, where nothing is linkified. `lineStart`: the text may begin a line, so a leading
 * `#`, `-`, `+`, `=` or `1.` must not become a heading, list or rule.
 */
function escapeInline(text: string, autolinks: boolean, lineStart: boolean): string {
  const s = text.replace(LINE_BREAKS, ' ');
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    switch (c) {
      case '\\':
      case '`':
      case '*':
      case '[':
      case ']':
      case '<':
      case '>':
      case '&':
      case '~':
      case '|':
        out += '\\' + c;
        continue;
      case '_':
        // An underscore between word characters never delimits emphasis (CommonMark), so `max_turns` stays as is.
        out += isWordChar(s[i - 1]) && isWordChar(s[i + 1]) ? c : '\\_';
        continue;
      case ':':
        out += autolinks && s[i + 1] === '/' ? '\\:' : c;
        continue;
      case '.':
        out += autolinks && isWordChar(s[i - 1]) && isWordChar(s[i + 1]) ? '\\.' : c;
        continue;
      case '@':
        out += autolinks ? '\\@' : c;
        continue;
      case '\u0000':
        out += '\ufffd';
        continue;
      default:
        out += c;
    }
  }
  if (lineStart) {
    // After any indentation: a leading `#`, `+`, `=`, `-` is escaped itself; for `1.` / `1)` the mark after the digits.
    const lead = /^[ \t]*(?:[#+=-]|\d{1,9}(?=[.)]))/.exec(out);
    if (lead) {
      const at = /\d$/.test(lead[0]) ? lead[0].length : lead[0].length - 1;
      out = out.slice(0, at) + '\\' + out.slice(at);
    }
  }
  return out;
}

/** Untrusted prose as one line of Markdown text, escaped only where it could start Markdown syntax. */
export function plain(text: string): string {
  return escapeInline(text, true, true);
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
  const target = uri.replace(/[\s()<>[\]\\"'`\u0000-\u001f\u007f]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0'));
  const label = escapeInline(text, false, false);
  return `[${label === '' ? '(unnamed)' : label}](${target})`;
}

// ---------------------------------------------------------------------------------------------------------------
// Markdown written by users

/** Inline link tails left as they are: `](` + an http(s)/file URL with nothing that could start another construct + `)`. */
const SAFE_LINK_TAIL = /^\]\((?:https?|file):[^\s()<>\\&`"'[\]]*\)/i;

/**
 * A HarnDoc comment (Markdown written by the file's author) made safe to show in a hover. The author's emphasis,
 * code spans, fenced code, lists and links to web pages or files are kept; what a hover must never do on behalf
 * of a file is not:
 * - images: `![` loses its bracket (`!\[`) and the `](…)` after it is literal text, so nothing is fetched when a
 *   hover shows;
 * - raw HTML and `<…>` autolinks: `<` before a letter, `/`, `!` or `?` is escaped (HTML blocks and tags cannot
 *   start), so there is no `<img>`, `<a>`, `<script>` or `<command:…>`;
 * - links: an inline link survives only as `](http(s)|file:…)` in its simplest form; any other `](` (a
 *   `command:`, `vscode:` or `javascript:` target, a relative one, one with a title, spaces, entities or escapes
 *   that could spell a scheme, or one continued on the next line) becomes `\]\(`, literal text;
 * - reference definitions (`[x]: target`) are disabled (`\]:`), so `[x]` cannot point anywhere;
 * - the `@` of an e-mail address is escaped, which would otherwise become a `mailto:` link.
 * Code is left exactly as written: fenced blocks opened at column 0 (closed by CommonMark's rule, or at the end),
 * and code spans that close on the same line. Anything that only looks like code to CommonMark (a span over two
 * lines, an indented block, a fence inside a list) is treated as text: it may show a stray backslash, never a link.
 * An unclosed fence is closed, so that the Markdown after the comment is not swallowed.
 */
export function userMarkdown(text: string): string {
  const lines = text.split(/\r\n|\r|\n/);
  const out: string[] = [];
  let fence: { char: string; length: number } | undefined;
  for (const line of lines) {
    if (fence) {
      out.push(line);
      const close = /^ {0,3}(`+|~+)[ \t]*$/.exec(line);
      if (close && close[1][0] === fence.char && close[1].length >= fence.length) fence = undefined;
      continue;
    }
    const open = /^(`{3,}|~{3,})(.*)$/.exec(line);
    if (open && !(open[1][0] === '`' && open[2].includes('`'))) {
      fence = { char: open[1][0], length: open[1].length };
      out.push(open[1] + open[2].replace(/[^\w+.\- ]/g, ''));
      continue;
    }
    out.push(userInline(line));
  }
  if (fence) out.push(fence.char.repeat(fence.length));
  return out.join('\n');
}

/** One line of user Markdown outside fenced code (see userMarkdown). */
function userInline(line: string): string {
  let out = '';
  let i = 0;
  /** An image opener was seen: its `](…)` is never kept as a link (the picture's URL is not fetched or linked). */
  let image = false;
  const n = line.length;
  while (i < n) {
    const c = line[i];
    if (c === '\\') {
      out += line.slice(i, i + 2);
      i += 2;
      continue;
    }
    if (c === '`') {
      let j = i;
      while (j < n && line[j] === '`') j++;
      const run = j - i;
      const close = closingRun(line, j, run);
      if (close >= 0) {
        out += line.slice(i, close + run);
        i = close + run;
      } else {
        out += line.slice(i, j);
        i = j;
      }
      continue;
    }
    if (c === '<' && /[A-Za-z/!?]/.test(line[i + 1] ?? '')) {
      out += '\\<';
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
          // Literal text; its target escaped too, so that a bare `https://…` in it is not linkified either.
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
