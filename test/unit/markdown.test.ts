// The Markdown builder (server/src/text/markdown.ts) and every hover built with it, against hostile text from
// files: images, `command:` links, raw HTML, backtick runs, line breaks (LF, CRLF), very long text. Each builder
// function has exact expectations; then the producers end to end (entryMarkdown with a registry, rowHover with a
// transcript row, the Harn hover and completion with doc comments, liveHarnProblems' messages). Rendering is
// checked with markdown-it (VS Code's Markdown engine for previews; hovers use marked with the same CommonMark
// rules), with raw HTML and linkify on and every link target accepted, so that anything injected shows up.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { rowHover } from '../../server/src/artifacts/hover';
import { entryMarkdown, idCompletions, liveHarnProblems } from '../../server/src/boundaries/assist';
import { parseRegistry } from '../../server/src/boundaries/registry';
import { HarnAnalysis } from '../../server/src/harn/analysis';
import { completionsAt } from '../../server/src/harn/completion';
import { hoverAt } from '../../server/src/harn/hover';
import type { ModuleHost } from '../../server/src/harn/resolve';
import { code, codeBlock, escapeText, isLinkTarget, link, plain, strong, userMarkdown } from '../../server/src/text/markdown';
import { md } from '../support/markdownRender';

const LONG = 'A'.repeat(100_000) + '![x](http://evil/x.png)';

/** The hostile texts every producer is fed. */
const HOSTILE = [
  '![x](http://evil/x.png)',
  '[click](command:workbench.action.terminal.new)',
  '<img src=x>',
  '<img src=x onerror=alert(1)>',
  '``` `` ` code runs ` `` ```',
  'line one\nline two',
  'crlf one\r\ncrlf two',
  '[a](http://evil.example "t") and <http://evil.example> and www.evil.example and a@evil.example',
  '[ref]: command:workbench.action.terminal.new',
  '# heading',
  '- item',
  '1. item',
  'x` <img src=x> [a](http://evil.example) `y',
  '<!-- comment --><script>alert(1)</script>',
  LONG,
];

const ALLOWED_TAGS = [
  'p',
  'code',
  'pre',
  'strong',
  'em',
  'ul',
  'ol',
  'li',
  'br',
  'hr',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'blockquote',
  'a',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
  's',
  'del',
];

/** Every tag of the rendered HTML that is not plain formatting, and every link whose target `allowed` refuses. */
function unsafe(markdown: string, allowed: (href: string) => boolean): string[] {
  const html = md.render(markdown);
  const bad: string[] = [];
  for (const m of html.matchAll(/<([a-zA-Z][a-zA-Z0-9]*)\b[^>]*>/g)) {
    const tag = (m[1] ?? '').toLowerCase();
    if (!ALLOWED_TAGS.includes(tag)) bad.push(m[0]);
    else if (tag === 'a') {
      const href = /href="([^"]*)"/.exec(m[0])?.[1];
      if (href === undefined || !allowed(href.replace(/&amp;/g, '&'))) bad.push(m[0]);
    }
  }
  return bad;
}

/**
 * The Markdown source without its fenced blocks and code spans (the builder's fences: the closing fence is the
 * opening one; a span's backticks are not escaped), where text is shown literally.
 */
function withoutCode(markdown: string): string {
  return markdown.replace(/^(`{3,}|~{3,})[^\n]*\n[\s\S]*?\n\1[ \t]*$/gm, ' ').replace(/(?<![\\`])(`+)(?!`)[\s\S]*?[^`\\]\1(?!`)/g, ' ');
}

/** What no hover may contain in its Markdown source outside code, whatever renders it. */
function assertNoInjection(markdown: string, what: string): void {
  const prose = withoutCode(markdown);
  const shown = `${what}:\n${markdown.slice(0, 2000)}`;
  assert.ok(!prose.includes('!['), `an image opener in ${shown}`);
  assert.ok(!prose.includes('](command:'), `a command link in ${shown}`);
  assert.ok(!/(?<!\\)<img/i.test(prose), `an <img in ${shown}`);
}

