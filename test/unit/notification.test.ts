import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { LINK_BREAK, notificationText } from '../../server/src/text/notification';

// VS Code's pattern (src/vs/base/common/linkedText.ts, the same in the code-server the e2e tests run), and its
// parser's loop: the links a notification would render.
// eslint-disable-next-line no-useless-escape -- VS Code's pattern character for character.
const VSCODE_LINK = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^\)\s]+)(?: (["'])(.+?)(\3))?\)/gi;
const links = (text: string): string[] => [...text.matchAll(VSCODE_LINK)].map((m) => m[0]);

/** Strings made of the pieces links are made of, so that the generator often builds (and nests) them. */
const linkish = fc
  .array(
    fc.oneof(
      fc.constantFrom('[', ']', '(', ')', '](', ' ', '"', "'", 'x', 'Fix', 'command:', 'COMMAND:', 'https://', 'Http://', 'file:', 'é', '\n'),
      fc.string({ maxLength: 3 }),
    ),
    { maxLength: 30 },
  )
  .map((pieces) => pieces.join('').replaceAll(LINK_BREAK, ''));

describe('notificationText: no link from untrusted text in a notification', () => {
  test('a command link, a web link, a file link and a titled one show literally', () => {
    for (const text of [
      '[Fix](command:workbench.action.terminal.new)',
      'see [docs](https://example.invalid/a) now',
      '[x](FILE:///etc/passwd "t")',
      '[[nested](command:a)](command:b)',
    ]) {
      const shown = notificationText(text);
      assert.deepEqual(links(shown), [], shown);
      assert.equal(shown.replaceAll(LINK_BREAK, ''), text);
    }
    assert.equal(notificationText('[Fix](command:x)'), `[Fix]${LINK_BREAK}(command:x)`);
  });

  test('what is not a link stays as it is: brackets, an empty label, another scheme, text after a `]`', () => {
    for (const text of ['a [b] (c)', '[](command:x)', '[a](vscode:x)', 'a](command:x)', 'f(a[0])(command:x)', 'plain text', '']) {
      assert.equal(notificationText(text), text);
    }
  });

  test('for any text: no link is left, only word joiners were added, and a text without `[…](` is unchanged', () => {
    fc.assert(
      fc.property(linkish, (text) => {
        const shown = notificationText(text);
        assert.deepEqual(links(shown), []);
        // What VS Code does before parsing (line breaks folded, trimmed) makes none either.
        assert.deepEqual(links(shown.replace(/(\r\n|\n|\r)/gm, ' ').trim()), []);
        assert.equal(shown.replaceAll(LINK_BREAK, ''), text);
        if (!/\[[^\]]+\]\(/.test(text)) assert.equal(shown, text);
      }),
      { numRuns: 5000 },
    );
  });

  test('any text at all (full Unicode) keeps its characters and has no link', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 60 }), (raw) => {
        const text = raw.replaceAll(LINK_BREAK, '');
        const shown = notificationText(text);
        assert.deepEqual(links(shown), []);
        assert.equal(shown.replaceAll(LINK_BREAK, ''), text);
      }),
    );
  });
});
