// The Directive Envelopes view's items (client/src/directiveTreeModel.ts) from plain DirectiveTreeResults: labels,
// icons, context values, commands, the prefix-break diff and its harn-prefix: addresses; and the manifest's
// view, menus and commands agreeing with them.

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import {
  childElements,
  clip,
  COMMANDS,
  type DirectiveTreeElement,
  itemView,
  parsePrefixQuery,
  PREFIX_SCHEME,
  prefixBreakDiff,
  prefixDocumentParts,
  requestKey,
  rootElements,
  SHOWN_CONTEXT_KEY,
  VIEW_ID,
} from '../../client/src/directiveTreeModel';
import type { DirectiveNode, DirectiveTreeRange, DirectiveTreeResult, EnvelopeNode, RequestNode } from '../../server/src/protocol';
import { validateArtifact } from '../../server/src/artifacts/validate';
import { directiveTree, prefixMessage } from '../../server/src/directives/tree';
import { defined } from '../support/assertions';
import { REPO_ROOT } from '../support/lspClient';

const URI = 'file:///w/run-llm/llm_transcript.jsonl';

function row(line: number, from = 0, to = 80): DirectiveTreeRange {
  return { start: { line, character: from }, end: { line, character: to } };
}

function directive(overrides: Partial<DirectiveNode> = {}): DirectiveNode {
  return {
    authority: 'corrective',
    ttlTurns: '1',
    id: 'r-7',
    firstLine: 'Run the tests before closing.',
    body: 'Run the tests before closing.',
    range: row(4, 60, 90),
    ...overrides,
  };
}

function envelope(overrides: Partial<EnvelopeNode> = {}): EnvelopeNode {
  return { speaker: 'harness', nonce: 'n-1', form: 'current', range: row(4), directives: [directive()], ...overrides };
}

function request(overrides: Partial<RequestNode> = {}): RequestNode {
  const key = overrides.key ?? overrides.callId ?? 'c-01';
  return { key, callId: 'c-01', iteration: 0, messageCount: 2, prefix: 'first', source: 'replay', range: row(3), envelopes: [], ...overrides };
}

const TREE: DirectiveTreeResult = {
  uri: URI,
  version: 3,
  sessions: [
    {
      sessionId: 's-42',
      range: row(2),
      requests: [
        request(),
        request({ callId: 'c-02', iteration: 1, messageCount: 4, prefix: 'intact', range: row(8), envelopes: [envelope()] }),
        request({ callId: 'c-03', iteration: 2, messageCount: 6, prefix: 'broken', source: 'snapshot', divergentIndex: 3, range: row(12) }),
        request({
          // The server's row:N counts non-blank rows: two blank lines before it, so not line + 1.
          key: 'row:15',
          callId: undefined,
          iteration: undefined,
          messageCount: 3,
          prefix: 'excused',
          divergentIndex: 1,
          excusedBy: 'transcript_compacted (row 15)',
          range: row(16),
        }),
        request({ callId: 'c-05', iteration: 4, prefix: 'unknown', range: row(20) }),
      ],
    },
  ],
};

function requests(): Extract<DirectiveTreeElement, { kind: 'request' }>[] {
  const [session] = rootElements(TREE);
  return childElements(defined(session, 'the session')).map((e) => {
    if (e.kind !== 'request') assert.fail(`a session's children are requests, not ${e.kind}`);
    return e;
  });
}

function requestAt(i: number): Extract<DirectiveTreeElement, { kind: 'request' }> {
  return defined(requests()[i], `request ${i}`);
}