/** No `[text](http…)` link the file wrote: every `[` before a `](http` outside code is escaped. */
function assertNoFileHttpLink(markdown: string, what: string): void {
  assert.ok(!/(?<!\\)\[[^\]]*\]\(https?:/i.test(withoutCode(markdown)), `a link from the file in ${what}:\n${markdown.slice(0, 2000)}`);
}

const onlyFileLinks = (href: string): boolean => /^file:\/\/\//.test(href);
const webOrFile = (href: string): boolean => /^(https?|file):/i.test(href);

function unescapeHtml(s: string): string {
  return s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
}

// ---------------------------------------------------------------------------------------------------------------

describe('markdown builder: exact output', () => {
  test('code: a fence longer than any backtick run, line breaks as ⏎, padding for edge backticks', () => {
    assert.equal(code('chat_turn_cap'), '`chat_turn_cap`');
    assert.equal(code('a`b'), '``a`b``');
    assert.equal(code('``` x ``'), '```` ``` x `` ````');
    assert.equal(code('`x`'), '`` `x` ``');
    assert.equal(code('one\ntwo\r\nthree'), '`one⏎two⏎three`');
    assert.equal(code('![x](http://evil/x.png)'), '`![x](http://evil/x.png)`');
    assert.equal(code(''), '*(empty)*');
  });

  test('codeBlock: the fence outlasts the text; CRLF becomes LF; the info string stays one word', () => {
    assert.equal(codeBlock('let x = 1', 'harn'), '```harn\nlet x = 1\n```');
    assert.equal(codeBlock('a ```` b\r\nc'), '`````text\na ```` b\nc\n`````');
    assert.equal(codeBlock('x', 'harn`evil <b>'), '```harnevilb\nx\n```');
  });

  test('escapeText: every ASCII punctuation character escaped, lines joined', () => {
    assert.equal(escapeText('![x](http://evil/x.png)'), '\\!\\[x\\]\\(http\\:\\/\\/evil\\/x\\.png\\)');
    assert.equal(escapeText('a\r\nb\nc'), 'a b c');
  });

  test('plain: only what could start syntax is escaped; prose reads as written', () => {
    assert.equal(plain('The rest of a conversation when max_turns ends it.'), 'The rest of a conversation when max_turns ends it.');
    assert.equal(plain('Agent-loop iteration cap'), 'Agent-loop iteration cap');
    assert.equal(plain('![pwn](http://e/x.png)'), '!\\[pwn\\]\\(http\\:/\\/e/x\\.png)');
    assert.equal(plain('[click](command:workbench.action.terminal.new)'), '\\[click\\]\\(command:workbench\\.action\\.terminal\\.new)');
    assert.equal(plain('<img src=x>'), '\\<img src=x\\>');
    assert.equal(plain('a ``` b'), 'a \\`\\`\\` b');
    assert.equal(plain('one\ntwo\r\nthree'), 'one two three');
    assert.equal(plain('_x_ *y* ~z~ a|b &amp; a@b.c www.x.com'), '\\_x\\_ \\*y\\* \\~z\\~ a\\|b \\&amp; a\\@b\\.c www\\.x\\.com');
    assert.equal(plain('# h'), '\\# h');
    assert.equal(plain('- i'), '\\- i');
    assert.equal(plain('12. i'), '12\\. i');
    assert.equal(plain('3) i'), '3\\) i');
    assert.equal(plain('---'), '\\---');
    assert.equal(strong('chat_turn_cap'), '**chat_turn_cap**');
    assert.equal(strong('_x_'), '**\\_x\\_**');
  });

  test('link: file: URIs and #L fragments only; the text escaped, the target encoded', () => {
    assert.equal(link('crates/a.rs', 'file:///w/harn%20x/crates/a.rs'), '[crates/a.rs](file:///w/harn%20x/crates/a.rs)');
    assert.equal(link('tool_call receipt, line 3', 'file:///w/t.jsonl#L3'), '[tool_call receipt, line 3](file:///w/t.jsonl#L3)');
    assert.equal(link('line 3', '#L3'), '[line 3](#L3)');
    assert.equal(link('a (copy)', 'file:///w/a (copy)/t.jsonl#L3'), '[a (copy)](file:///w/a%20%28copy%29/t.jsonl#L3)');
    assert.equal(link('a](command:x) [b', 'file:///w/x'), '[a\\]\\(command:x) \\[b](file:///w/x)');
    assert.equal(link('see https://e.x or a@b.c', 'file:///w/x'), '[see https\\://e.x or a\\@b.c](file:///w/x)');
    assert.equal(link('x', 'file:///w/x)](command:y'), '[x](file:///w/x%29%5D%28command:y)');
    // Any other target: the text alone.
    assert.equal(link('click', 'command:workbench.action.terminal.new'), 'click');
    assert.equal(link('[x](y)', 'https://example.com'), '\\[x\\]\\(y)');
    assert.equal(link('x', 'javascript:alert(1)'), 'x');
    assert.equal(link('x', 'file:///w/a#foo'), 'x');
    assert.equal(link('', 'file:///w/a'), '[(unnamed)](file:///w/a)');
    assert.deepEqual(
      ['file:///a', 'FILE:///a#L2', '#L2', '#L2,5', '#L2-L9', 'file:///a#L2-9', 'command:x', 'vscode://x', 'http://x', '', '#x', 'file:///a#L'].map(
        isLinkTarget,
      ),
      [true, true, true, true, true, true, false, false, false, false, false, false],
    );
  });

  test('userMarkdown: formatting and web links kept; images, HTML, other links and definitions neutralised', () => {
    const doc =
      'Doubles *n*. See [docs](https://example.com/d_x) and `a<b>`.\n![pwn](http://e/x.png) [run](command:workbench.action.terminal.new) <img src=x> mail a@b.c\n[r]: command:x';
    assert.equal(
      userMarkdown(doc),
      'Doubles *n*. See [docs](https://example.com/d_x) and `a<\u200bb>`.\n!\\[pwn\\]\\(http\\:\\/\\/e\\/x\\.png) [run\\]\\(command\\:workbench\\.action\\.terminal\\.new) &lt;img src=x> mail a\\@b.c\n[r\\]: command:x',
    );
    assert.equal(
      md.render(userMarkdown(doc)),
      '<p>Doubles <em>n</em>. See <a href="https://example.com/d_x">docs</a> and <code>a&lt;\u200bb&gt;</code>.\n![pwn](http://e/x.png) [run](command:workbench.action.terminal.new) &lt;img src=x&gt; mail a@b.c\n[r]: command:x</p>\n',
    );
    // Fenced code stays code, written again with a fence of ours; an unclosed fence ends at the end.
    assert.equal(userMarkdown('```harn\nlet a = "<img>" [x](command:y)\n```\nafter'), '```harn\nlet a = "<img>" [x](command:y)\n```\nafter');
    assert.equal(userMarkdown('~~~\n![x](y) ```` z'), '`````text\n![x](y) ```` z\n`````');
    // A fence in a list (which CommonMark ends with the list) and an indented fence: code, at column 0.
    assert.equal(userMarkdown('- a\n  ```\n[x](command:y)\n  ```'), '- a\n```text\n[x](command:y)\n```');
    assert.equal(userMarkdown('  ```js\n  x\n ```\n<img src=x>'), '```js\nx\n```\n&lt;img src=x>');
    // A link written over two lines, with a title, in angle brackets or with an entity: never kept.
    assert.equal(userMarkdown('[x](\ncommand:y)'), '[x\\]\\(\ncommand:y)');
    assert.equal(userMarkdown('[x](https://e "t")'), '[x\\]\\(https\\:\\/\\/e "t")');
    assert.equal(userMarkdown('[x](<command:y>)'), '[x\\]\\(\\<command\\:y\\>)');
    assert.equal(userMarkdown('[x](command&#58;y)'), '[x\\]\\(command\\&\\#58\\;y)');
    // A bare URL would swallow the backslash of `\<`: it is not linkified, and `<` is an entity anyway.
    assert.equal(userMarkdown('http://e/x.png<img src=x>'), 'http\\:/\\/e/x.png&lt;img src=x>');
    // A code span CommonMark pairs differently (it ends the span begun on the line before): still inert.
    assert.equal(md.render(userMarkdown('`a\nb`<img src=x>`')), '<p><code>a b</code>&lt;\u200bimg src=x&gt;`</p>\n');
    assert.equal(userMarkdown('a\r\nb'), 'a\nb');
  });
});

