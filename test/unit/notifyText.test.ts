// What the client hands VS Code's notifications and input boxes (client/src/notifyText.ts, applied by notify.ts):
// every text through notificationText, the rest of the options as given.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { shownInputBox, shownText, shownValidation } from '../../client/src/notifyText';
import { LINK_BREAK } from '../../server/src/text/notification';

const LINK = '[Fix](command:workbench.action.terminal.new)';
const SHOWN = `[Fix]${LINK_BREAK}(command:workbench.action.terminal.new)`;

describe('notifyText: what notify.ts shows', () => {
  test("a notification's text and a progress title: a link pattern split, other text unchanged", () => {
    assert.equal(shownText(`Wrote ${LINK}.jsonl`), `Wrote ${SHOWN}.jsonl`);
    assert.equal(shownText('Harn: 3 line(s) validated'), 'Harn: 3 line(s) validated');
  });

  test('a validation answer: a string or a message with its severity escaped, no answer stays none', () => {
    assert.equal(shownValidation(LINK), SHOWN);
    assert.deepEqual(shownValidation({ message: LINK, severity: 3 }), { message: SHOWN, severity: 3 });
    assert.equal(shownValidation(undefined), undefined);
    assert.equal(shownValidation(null), null);
    assert.equal(shownValidation(''), '');
  });

  test('an input box: its prompt and every validateInput answer escaped (a synchronous one stays so), the rest kept', async () => {
    const seen: string[] = [];
    const shown = shownInputBox({
      title: 'Steer run r',
      placeHolder: 'e.g.',
      ignoreFocusOut: true,
      prompt: `Bound to ${LINK}`,
      validateInput: (value) => {
        seen.push(value);
        return value === 'ok' ? undefined : `bad ${LINK}`;
      },
    });
    assert.equal(shown.prompt, `Bound to ${SHOWN}`);
    assert.equal(shown.title, 'Steer run r');
    assert.equal(shown.placeHolder, 'e.g.');
    assert.equal(shown.ignoreFocusOut, true);
    assert.equal(shown.validateInput?.('no'), `bad ${SHOWN}`);
    assert.equal(shown.validateInput?.('ok'), undefined);
    assert.deepEqual(seen, ['no', 'ok']);

    const later = shownInputBox({ validateInput: (value) => Promise.resolve({ message: `${value} ${LINK}`, severity: 2 }) });
    assert.equal(later.prompt, undefined);
    assert.deepEqual(await later.validateInput?.('v'), { message: `v ${SHOWN}`, severity: 2 });
    assert.ok(!('validateInput' in shownInputBox({ prompt: 'p' })), 'no validateInput added');
  });
});
