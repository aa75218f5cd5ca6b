// The Run Controls view's items and the compose commands' words (client/src/runControlTreeModel.ts) from plain
// RunControlTreeResults and compose answers; and the manifest's view, commands, menus and setting agreeing with them.

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import {
  childElements,
  clip,
  COMMANDS,
  composeTarget,
  controlTarget,
  deliveredText,
  DELIVERY_SETTING,
  formatTime,
  itemView,
  readDelivery,
  refusalText,
  rootElements,
  type RunControlElement,
  SHOWN_CONTEXT_KEY,
  interruptPrompt,
  steerPrompt,
  validationText,
  VIEW_ID,
} from '../../client/src/runControlTreeModel';
import { shownInputBox } from '../../client/src/notifyText';
import type { RunControlNode, RunControlRange, RunControlTreeResult, RunNode } from '../../server/src/protocol';
import { defined } from '../support/assertions';
import { REPO_ROOT } from '../support/lspClient';

const URI = 'file:///w/runs/controls/run_control.jsonl';

function row(line: number, to = 80): RunControlRange {
  return { start: { line, character: 0 }, end: { line, character: to } };
}

function control(overrides: Partial<RunControlNode> = {}): RunControlNode {
  return {
    requestId: 'rc-001',
    operation: 'steer',
    state: 'applied',
    summary: 'Only fix the failing parser test.',
    range: row(2),
    receipts: [
      { state: 'accepted', sequence: 1, atMs: 1767000000100, range: row(3) },
      { state: 'applied', sequence: 1, atMs: 1767000004200, range: row(4) },
    ],
    problems: [],
    ...overrides,
  };
}

function run(overrides: Partial<RunNode> = {}): RunNode {
  return {
    runId: 'run-42',
    active: true,
    turnId: 'turn-3',
    turnRevision: 3,
    queuedControls: 0,
    interruptRequested: false,
    lastSequence: 1,
    range: row(0),
    controls: [control()],
    ...overrides,
  };
}

const TREE: RunControlTreeResult = {
  uri: URI,
  sessions: [
    {
      sessionId: 'sess-alpha',
      runs: [
        run(),
        run({
          runId: 'run-41',
          active: false,
          turnId: null,
          turnRevision: 0,
          queuedControls: 2,
          interruptRequested: true,
          range: row(9),
          controls: [
            control({
              requestId: 'rc-009',
              operation: 'interrupt',
              force: true,
              state: 'settled',
              summary: 'operator\nstop',
              range: row(10),
              receipts: [{ state: 'settled', sequence: 4, atMs: 1767000006000, errorCode: 'RUN_ENDED', errorMessage: 'run ended', range: row(11) }],
              problems: ['transition_after_settled'],
            }),
          ],
        }),
      ],
    },
  ],
};

function walk(elements: RunControlElement[]): RunControlElement[] {
  return elements.flatMap((element) => [element, ...walk(childElements(element))]);
}