describe('markdown builder: hostile text', () => {
  test('code, codeBlock, escapeText and plain render exactly the text, with no HTML and no link', () => {
    for (const s of HOSTILE) {
      const inline = md.renderInline(code(s));
      const m = /^<code>([\s\S]*)<\/code>$/.exec(inline);
      assert.ok(m, `one code element for ${JSON.stringify(s.slice(0, 80))}`);
      assert.equal(unescapeHtml(m[1] ?? ''), s.replace(/\r\n|\r|\n/g, '⏎'));
      const block = /^<pre><code class="language-text">([\s\S]*)<\/code><\/pre>\n$/.exec(md.render(codeBlock(s)));
      assert.ok(block);
      assert.equal(unescapeHtml(block[1] ?? ''), s.replace(/\r\n/g, '\n') + '\n');
      for (const escape of [escapeText, plain]) {
        const html = md.renderInline(escape(s));
        assert.ok(!/<[a-z]/i.test(html), `HTML from ${escape.name}(${JSON.stringify(s.slice(0, 80))}): ${html.slice(0, 300)}`);
        assert.equal(unescapeHtml(html), escape === plain ? s.replace(/\r\n|\r|\n/g, ' ').replace(/^[ \t]+/, '') : s.replace(/\r\n|\r|\n/g, ' '));
        assertNoInjection(escape(s), `${escape.name}(${JSON.stringify(s.slice(0, 40))})`);
        assertNoFileHttpLink(escape(s), escape.name);
      }
    }
  });

  test('plain and link text survive any text (property)', () => {
    const unit = fc.constantFrom(
      '`',
      '*',
      '_',
      '<',
      '>',
      '[',
      ']',
      '(',
      ')',
      '!',
      'a',
      '1',
      ' ',
      '&',
      ':',
      '.',
      '/',
      '@',
      'w',
      '#',
      '-',
      '+',
      '=',
      '~',
      '|',
      '\\',
      '\n',
      'h',
      't',
      'p',
      's',
    );
    fc.assert(
      fc.property(fc.string({ unit }), (s) => {
        const html = md.render(plain(s));
        const text = s.replace(/\r\n|\r|\n/g, ' ');
        // As a block: one paragraph (or nothing, for blank text) holding exactly the text.
        if (text.trim() === '') return html === '' || html === '<p></p>\n';
        const m = /^<p>([\s\S]*)<\/p>\n$/.exec(html);
        return m?.[1] !== undefined && !/<[a-z]/i.test(m[1]) && unescapeHtml(m[1]) === text.trim();
      }),
      { numRuns: 1000 },
    );
    fc.assert(
      fc.property(fc.string({ unit }), (s) => {
        const html = md.renderInline(link(s, 'file:///w/x.harn'));
        const m = /^<a href="file:\/\/\/w\/x\.harn">([\s\S]*)<\/a>$/.exec(html);
        const text = s.replace(/\r\n|\r|\n/g, ' ');
        return m?.[1] !== undefined && !/<[a-z]/i.test(m[1]) && unescapeHtml(m[1]) === (text === '' ? '(unnamed)' : text);
      }),
      { numRuns: 1000 },
    );
  });

  test('userMarkdown never yields an image, raw HTML or a link other than http(s)/file (property)', () => {
    const unit = fc.constantFrom(
      '`',
      '``',
      '```',
      '~~~',
      '*',
      '_',
      '<',
      '>',
      '[',
      ']',
      '(',
      ')',
      '![',
      '](',
      ']:',
      '!',
      'a',
      ' ',
      '\n',
      '\n\n',
      '\\',
      '&',
      '#',
      ';',
      ':',
      '/',
      '"',
      '-',
      '    ',
      'img',
      'command:x',
      'javascript:x',
      'http://e/x.png',
      'https://e',
      'file:///w',
      '@',
      'e.c',
      '<img src=x>',
      '&#58;',
      '|',
    );
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 40 }), (parts) => {
        const out = userMarkdown(parts.join(''));
        const prose = withoutCode(out);
        return unsafe(out, webOrFile).length === 0 && !prose.includes('![') && !prose.includes('](command:') && !prose.includes('](javascript:');
      }),
      { numRuns: 3000 },
    );
    for (const s of HOSTILE) {
      const out = userMarkdown(s);
      assert.deepEqual(unsafe(out, webOrFile), [], `${JSON.stringify(s.slice(0, 80))} → ${out.slice(0, 300)}`);
      assertNoInjection(out, 'userMarkdown');
    }
  });
});

