// client/src/treeItemView.ts: what both tree views' models share: the message rows (the server's failure among
// them), the top level of a tree of sessions, and the reveal command of a node.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { failedMessage, messageItemView, revealCommandOf, sessionRoots } from '../../client/src/treeItemView';

const NOT_MINE = { kind: 'message', id: 'message:not-mine', text: 'Not mine.' } as const;
const EMPTY = { kind: 'message', id: 'message:empty', text: 'Empty.', detail: 'Nothing in it.' } as const;

describe('treeItemView: the parts both tree views share', () => {
  test('sessionRoots: nothing shown, not the view’s kind, no session, and the sessions with ids unique by index', () => {
    assert.deepEqual(sessionRoots(undefined, NOT_MINE, EMPTY), []);
    assert.deepEqual(sessionRoots(null, NOT_MINE, EMPTY), [NOT_MINE]);
    assert.deepEqual(sessionRoots({ uri: 'file:///a.jsonl', sessions: [] }, NOT_MINE, EMPTY), [EMPTY]);
    const twice = { sessionId: 's-1' };
    assert.deepEqual(sessionRoots({ uri: 'file:///a.jsonl', sessions: [twice, twice] }, NOT_MINE, EMPTY), [
      { kind: 'session', id: 's0:s-1', uri: 'file:///a.jsonl', session: twice },
      { kind: 'session', id: 's1:s-1', uri: 'file:///a.jsonl', session: twice },
    ]);
  });

  test('a message row: its detail as tooltip (else its text), an info icon, the view’s context value; the failure row', () => {
    assert.deepEqual(messageItemView(EMPTY, 'view.message'), {
      id: 'message:empty',
      label: 'Empty.',
      tooltip: 'Nothing in it.',
      icon: { id: 'info' },
      contextValue: 'view.message',
      collapsible: 'none',
    });
    assert.equal(messageItemView(NOT_MINE, 'view.message').tooltip, 'Not mine.');
    assert.deepEqual(failedMessage('connection closed'), {
      kind: 'message',
      id: 'message:failed',
      text: 'The Harn language server did not answer.',
      detail: 'connection closed',
    });
  });

  test('revealCommandOf: the view’s command and title, the row as its one argument', () => {
    const range = { start: { line: 3, character: 0 }, end: { line: 3, character: 9 } };
    assert.deepEqual(revealCommandOf('view.reveal', 'Reveal in File')('file:///a.jsonl', range), {
      command: 'view.reveal',
      title: 'Reveal in File',
      arguments: [{ uri: 'file:///a.jsonl', range }],
    });
  });
});