describe('run controls view: items', () => {
  const all = walk(rootElements(TREE));
  const find = (kind: RunControlElement['kind'], label: string): RunControlElement =>
    defined(
      all.find((e) => e.kind === kind && itemView(e).label === label),
      `${kind} ${label}`,
    );

  test('session → run → control → receipt, with ids unique across the tree', () => {
    assert.deepEqual(
      all.map((e) => [e.kind, itemView(e).label]),
      [
        ['session', 'session sess-alpha'],
        ['run', 'run run-42'],
        ['control', 'steer rc-001'],
        ['receipt', 'accepted'],
        ['receipt', 'applied'],
        ['run', 'run run-41'],
        ['control', 'interrupt (force) rc-009'],
        ['receipt', 'settled'],
      ],
    );
    const ids = all.map((e) => itemView(e).id);
    assert.equal(new Set(ids).size, ids.length);
  });

  test('a run says active or closed, its turn and revision, queued controls and a requested interrupt', () => {
    const active = itemView(find('run', 'run run-42'));
    assert.equal(active.description, 'active · turn-3 · revision 3');
    assert.equal(active.contextValue, 'harnRunControls.run.active');
    assert.equal(active.icon.id, 'play-circle');
    const closed = itemView(find('run', 'run run-41'));
    assert.equal(closed.description, 'closed · no turn · revision 0 · 2 queued · interrupt requested');
    assert.equal(closed.contextValue, 'harnRunControls.run.closed');
    assert.equal(closed.icon.id, 'stop-circle');
    assert.match(closed.tooltip, /Interrupt requested: yes/);
    assert.deepEqual(closed.command?.arguments, [{ uri: URI, range: row(9) }]);
  });

  test('a control shows its state and summary on one line; a problem overrides the state icon', () => {
    const steer = itemView(find('control', 'steer rc-001'));
    assert.equal(steer.description, 'applied · Only fix the failing parser test.');
    assert.deepEqual(steer.icon, { id: 'pass', color: 'testing.iconPassed' });
    assert.equal(steer.contextValue, 'harnRunControls.control.active');
    assert.equal(steer.collapsible, 'collapsed');
    const interrupt = itemView(find('control', 'interrupt (force) rc-009'));
    assert.equal(interrupt.description, 'settled · operator stop · 1 problem');
    assert.equal(interrupt.icon.id, 'warning');
    assert.equal(interrupt.contextValue, 'harnRunControls.control.closed');
    assert.match(interrupt.tooltip, /transition_after_settled/);
    assert.match(interrupt.tooltip, /\n\noperator\nstop$/, 'the tooltip keeps the reason as written');
  });

  test('each state has its own icon; an unknown state a question mark', () => {
    const icons = ['requested', 'accepted', 'applied', 'rejected', 'settled', 'bogus'].map(
      (state) => itemView({ kind: 'control', id: 'c', uri: URI, sessionId: 's', run: run(), control: control({ state }) }).icon.id,
    );
    assert.deepEqual(icons, ['mail', 'watch', 'pass', 'error', 'circle-slash', 'question']);
  });

  test('a receipt: its sequence, its time in UTC from ms and its error code; selecting it reveals its row', () => {
    const settled = itemView(find('receipt', 'settled'));
    assert.equal(settled.description, 'sequence 4 · 2025-12-29 09:20:06.000 UTC · RUN_ENDED');
    assert.match(settled.tooltip, /Error RUN_ENDED: run ended/);
    assert.deepEqual(settled.command, { command: COMMANDS.reveal, title: 'Reveal in Log', arguments: [{ uri: URI, range: row(11) }] });
    const rejected = itemView({
      kind: 'receipt',
      id: 'x',
      uri: URI,
      control: control(),
      receipt: { state: 'rejected', sequence: 0, errorCode: 'HOOK_DENIED', range: row(5) },
    });
    assert.equal(rejected.description, 'sequence 0 · HOOK_DENIED');
    assert.equal(rejected.icon.id, 'error');
  });

  test('times: milliseconds to a readable UTC time; out of range stays a number', () => {
    assert.equal(formatTime(0), '1970-01-01 00:00:00.000 UTC');
    assert.equal(formatTime(1767000000100), '2025-12-29 09:20:00.100 UTC');
    assert.equal(formatTime(9e15), '9000000000000000 ms');
  });

  test('text from the log stays on one line and is clipped without splitting a surrogate pair', () => {
    const long = `${'x'.repeat(98)}😀tail`;
    assert.equal(clip(long), `${'x'.repeat(98)}…`);
    const item = itemView({
      kind: 'control',
      id: 'c',
      uri: URI,
      sessionId: 's',
      run: run(),
      control: control({ requestId: 'a\r\nb', summary: '**bold**\n<img>' }),
    });
    assert.equal(item.label, 'steer a b');
    assert.equal(item.description, 'applied · **bold** <img>');
  });

  test('no log, not a log, an empty log', () => {
    assert.deepEqual(rootElements(undefined), []);
    assert.equal(itemView(defined(rootElements(null, 'runs/x.jsonl')[0], 'message')).label, 'runs/x.jsonl is not a run-control log.');
    assert.equal(itemView(defined(rootElements({ uri: URI, sessions: [] })[0], 'message')).label, 'No run in this run-control log.');
  });
});

