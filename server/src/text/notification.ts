// Text for a notification (window/showMessage, vscode.window.show…Message, a progress notification's title):
// VS Code reads `[label](target)` in it as a link when the target starts with `https://`, `http://`, `command:`
// or `file:` (its linkedText parser, src/vs/base/common/linkedText.ts:
// /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^\)\s]+)(?: (["'])(.+?)(\3))?\)/gi), and has no escape for it.
// A file named `[Fix](command:…)`, or a token quoted from a file, must show as the characters it is: the `](`
// of each such link is split by a word joiner (U+2060, invisible, no line break), so the parser cannot match
// and the text reads the same. Every other character is kept. The whole message is passed through, not each
// piece taken from a file: a `[` in one piece and a `](command:` in the next would make a link together.
// Pure: a string in, a string out.

/** The invisible character put between `]` and `(`. */
export const LINK_BREAK = '\u2060';

const LINK_TARGET = /(?:https?:\/\/|command:|file:)/iy;

/**
 * The text with every `[label](target` that VS Code's notifications would start a link at split between `]`
 * and `(` (whether or not a `)` closes it: the toast truncates and folds lines after us); text without a
 * `[…](` is returned as it is.
 */
export function notificationText(text: string): string {
  let out = '';
  let copied = 0;
  /** The first `[` since the last `]`: the longest label a link ending at the next `]` could have. */
  let open = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5b /* [ */) {
      if (open < 0) open = i;
    } else if (c === 0x5d /* ] */) {
      // A label is at least one character; it cannot hold a `]`.
      if (open >= 0 && open < i - 1 && text.charCodeAt(i + 1) === 0x28 /* ( */) {
        LINK_TARGET.lastIndex = i + 2;
        if (LINK_TARGET.test(text)) {
          out += text.slice(copied, i + 1) + LINK_BREAK;
          copied = i + 1;
        }
      }
      open = -1;
    }
  }
  return copied === 0 ? text : out + text.slice(copied);
}