// ---------------------------------------------------------------------------------------------------------------
// The producers, end to end

const tomlString = (s: string): string => JSON.stringify(s);

function hostileRegistry(text: string): ReturnType<typeof parseRegistry> {
  const toml = [
    '[[boundary]]',
    'id = "evil_one"',
    `title = ${tomlString(text)}`,
    `drops = ${tomlString(text)}`,
    `anchors = [${tomlString(text)}, "../outside.rs", "/etc/passwd", "crates/a (1).rs"]`,
    `test = ${tomlString(text)}`,
    `event = ${tomlString(text)}`,
    '',
    '[[audited]]',
    'id = "audited_one"',
    `title = ${tomlString(text)}`,
    `event = ${tomlString(text)}`,
    `marker = ${tomlString(text)}`,
    `anchors = [${tomlString(text)}]`,
    '',
  ].join('\n');
  const registry = parseRegistry(toml);
  assert.ok(registry.parsed, JSON.stringify(registry.problems));
  return registry;
}

const uriOf = (relative: string): string => `file:///w/${relative.split('/').map(encodeURIComponent).join('/')}`;

describe('entryMarkdown (registry hover)', () => {
  test('a registry title that is an image: exact Markdown', () => {
    const registry = hostileRegistry('![pwn](http://e/x.png)');
    const sites = [{ id: 'evil_one', path: '![pwn](http://e/x.png).harn' }] as Parameters<typeof entryMarkdown>[2];
    assert.equal(
      entryMarkdown('evil_one', registry, sites, uriOf),
      [
        '**evil_one** — !\\[pwn\\]\\(http\\:/\\/e/x\\.png)',
        'Drops: !\\[pwn\\]\\(http\\:/\\/e/x\\.png)',
        'Anchors: [!\\[pwn\\]\\(http\\://e/x.png)](file:///w/!%5Bpwn%5D%28http%3A//e/x.png%29), `../outside.rs`, `/etc/passwd`, [crates/a (1).rs](file:///w/crates/a%20%281%29.rs)',
        'Test: [!\\[pwn\\]\\(http\\://e/x.png)](file:///w/!%5Bpwn%5D%28http%3A//e/x.png%29)',
        'Reported in: [!\\[pwn\\]\\(http\\://e/x.png).harn](file:///w/!%5Bpwn%5D%28http%3A//e/x.png%29.harn)',
        'Event: `![pwn](http://e/x.png)`',
      ].join('\n\n'),
    );
    assert.equal(
      entryMarkdown('audited_one', registry, [], uriOf),
      [
        '**audited_one** — audited boundary: !\\[pwn\\]\\(http\\:/\\/e/x\\.png)',
        'Event: `![pwn](http://e/x.png)` · marker `![pwn](http://e/x.png)`',
        'Anchors: [!\\[pwn\\]\\(http\\://e/x.png)](file:///w/!%5Bpwn%5D%28http%3A//e/x.png%29)',
      ].join('\n\n'),
    );
    assert.equal(entryMarkdown('<img src=x>', registry, [], uriOf), '**\\<img src=x\\>** is not in the loud-boundary registry.');
  });

  test('an anchor holding `](command:…)` cannot end the generated link early; a backtick in a path stays text', () => {
    const registry = parseRegistry('[[boundary]]\nid = "evil_one"\ntitle = "T"\nanchors = ["x](command:workbench.action.terminal.new)", "a`b.rs"]\n');
    const out = entryMarkdown('evil_one', registry, [], uriOf);
    assert.equal(
      out,
      '**evil_one** — T\n\nAnchors: [x\\]\\(command:workbench.action.terminal.new)](file:///w/x%5D%28command%3Aworkbench.action.terminal.new%29), [a\\`b.rs](file:///w/a%60b.rs)\n\nTest: none',
    );
    assert.deepEqual(unsafe(out, onlyFileLinks), []);
    // The completion documentation of an entry whose title is an image and whose drops is a command link.
    const titled = parseRegistry('[[boundary]]\nid = "evil_one"\ntitle = "![x](https://evil.example/p.png)"\ndrops = "[c](command:x)"\n');
    assert.deepEqual(idCompletions(titled), [{ label: 'evil_one', detail: '![x](https://evil.example/p.png)', documentation: 'Drops: \\[c\\]\\(command:x)' }]);
  });

  test('every hostile title, drops, anchor, test path, event and marker stays inert', () => {
    for (const text of HOSTILE) {
      const registry = hostileRegistry(text);
      const sites = [{ id: 'evil_one', path: text }] as Parameters<typeof entryMarkdown>[2];
      for (const id of ['evil_one', 'audited_one', text]) {
        const out = entryMarkdown(id, registry, sites, uriOf);
        assertNoInjection(out, `entryMarkdown(${JSON.stringify(id.slice(0, 40))}) with ${JSON.stringify(text.slice(0, 40))}`);
        assertNoFileHttpLink(out, 'entryMarkdown');
        assert.deepEqual(unsafe(out, onlyFileLinks), [], out.slice(0, 1000));
      }
      for (const item of idCompletions(registry)) {
        assertNoInjection(item.documentation, 'completion documentation');
        assert.deepEqual(
          unsafe(item.documentation, () => false),
          [],
        );
      }
    }
  });
});