describe('run controls view: compose', () => {
  const [session] = rootElements(TREE);
  const runs = childElements(defined(session, 'session'));
  const active = defined(runs[0], 'active run');
  const closed = defined(runs[1], 'closed run');

  test('Steer… and Interrupt… target an active run, or the run of a control; a closed run says why not', () => {
    const target = composeTarget(active, 'Steer…');
    assert.ok(!('unavailable' in target));
    assert.equal(target.run.runId, 'run-42');
    const viaControl = composeTarget(defined(childElements(active)[0], 'control'), 'Interrupt…');
    assert.ok(!('unavailable' in viaControl) && viaControl.run.runId === 'run-42');
    assert.deepEqual(composeTarget(closed, 'Interrupt…'), {
      unavailable: "Run run-41 is closed: the log's latest snapshot says it is not active, so there is nothing to interrupt.",
    });
    assert.match((composeTarget(undefined, 'Steer…') as { unavailable: string }).unavailable, /select an active run/);
    assert.match(steerPrompt(target).prompt, /^Bound to turn-3 · revision 3 of the log's latest snapshot/);
  });

  test("the input boxes' prompt and validation message show a link pattern from the log as text (VS Code reads links in them)", async () => {
    const target = composeTarget(active, 'Steer…');
    assert.ok(!('unavailable' in target));
    const hostile = { ...target, run: { ...target.run, turnId: '[Fix](command:a.b)' } };
    const refused = { ok: false as const, code: 'INVALID_REQUEST', message: 'turn [x](command:y) is stale' };
    // As runControlTree.ts opens them: the model's words through notify.inputBox (shownInputBox).
    for (const words of [steerPrompt(hostile), interruptPrompt(hostile)]) {
      const shown = shownInputBox({ ...words, validateInput: () => validationText(refused) });
      const prompt = shown.prompt ?? '';
      assert.ok(!prompt.includes(']('), prompt);
      assert.ok(prompt.replaceAll('\u2060', '').includes('[Fix](command:a.b)'), prompt);
      const message = await shown.validateInput?.('x');
      assert.ok(typeof message === 'string', 'a validation message');
      assert.equal(message.replaceAll('\u2060', ''), 'INVALID_REQUEST: turn [x](command:y) is stale');
      assert.ok(!message.includes(']('), message);
    }
  });

  test('Retry and Copy Request work on a control only', () => {
    assert.ok('unavailable' in controlTarget(active, 'Retry'));
    const target = controlTarget(defined(childElements(active)[0], 'control'), 'Copy Request');
    assert.ok(!('unavailable' in target) && target.control.requestId === 'rc-001');
  });

  test("the server's answers in words: a refusal with its code, where a request went", () => {
    const refused = { ok: false as const, code: 'INVALID_REQUEST', message: 'steer input must not be empty' };
    assert.equal(validationText(refused), 'INVALID_REQUEST: steer input must not be empty');
    assert.equal(refusalText(refused), 'Not sent: INVALID_REQUEST: steer input must not be empty');
    const sent = {
      ok: true as const,
      request: { request_id: 'rc-7f' },
      line: '{"request_id":"rc-7f","x":"é"}',
      inbox: 'runs/controls/run-control-inbox.jsonl',
    };
    assert.equal(validationText(sent), undefined);
    assert.equal(deliveredText(sent, 'inbox'), 'Appended request rc-7f to runs/controls/run-control-inbox.jsonl');
    assert.equal(deliveredText(sent, 'inbox', true), 'Appended the retried request rc-7f to runs/controls/run-control-inbox.jsonl');
    assert.equal(deliveredText(sent, 'clipboard'), 'Copied request rc-7f to the clipboard (31 bytes, one JSON line).');
  });

  test('the delivery setting: inbox unless it says clipboard', () => {
    assert.deepEqual([readDelivery('clipboard'), readDelivery('inbox'), readDelivery(undefined), readDelivery(3)], ['clipboard', 'inbox', 'inbox', 'inbox']);
  });
});

describe('run controls view: the manifest', () => {
  const manifest = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
    contributes: {
      commands: { command: string }[];
      views: Record<string, { id: string; name: string }[]>;
      viewsWelcome: { view: string; when: string }[];
      menus: Record<string, { command: string; when: string }[]>;
      configuration: { properties: Record<string, { default?: unknown; enum?: unknown[] }> };
    };
  };
  const { contributes } = manifest;

  test('the view sits in the Harn container, with its welcome text keyed on the shown-log context', () => {
    assert.ok(contributes.views['harn']?.some((v) => v.id === VIEW_ID && v.name === 'Run Controls'));
    assert.ok(contributes.viewsWelcome.some((w) => w.view === VIEW_ID && w.when === `!${SHOWN_CONTEXT_KEY}`));
  });

  test('every command is declared; those that need a node are hidden from the palette', () => {
    const declared = new Set(contributes.commands.map((c) => c.command));
    for (const command of Object.values(COMMANDS)) assert.ok(declared.has(command), command);
    const hidden = new Set((contributes.menus['commandPalette'] ?? []).filter((m) => m.when === 'false').map((m) => m.command));
    for (const command of [COMMANDS.steer, COMMANDS.interrupt, COMMANDS.retry, COMMANDS.copyRequest, COMMANDS.reveal]) assert.ok(hidden.has(command), command);
    assert.ok(!hidden.has(COMMANDS.refresh));
  });

  test('Steer… and Interrupt… are offered on an active run only; Retry and Copy Request on every control', () => {
    const menus = contributes.menus['view/item/context'] ?? [];
    const offered = (command: string, contextValue: string): boolean =>
      menus.some((m) => {
        if (m.command !== command || !m.when.includes(`view == ${VIEW_ID}`)) return false;
        const exact = /viewItem == ([\w.]+)/.exec(m.when)?.[1];
        const pattern = /viewItem =~ \/(.+)\//.exec(m.when)?.[1];
        return exact === contextValue || (pattern !== undefined && new RegExp(pattern).test(contextValue));
      });
    const views = walk(rootElements(TREE)).map((e) => itemView(e).contextValue);
    const activeRun = defined(
      views.find((v) => v.endsWith('run.active')),
      'active run',
    );
    const closedRun = defined(
      views.find((v) => v.endsWith('run.closed')),
      'closed run',
    );
    for (const command of [COMMANDS.steer, COMMANDS.interrupt]) {
      assert.ok(offered(command, activeRun), `${command} on an active run`);
      assert.ok(!offered(command, closedRun), `${command} not on a closed run`);
    }
    for (const v of views.filter((v) => v.includes('.control.'))) {
      assert.ok(offered(COMMANDS.retry, v) && offered(COMMANDS.copyRequest, v), v);
      assert.ok(!offered(COMMANDS.steer, v));
    }
  });

  test('the delivery setting: inbox (default) or clipboard', () => {
    const setting = defined(contributes.configuration.properties[DELIVERY_SETTING], DELIVERY_SETTING);
    assert.equal(setting.default, 'inbox');
    assert.deepEqual(setting.enum, ['inbox', 'clipboard']);
  });
});