describe('directive tree items', () => {
  test('no transcript shown: no node (the welcome text); null: one message node; no sessions: another', () => {
    assert.deepEqual(rootElements(undefined), []);
    const [notTranscript, ...rest] = rootElements(null);
    assert.equal(rest.length, 0);
    assert.equal(defined(notTranscript, 'the message').kind, 'message');
    const view = itemView(defined(notTranscript, 'the message'));
    assert.equal(view.label, 'This file is not a Harn LLM transcript.');
    assert.equal(view.collapsible, 'none');
    assert.equal(view.command, undefined);
    const empty = rootElements({ uri: URI, version: 1, sessions: [] });
    assert.match(itemView(defined(empty[0], 'the message')).label, /No session with provider requests/);
  });

  test('a session: label, request count, expanded, reveals its row', () => {
    const session = defined(rootElements(TREE)[0], 'the session');
    const view = itemView(session);
    assert.equal(view.label, 'session s-42');
    assert.equal(view.description, '5 requests');
    assert.equal(view.icon.id, 'comment-discussion');
    assert.equal(view.contextValue, 'harnDirectives.session');
    assert.equal(view.collapsible, 'expanded');
    assert.deepEqual(view.command, { command: COMMANDS.reveal, title: 'Reveal in Transcript', arguments: [{ uri: URI, range: row(2) }] });
  });

  test('requests: label iteration · call id, message count and prefix status, an icon and context value per status', () => {
    const views = requests().map(itemView);
    assert.deepEqual(
      views.map((v) => [v.label, v.description, v.icon.id, v.icon.color, v.contextValue, v.collapsible]),
      [
        ['iteration 0 · c-01', '2 messages · first request', 'debug-start', undefined, 'harnDirectives.request.first', 'none'],
        ['iteration 1 · c-02', '4 messages · prefix intact', 'pass', 'testing.iconPassed', 'harnDirectives.request.intact', 'collapsed'],
        ['iteration 2 · c-03', '6 messages · prefix broken at 3', 'warning', 'list.warningForeground', 'harnDirectives.request.broken', 'none'],
        ['iteration ? · row 17', '3 messages · prefix changed, excused at 1', 'archive', 'charts.blue', 'harnDirectives.request.excused', 'none'],
        ['iteration 4 · c-05', '2 messages · prefix unknown', 'question', undefined, 'harnDirectives.request.unknown', 'none'],
      ],
    );
    const broken = defined(views[2], 'the broken request');
    assert.match(broken.tooltip, /rebuilt from its request_snapshot\.messages/);
    assert.match(broken.tooltip, /message 3 differs from c-02's/);
    assert.match(defined(views[3], 'the excused request').tooltip, /excused: transcript_compacted \(row 15\)/);
    assert.match(defined(views[1], 'the intact request').tooltip, /replaying the rows before it/);
    assert.deepEqual(broken.command?.arguments, [{ uri: URI, range: row(12) }]);
  });

  test('ids are unique and stable: the same call id twice in a session is still two nodes', () => {
    const twice: DirectiveTreeResult = {
      uri: URI,
      version: 1,
      sessions: [{ sessionId: 's', range: row(0), requests: [request(), request({ prefix: 'intact' })] }],
    };
    const ids = childElements(defined(rootElements(twice)[0], 'the session')).map((e) => itemView(e).id);
    assert.equal(new Set(ids).size, 2, JSON.stringify(ids));
    assert.deepEqual(
      requests().map((e) => e.id),
      requests().map((e) => e.id),
    );
  });

  test('an envelope: speaker, nonce and directive count; legacy forms named by their form', () => {
    const [env] = childElements(requestAt(1));
    const view = itemView(defined(env, 'the envelope'));
    assert.equal(view.label, '<context-directives> speaker harness');
    assert.equal(view.description, 'nonce n-1 · 1 directive');
    assert.equal(view.icon.id, 'mail');
    assert.equal(view.contextValue, 'harnDirectives.envelope.current');
    assert.equal(view.collapsible, 'expanded');
    const legacy = itemView({ kind: 'envelope', id: 'x', uri: URI, envelope: envelope({ form: 'system-reminder', speaker: undefined, nonce: undefined }) });
    assert.equal(legacy.label, '<system-reminder> (legacy)');
    assert.equal(legacy.description, '1 directive');
    assert.match(legacy.tooltip, /Speaker: \(none\)/);
    const text = itemView({ kind: 'envelope', id: 'y', uri: URI, envelope: envelope({ form: 'system-reminder-text', speaker: undefined, directives: [] }) });
    assert.equal(text.label, '"System reminder:" text (legacy)');
    assert.equal(text.collapsible, 'none');
    const appended = itemView({ kind: 'envelope', id: 'z', uri: URI, envelope: envelope({ form: 'appended', speaker: undefined }) });
    assert.equal(appended.label, '<context-directives> no speaker');
  });

  test('a directive: first line as label, authority icon, ttl and id; copy menu by context value; reveals its tag', () => {
    const [env] = childElements(requestAt(1));
    const [node] = childElements(defined(env, 'the envelope'));
    const view = itemView(defined(node, 'the directive'));
    assert.equal(view.label, 'Run the tests before closing.');
    assert.equal(view.description, 'corrective · ttl 1 · r-7');
    assert.equal(view.icon.id, 'tools');
    assert.equal(view.contextValue, 'harnDirectives.directive');
    assert.deepEqual(view.command?.arguments, [{ uri: URI, range: row(4, 60, 90) }]);
    assert.match(view.tooltip, /corrective: overrides advisory directives/);
    assert.match(view.tooltip, /\n\nRun the tests before closing\.$/);
    const icons = ['contract', 'corrective', 'advisory', 'binding'].map(
      (authority) => itemView({ kind: 'directive', id: authority, uri: URI, directive: directive({ authority }) }).icon,
    );
    assert.deepEqual(icons, [{ id: 'law' }, { id: 'tools' }, { id: 'lightbulb' }, { id: 'question', color: 'list.warningForeground' }]);
    const invalid = itemView({ kind: 'directive', id: 'i', uri: URI, directive: directive({ authority: 'binding', ttlTurns: undefined, id: undefined }) });
    assert.equal(invalid.description, 'authority binding?');
    assert.match(invalid.tooltip, /binding \(not contract, corrective or advisory\)/);
    assert.match(invalid.tooltip, /TTL: none/);
  });

  test('text from the transcript stays one plain line: control characters, long and multibyte text, prototype names', () => {
    const hostile = directive({ firstLine: '<b>bold</b>\u0007 **x**\r\n' + '日本語🙂'.repeat(40), authority: 'constructor', id: '__proto__' });
    const view = itemView({ kind: 'directive', id: 'h', uri: URI, directive: hostile });
    assert.ok(![...view.label].some((c) => c < ' '), JSON.stringify(view.label));
    assert.ok(view.label.startsWith('<b>bold</b> **x** 日本語'), view.label);
    assert.ok(view.label.length <= 100, String(view.label.length));
    assert.ok(view.label.endsWith('…'));
    // No lone surrogate where the text was cut.
    assert.ok(!/[\ud800-\udbff](?![\udc00-\udfff])/.test(view.label), 'no lone high surrogate');
    assert.equal(view.icon.id, 'question', 'constructor is not an authority (no prototype lookup)');
    assert.equal(clip('   '), '');
    const empty = itemView({ kind: 'directive', id: 'e', uri: URI, directive: directive({ firstLine: '' }) });
    assert.equal(empty.label, '(empty body)');
    const longBody = itemView({ kind: 'directive', id: 'l', uri: URI, directive: directive({ body: 'x'.repeat(10_000) }) });
    assert.ok(longBody.tooltip.length <= 2000);
  });
});

describe('Show Prefix Break', () => {
  test('a broken request: message divergentIndex of the previous request and of this one, with a title naming both', () => {
    const diff = prefixBreakDiff(requestAt(2));
    assert.deepEqual(diff, {
      left: { uri: URI, callId: 'c-02', index: 3 },
      right: { uri: URI, callId: 'c-03', index: 3 },
      title: 'Prefix break at message 3: c-02 ↔ c-03',
    });
  });

  test('an excused request without a call id is addressed by the key the server gave it', () => {
    const diff = prefixBreakDiff(requestAt(3));
    assert.ok('left' in diff);
    assert.deepEqual(diff.right, { uri: URI, callId: 'row:15', index: 1 });
    assert.equal(diff.left.callId, 'c-03');
    assert.equal(diff.title, 'Prefix break (excused) at message 1: c-03 ↔ row 17');
    assert.equal(requestKey(request({ key: 'row:1', callId: undefined, range: row(4) })), 'row:1');
  });

  test("the server's tree: a request without a call id after blank lines is addressed so that harn/prefixMessage answers", () => {
    const a = { role: 'user', content: 'task' };
    const req = (messages: unknown[], callId?: string): string =>
      JSON.stringify({ type: 'provider_call_request', ...(callId ? { call_id: callId } : {}), request_snapshot: { messages } });
    const text = [
      req([a, a], 'c-1'),
      '',
      '',
      req([a, { role: 'user', content: 'other' }]),
      '{"type":"message","session_id":"s","message_index":2,"role":"assistant","content":"x"}',
    ].join('\n');
    const result = defined(validateArtifact('transcript', text, { directiveRecords: true }).directives, 'the directive checks');
    const lines = text.split('\n');
    const sessions = directiveTree(result, (line) => lines[line]);
    const second = defined(sessions[0]?.requests[1], 'the request without a call id');
    assert.equal(second.key, 'row:2', 'its row counts non-blank lines (it is on line 4)');
    const [element] = requests().slice(0, 1);
    const diff = prefixBreakDiff({ ...defined(element, 'a request element'), request: second, previous: sessions[0]?.requests[0] });
    assert.ok('right' in diff, JSON.stringify(diff));
    assert.equal(diff.right.callId, 'row:2');
    assert.match(
      defined(
        prefixMessage(result, diff.right.callId, diff.right.index, (line) => lines[line]),
        "the server's answer",
      ),
      /other/,
    );
    assert.match(
      defined(
        prefixMessage(result, diff.left.callId, diff.left.index, (line) => lines[line]),
        "the server's answer",
      ),
      /task/,
    );
  });

  test('no diff for an intact, first or unknown request, nor without an index or a previous request, nor on other nodes', () => {
    for (const i of [0, 1, 4]) assert.ok('unavailable' in prefixBreakDiff(requestAt(i)), `request ${i}`);
    const noIndex = { ...requestAt(2), request: request({ prefix: 'broken' }) };
    assert.match((prefixBreakDiff(noIndex) as { unavailable: string }).unavailable, /did not say where/);
    const firstBroken = { ...requestAt(2), previous: undefined };
    assert.match((prefixBreakDiff(firstBroken) as { unavailable: string }).unavailable, /first of its session/);
    assert.ok('unavailable' in prefixBreakDiff(defined(rootElements(TREE)[0], 'the session')));
  });

  test('harn-prefix: addresses carry the request and index, and read back; a bad one says why', () => {
    const params = { uri: 'file:///w/a%20b/llm_transcript.jsonl?x#y', callId: 'c/../01?#%', index: 12 };
    const parts = prefixDocumentParts(params);
    assert.equal(parts.scheme, PREFIX_SCHEME);
    assert.equal(parts.path, '/c_.._01___ message 12.txt');
    assert.deepEqual(parsePrefixQuery(parts.query), params);
    assert.ok('invalid' in parsePrefixQuery(''));
    assert.ok('invalid' in parsePrefixQuery('uri=file%3A%2F%2F%2Fa&callId=c&index=-1'));
    assert.ok('invalid' in parsePrefixQuery('uri=file%3A%2F%2F%2Fa&callId=c&index=1e3'));
    assert.ok('invalid' in parsePrefixQuery(`uri=file%3A%2F%2F%2Fa&callId=c&index=${'9'.repeat(30)}`));
  });
});

describe('the manifest declares the view, its commands and menus the items use', () => {
  interface Contribution {
    command?: string;
    when?: string;
    group?: string;
    id?: string;
    icon?: string;
    view?: string;
  }
  const manifest = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
    contributes: {
      commands: Contribution[];
      viewsContainers: { activitybar: Contribution[] };
      views: Record<string, Contribution[]>;
      viewsWelcome: Contribution[];
      menus: Record<string, Contribution[]>;
    };
  };
  const { contributes } = manifest;

  test('a Harn container in the activity bar with its icon, holding Directive Envelopes', () => {
    const container = contributes.viewsContainers.activitybar.find((c) => c.id === 'harn');
    const icon = defined(defined(container, 'the harn container').icon, 'its icon');
    assert.match(fs.readFileSync(path.join(REPO_ROOT, icon), 'utf8'), /^<svg [^>]*viewBox="0 0 24 24"/);
    assert.ok(contributes.views.harn?.some((v) => v.id === VIEW_ID));
    const welcome = contributes.viewsWelcome.find((w) => w.view === VIEW_ID);
    assert.equal(welcome?.when, `!${SHOWN_CONTEXT_KEY}`);
    assert.match(fs.readFileSync(path.join(REPO_ROOT, '.vscodeignore'), 'utf8'), /^!resources\/\*\*$/m, 'the icon is packaged');
  });

  test('every command is declared; those that need a node are hidden from the palette', () => {
    const declared = new Set(contributes.commands.map((c) => c.command));
    for (const command of Object.values(COMMANDS)) assert.ok(declared.has(command), command);
    const hidden = new Set(
      (contributes.menus.commandPalette ?? []).filter((m) => m.when === 'false' && (m.command ?? '').startsWith('harn.directives.')).map((m) => m.command),
    );
    assert.deepEqual([...hidden].sort(), [COMMANDS.copyBody, COMMANDS.reveal, COMMANDS.showPrefixBreak].sort());
  });

  test("the context menus' when clauses match the context values of the nodes they act on", () => {
    const menus = contributes.menus['view/item/context'] ?? [];
    const matches = (when: string, contextValue: string): boolean => {
      const equal = /viewItem == ([\w.]+)/.exec(when);
      if (equal) return equal[1] === contextValue;
      const regex = /viewItem =~ \/(.+)\/$/.exec(when);
      return regex ? new RegExp(defined(regex[1], 'the regex')).test(contextValue) : false;
    };
    const contextValues = requests().map((r) => itemView(r).contextValue);
    const showBreak = menus.filter((m) => m.command === COMMANDS.showPrefixBreak && m.group !== 'inline');
    assert.equal(showBreak.length, 1);
    const when = defined(defined(showBreak[0], 'the menu').when, 'its when');
    assert.ok(when.includes(`view == ${VIEW_ID}`));
    assert.deepEqual(
      contextValues.filter((v) => matches(when, v)),
      ['harnDirectives.request.broken', 'harnDirectives.request.excused'],
    );
    const copy = defined(
      menus.find((m) => m.command === COMMANDS.copyBody && m.group !== 'inline'),
      'the copy menu',
    );
    const [env] = childElements(requestAt(1));
    const [node] = childElements(defined(env, 'the envelope'));
    assert.ok(matches(defined(copy.when, 'its when'), itemView(defined(node, 'a directive')).contextValue));
    assert.ok(!matches(defined(copy.when, 'its when'), itemView(defined(env, 'an envelope')).contextValue));
  });
});