describe('rowHover (transcript and event rows)', () => {
  const context = { line: 0, kind: 'transcript' as const, partner: () => ({ line: 4 }), lineLink: (n: number) => `file:///w/llm_transcript.jsonl#L${n + 1}` };

  test('a message row whose content and ids are an image and a command link: exact Markdown', () => {
    const out = rowHover(
      {
        type: 'message',
        session_id: '![s](http://e/x.png)',
        message_index: 0,
        role: 'user',
        content: '[click](command:workbench.action.terminal.new)',
        message: { tool_call_id: '<img src=x>' },
      },
      context,
    );
    assert.equal(
      out,
      [
        '**message** · `user` · #0 · session `![s](http://e/x.png)`',
        [
          '- Tool call id: `<img src=x>`',
          '- Call: [tool\\_call receipt, line 5](file:///w/llm_transcript.jsonl#L5)'.replace('tool\\_call', 'tool_call'),
          '- Result: [tool_result receipt, line 5](file:///w/llm_transcript.jsonl#L5)',
        ].join('\n'),
        'Content (46 chars):\n\n```text\n[click](command:workbench.action.terminal.new)\n```',
        '*Line 1*',
      ].join('\n\n'),
    );
  });

  test('a boundary_failure event with a hostile registry entry: the registry prose escaped', () => {
    const out = rowHover(
      { index: 0, emitted_at_ms: 0, type: 'boundary_failure', session_id: 's', boundary: 'b', kind: 'dropped', owner: 'harness', detail: '<img src=x>' },
      { ...context, kind: 'eventLog', registryEntry: () => ({ title: '![pwn](http://e/x.png)', drops: '[click](command:workbench.action.terminal.new)' }) },
    );
    assert.ok(out);
    assert.ok(
      out.includes('Registry: **\\!\\[pwn\\]\\(http\\:\\/\\/e\\/x\\.png\\)**  \nDrops: \\[click\\]\\(command\\:workbench\\.action\\.terminal\\.new\\)'),
      out,
    );
    assert.ok(out.includes('- Detail: `<img src=x>`'), out);
  });

  test('every hostile value in every field stays inert', () => {
    for (const a of HOSTILE) {
      const rows = [
        {
          type: 'message',
          session_id: a,
          message_index: 0,
          role: a,
          content: a,
          message: { role: a, tool_call_id: a, name: a, tool_calls: [{ id: a, function: { name: a, arguments: a } }] },
        },
        { type: 'tool_call', session_id: a, call_id: a, tool_name: a, arguments: { [a]: a }, schema_version: a },
        { type: 'provider_call_response', call_id: a, iteration: 0, model: a, text: a, parsed_tool_calls: [{ id: a, name: a, arguments: a }] },
        { index: 0, emitted_at_ms: 0, type: 'boundary_failure', session_id: a, boundary: a, kind: a, owner: a, detail: a, excerpt: a },
        { type: a, [a]: a, timestamp: a },
      ];
      for (const row of rows) {
        const out = rowHover(row, { ...context, registryEntry: () => ({ title: a, drops: a }) });
        assert.ok(out);
        assertNoInjection(out, `rowHover(${JSON.stringify(row).slice(0, 60)})`);
        assertNoFileHttpLink(out, 'rowHover');
        assert.deepEqual(unsafe(out, onlyFileLinks), [], out.slice(0, 1000));
      }
    }
  });
});

