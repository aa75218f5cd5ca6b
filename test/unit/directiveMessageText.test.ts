// The prefix-break diff's text of one message (server/src/directives/messageText.ts): readable (a header of its
// fields, its content with real line breaks, blocks one after another), and injective: two messages that differ in
// any byte render differently, a difference in whitespace or in an escaped character included.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { messageText, visibleText } from '../../server/src/directives/messageText';

describe('messageText', () => {
  test('a string content: the role, other fields as JSON, then the text on its own lines', () => {
    const text = messageText({ role: 'user', content: 'line one\nline two "quoted"', name: 'n', _harn_directive_ids: ['r-1'] });
    assert.deepEqual(text.split('\n').slice(0, -1), [
      'role: user',
      'name: "n"',
      '_harn_directive_ids: ["r-1"]',
      'content: text, 26 characters',
      '',
      'line one',
      'line two "quoted"',
      '',
    ]);
    assert.match(text.split('\n').at(-1) ?? '', /^\(as sent: \d+ bytes of JSON, sha1 [0-9a-f]{16}\)$/);
  });

  test('content blocks one after another, each with its type line and fields', () => {
    const text = messageText({
      role: 'assistant',
      content: [{ type: 'text', text: 'a\nb' }, { type: 'tool_use', id: 't1', input: { q: 1 } }, 'odd'],
    });
    assert.deepEqual(text.split('\n').slice(0, -2), [
      'role: assistant',
      'content: 3 blocks',
      '',
      '[0] type: text',
      'text: 3 characters',
      '',
      'a',
      'b',
      '',
      '[1] type: tool_use',
      'id: "t1"',
      'input: {"q":1}',
      '',
      '[2] "odd"',
    ]);
  });

  test('invisible differences are made visible: tabs, CR, trailing spaces, no-break and zero-width spaces, a lone surrogate', () => {
    assert.equal(visibleText('a\tb\r\nc  \nd\u00a0e\u200bf\ud800'), 'a\\tb\\r\nc\\u0020\\u0020\nd\\u00a0e\\u200bf\\ud800');
    assert.equal(visibleText('ok 😀 — é'), 'ok 😀 — é', 'ordinary text (a surrogate pair included) is as is');
    // A backslash is escaped, so an escape in the text never looks like one the rendering made.
    assert.notEqual(visibleText('a\\tb'), visibleText('a\tb'));
    assert.notEqual(visibleText('x\\n'), visibleText('x\n'));
  });

  test('any byte of difference shows: pairs that differ only in whitespace or escapes render differently', () => {
    const pairs: [unknown, unknown][] = [
      [
        { role: 'user', content: 'a b' },
        { role: 'user', content: 'a  b' },
      ],
      [
        { role: 'user', content: 'a ' },
        { role: 'user', content: 'a' },
      ],
      [
        { role: 'user', content: ' a' },
        { role: 'user', content: 'a' },
      ],
      [
        { role: 'user', content: 'a\n' },
        { role: 'user', content: 'a' },
      ],
      [
        { role: 'user', content: 'a\r\n' },
        { role: 'user', content: 'a\n' },
      ],
      [
        { role: 'user', content: '"a"' },
        { role: 'user', content: '\\"a\\"' },
      ],
      [
        { role: 'user', content: 'x' },
        { role: 'user', content: [{ type: 'text', text: 'x' }] },
      ],
      [
        { role: 'user', content: 'x', name: 'a' },
        { name: 'a', role: 'user', content: 'x' },
      ],
      [
        { role: 'user', content: 'x' },
        { role: 'user', content: 'x', extra: null },
      ],
    ];
    for (const [a, b] of pairs) assert.notEqual(messageText(a), messageText(b), `${JSON.stringify(a)} vs ${JSON.stringify(b)}`);
    // Only the footer catches a leading space (VS Code's diff ignores it by default): it differs there.
    const [a, b] = pairs[2] ?? [];
    assert.notEqual(messageText(a).split('\n').at(-1), messageText(b).split('\n').at(-1));
    assert.equal(messageText({ role: 'user', content: 'same' }), messageText({ role: 'user', content: 'same' }));
  });

  test('not an object: its JSON', () => {
    assert.match(messageText('plain'), /^"plain"\n\n\(as sent: 7 bytes/);
    assert.match(messageText(null), /^null\n/);
  });
});