function memoryHost(files: Record<string, string>): ModuleHost {
  return {
    resolveImport: () => undefined,
    load: (file) => {
      const text = files[file];
      return text === undefined ? undefined : new HarnAnalysis(text);
    },
  };
}

describe('Harn hover and completion (HarnDoc comments)', () => {
  test('a doc comment with an image and a command link: exact Markdown', () => {
    const text =
      '/**\n * Doubles *n*. ![pwn](http://e/x.png)\n * [run](command:workbench.action.terminal.new) <img src=x>\n * See [docs](https://example.com).\n */\nfn double(n) { return n * 2 }\nlet y = double(2)\n';
    const analysis = new HarnAnalysis(text);
    const hover = hoverAt(analysis, '/ws/main.harn', text.indexOf('double(2)'), memoryHost({}), '/ws');
    assert.ok(hover);
    assert.equal(
      hover.markdown,
      '```harn\nfn double(n)\n```\n\nDoubles *n*. !\\[pwn\\]\\(http\\:\\/\\/e\\/x\\.png)\n[run\\]\\(command\\:workbench\\.action\\.terminal\\.new) &lt;img src=x>\nSee [docs](https://example.com).',
    );
    assertNoInjection(hover.markdown, 'the Harn hover');
    assert.deepEqual(unsafe(hover.markdown, webOrFile), []);
  });

  test('a struct, enum or interface signature holding a ``` line in a block comment stays one code block', () => {
    const bodies: Record<string, string> = { struct: '  x: int,', enum: '  A,', interface: '  fn f() -> int' };
    for (const [keyword, body] of Object.entries(bodies)) {
      const text = `${keyword} Evil {\n  /*\n\`\`\`\n![x](http://e/x.png) <img src=x>\n\`\`\`\n  */\n${body}\n}\nlet v = Evil\n`;
      const analysis = new HarnAnalysis(text);
      assert.deepEqual(analysis.parsed.diagnostics, []);
      const hover = hoverAt(analysis, '/ws/main.harn', text.lastIndexOf('Evil'), memoryHost({}), '/ws');
      const signature = `${keyword} Evil {\n  /*\n\`\`\`\n![x](http://e/x.png) <img src=x>\n\`\`\`\n  */\n${body}\n}`;
      assert.equal(hover?.markdown, `\`\`\`\`harn\n${signature}\n\`\`\`\``);
      // Rendered: one code block holding the whole signature.
      const escaped = signature.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
      assert.equal(md.render(hover.markdown), `<pre><code class="language-harn">${escaped}\n</code></pre>\n`);
    }
  });

  test('an import path with backticks is one code span', () => {
    const text = 'import "a`b``c"\n';
    const hover = hoverAt(new HarnAnalysis(text), '/ws/main.harn', 9, memoryHost({}), '/ws');
    assert.equal(hover?.markdown, 'module ```a`b``c``` → not found in the workspace');
    assert.equal(md.renderInline(hover.markdown), 'module <code>a`b``c</code> → not found in the workspace');
  });

  test('hostile doc comments, names and import paths stay inert in hovers and completion documentation', () => {
    for (const a of HOSTILE) {
      const doc = a.replace(/\*\//g, '* /');
      const text = `/// ${doc.replace(/\r?\n/g, '\n/// ')}\nfn f() {}\n/** ${doc} */\nenum E {\n  /** ${doc} */\n  V\n}\nimport ${JSON.stringify(a.replace(/[\r\n]/g, ' '))}\nlet y = f()\nE.`;
      const analysis = new HarnAnalysis(text);
      const host = memoryHost({ '/ws/main.harn': text });
      const hover = hoverAt(analysis, '/ws/main.harn', text.indexOf('f()'), host, '/ws');
      assert.ok(hover, `a hover for ${JSON.stringify(a.slice(0, 40))}`);
      const importHover = hoverAt(analysis, '/ws/main.harn', text.indexOf('import ') + 8, host, '/ws');
      const variants = completionsAt(analysis, '/ws/main.harn', text.length, host, '/ws');
      for (const out of [hover.markdown, importHover?.markdown ?? '', ...variants.map((c) => c.documentation ?? '')]) {
        assertNoInjection(out, `Harn Markdown for ${JSON.stringify(a.slice(0, 40))}`);
        assert.deepEqual(unsafe(out, webOrFile), [], out.slice(0, 1000));
      }
    }
  });
});

describe('liveHarnProblems messages', () => {
  test('ids from the file are code spans; severities as the adaptor used to decide them', () => {
    const registry = parseRegistry('[[boundary]]\nid = "chat_turn_cap"\n');
    const range = { start: 0, end: 1 };
    const problems = liveHarnProblems(
      {
        references: [
          { id: 'chat_turn_capp', range, dict: range },
          { id: 'a`b [x](command:y)', range, dict: range, viaConstant: 'C`' },
        ],
        problems: [{ code: 'invalid_boundary_kind', message: 'm', range }],
      },
      registry,
    );
    assert.deepEqual(
      problems.map((p) => [p.code, p.severity, p.message]),
      [
        ['invalid_boundary_kind', 'warning', 'm'],
        ['unknown_boundary', 'error', 'reports boundary `chat_turn_capp`, which is not in the registry. Did you mean `chat_turn_cap`?'],
        ['unknown_boundary', 'error', 'reports boundary ``a`b [x](command:y)`` (through `` C` ``), which is not in the registry.'],
      ],
    );
  });
});
