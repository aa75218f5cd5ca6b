// The "Run Controls" view's items and the compose commands' words, built from the server's harn/runControlTree and
// harn/runControlCompose answers (issue 12): labels, icons, context values, commands and messages. No `vscode`
// import, so node:test checks it with plain objects; client/src/runControlTree.ts turns these into TreeItems and
// dialogs. Everything shown comes from a log and is treated as plain text (labels and string tooltips are never
// rendered as Markdown). The client never parses the log: every fact here is the server's.

import type {
  RunControlComposeResult,
  RunControlNode,
  RunControlRange,
  RunControlReceiptNode,
  RunControlSessionNode,
  RunControlTreeResult,
  RunNode,
} from '../../server/src/protocol';
import type { IconView, MessageElement, SessionElement, TreeItemView } from './treeItemView';
import { clip, clipTooltip, messageItemView, oneLine, plural, revealCommandOf, sessionRoots } from './treeItemView';
export { clip, type CommandView, type IconView, type RevealTarget, type TreeItemView } from './treeItemView';

export const VIEW_ID = 'harn.runControls';
export const COMMANDS = {
  reveal: 'harn.runControls.reveal',
  steer: 'harn.runControls.steer',
  interrupt: 'harn.runControls.interrupt',
  retry: 'harn.runControls.retry',
  copyRequest: 'harn.runControls.copyRequest',
  refresh: 'harn.runControls.refresh',
} as const;
const revealCommand = revealCommandOf(COMMANDS.reveal, 'Reveal in Log');
/** Context key: a log is shown in the view (the welcome text shows while it is false). */
export const SHOWN_CONTEXT_KEY = 'harn.runControls.logShown';
export const DELIVERY_SETTING = 'harn.runControl.delivery';

/** Upstream's limits (spec A.1), for the prompts; the server's check is the one that decides. */
export const MAX_STEER_INPUT_BYTES = 128 * 1024;
export const MAX_INTERRUPT_REASON_BYTES = 4 * 1024;

export type RunControlElement =
  | MessageElement
  | SessionElement<RunControlSessionNode>
  | { kind: 'run'; id: string; uri: string; sessionId: string; run: RunNode }
  | { kind: 'control'; id: string; uri: string; sessionId: string; run: RunNode; control: RunControlNode }
  | { kind: 'receipt'; id: string; uri: string; control: RunControlNode; receipt: RunControlReceiptNode };

/** Unix milliseconds as a UTC time a person reads ("2026-01-01 09:20:00.100 UTC"); the raw number when out of range. */
export function formatTime(ms: number): string {
  const date = new Date(ms);
  if (!Number.isFinite(ms) || Number.isNaN(date.getTime())) return `${ms} ms`;
  return `${date.toISOString().replace('T', ' ').replace('Z', '')} UTC`;
}

function turnText(run: RunNode): string {
  return run.turnId === null ? `no turn · revision ${run.turnRevision}` : `${clip(run.turnId, 40)} · revision ${run.turnRevision}`;
}

/** The top-level nodes. `result` undefined: nothing shown (the welcome text); null: the file is not a run-control log. */
export function rootElements(result: RunControlTreeResult | undefined, notLog?: string): RunControlElement[] {
  return sessionRoots(
    result,
    {
      kind: 'message',
      id: 'message:not-a-log',
      text: notLog === undefined ? 'This file is not a run-control log.' : `${clip(notLog, 60)} is not a run-control log.`,
      detail:
        'A run-control log is a JSONL file of a3s run-control requests, receipts and snapshots, matched by the setting ' +
        'harn.runControl.logGlobs or by its rows. Open one to see its runs and controls.',
    },
    {
      kind: 'message',
      id: 'message:no-sessions',
      text: 'No run in this run-control log.',
      detail: 'Runs come from the rows of the log: snapshots, requests and receipts with their session_id and run_id.',
    },
  );
}

export function childElements(element: RunControlElement): RunControlElement[] {
  switch (element.kind) {
    case 'session':
      return element.session.runs.map((run, i) => ({
        kind: 'run',
        id: `${element.id}/r${i}:${run.runId}`,
        uri: element.uri,
        sessionId: element.session.sessionId,
        run,
      }));
    case 'run':
      return element.run.controls.map((control, i) => ({
        kind: 'control',
        id: `${element.id}/c${i}:${control.requestId}`,
        uri: element.uri,
        sessionId: element.sessionId,
        run: element.run,
        control,
      }));
    case 'control':
      return element.control.receipts.map((receipt, i) => ({
        kind: 'receipt',
        id: `${element.id}/x${i}`,
        uri: element.uri,
        control: element.control,
        receipt,
      }));
    case 'message':
    case 'receipt':
      return [];
  }
}

const STATE_ICONS: Record<string, IconView> = {
  requested: { id: 'mail' },
  accepted: { id: 'watch', color: 'charts.yellow' },
  applied: { id: 'pass', color: 'testing.iconPassed' },
  rejected: { id: 'error', color: 'testing.iconFailed' },
  settled: { id: 'circle-slash', color: 'disabledForeground' },
};

const STATE_MEANING: Record<string, string> = {
  requested: 'requested: the log has the request and no receipt for it yet',
  accepted: 'accepted: validated and waiting for the run’s next safe point',
  applied: 'applied: the loop consumed it at a safe point',
  rejected: 'rejected: refused before it entered the inbox',
  settled: 'settled: the run ended before it was applied',
};

function stateIcon(state: string): IconView {
  return STATE_ICONS[state] ?? { id: 'question' };
}

function stateMeaning(state: string): string {
  return STATE_MEANING[state] ?? `${oneLine(state)} (not a state of the protocol)`;
}

/** The row a session stands for: the first row of its first run. */
function sessionRange(session: RunControlSessionNode): RunControlRange | undefined {
  return session.runs[0]?.range;
}

export function itemView(element: RunControlElement): TreeItemView {
  switch (element.kind) {
    case 'message':
      return messageItemView(element, 'harnRunControls.message');
    case 'session': {
      const { session } = element;
      const active = session.runs.filter((run) => run.active).length;
      const range = sessionRange(session);
      return {
        id: element.id,
        label: `session ${clip(session.sessionId)}`,
        description: [plural(session.runs.length, 'run'), active ? `${active.toLocaleString('en-US')} active` : undefined].filter(Boolean).join(' · '),
        tooltip: clipTooltip(`Session ${oneLine(session.sessionId)}: ${plural(session.runs.length, 'run')}, ${active.toLocaleString('en-US')} active.`),
        icon: { id: 'comment-discussion' },
        contextValue: 'harnRunControls.session',
        collapsible: session.runs.length ? 'expanded' : 'none',
        command: range === undefined ? undefined : revealCommand(element.uri, range),
      };
    }
    case 'run': {
      const { run } = element;
      const parts = [
        run.active ? 'active' : 'closed',
        turnText(run),
        run.queuedControls ? `${run.queuedControls.toLocaleString('en-US')} queued` : undefined,
        run.interruptRequested ? 'interrupt requested' : undefined,
      ].filter((part) => part !== undefined);
      return {
        id: element.id,
        label: `run ${clip(run.runId)}`,
        description: parts.join(' · '),
        tooltip: clipTooltip(
          [
            `Run ${oneLine(run.runId)}: ${run.active ? 'active (Steer… and Interrupt… are offered)' : 'closed'}.`,
            `Latest snapshot: turn ${run.turnId === null ? '(none)' : oneLine(run.turnId)}, revision ${run.turnRevision}; a request composed here is bound to them.`,
            `Queued controls: ${run.queuedControls}. Interrupt requested: ${run.interruptRequested ? 'yes (stopping…)' : 'no'}. Last sequence: ${run.lastSequence}.`,
            `${plural(run.controls.length, 'control')} in the log.`,
          ].join('\n'),
        ),
        icon: run.active
          ? run.interruptRequested
            ? { id: 'loading~spin', color: 'charts.orange' }
            : { id: 'play-circle', color: 'testing.iconPassed' }
          : { id: 'stop-circle' },
        contextValue: run.active ? 'harnRunControls.run.active' : 'harnRunControls.run.closed',
        collapsible: run.controls.length ? 'expanded' : 'none',
        command: revealCommand(element.uri, run.range),
      };
    }
    case 'control': {
      const { control } = element;
      const forced = control.operation === 'interrupt' && control.force === true ? ' (force)' : '';
      const summary = control.summary.trim() ? clip(control.summary, 60) : undefined;
      const problems = control.problems.length ? `${plural(control.problems.length, 'problem')}` : undefined;
      return {
        id: element.id,
        label: `${clip(control.operation, 20)}${forced} ${clip(control.requestId, 60)}`,
        description: [control.state, summary, problems].filter((part) => part !== undefined).join(' · '),
        tooltip: clipTooltip(
          [
            `${oneLine(control.operation)} request ${oneLine(control.requestId)}${forced}: ${stateMeaning(control.state)}.`,
            control.problems.length
              ? `The log disagrees with the protocol here: ${control.problems.map(oneLine).join(', ')} (see the Problems view).`
              : undefined,
            `${plural(control.receipts.length, 'receipt')}.`,
            '',
            control.summary,
          ]
            .filter((part) => part !== undefined)
            .join('\n'),
        ),
        icon: control.problems.length ? { id: 'warning', color: 'list.warningForeground' } : stateIcon(control.state),
        contextValue: `harnRunControls.control.${element.run.active ? 'active' : 'closed'}`,
        collapsible: control.receipts.length ? 'collapsed' : 'none',
        command: revealCommand(element.uri, control.range),
      };
    }
    case 'receipt': {
      const { receipt } = element;
      const parts = [
        `sequence ${receipt.sequence}`,
        receipt.atMs === undefined ? undefined : formatTime(receipt.atMs),
        receipt.errorCode === undefined ? undefined : clip(receipt.errorCode, 40),
      ].filter((part) => part !== undefined);
      return {
        id: element.id,
        label: clip(receipt.state, 40),
        description: parts.join(' · '),
        tooltip: clipTooltip(
          [
            `Receipt of ${oneLine(element.control.requestId)}: ${stateMeaning(receipt.state)}.`,
            `Sequence ${receipt.sequence}${receipt.atMs === undefined ? '' : `, at ${formatTime(receipt.atMs)} (${receipt.atMs} ms)`}.`,
            receipt.errorCode === undefined ? undefined : `Error ${oneLine(receipt.errorCode)}: ${oneLine(receipt.errorMessage ?? '(no message)')}`,
          ]
            .filter((part) => part !== undefined)
            .join('\n'),
        ),
        icon: receipt.errorCode !== undefined && receipt.state !== 'settled' ? { id: 'error', color: 'testing.iconFailed' } : stateIcon(receipt.state),
        contextValue: `harnRunControls.receipt.${STATE_ICONS[receipt.state] ? receipt.state : 'unknown'}`,
        collapsible: 'none',
        command: revealCommand(element.uri, receipt.range),
      };
    }
  }
}

/** The run a compose command targets: the run node itself, or the run of a control. */
export interface ComposeTarget {
  uri: string;
  sessionId: string;
  run: RunNode;
}

export function composeTarget(element: RunControlElement | undefined, what: 'Steer…' | 'Interrupt…'): ComposeTarget | { unavailable: string } {
  if (element?.kind !== 'run' && element?.kind !== 'control') {
    return { unavailable: `${what} works on a run of the Run Controls view: select an active run first.` };
  }
  const { run } = element;
  if (!run.active)
    return {
      unavailable: `Run ${clip(run.runId, 60)} is closed: the log's latest snapshot says it is not active, so there is nothing to ${what === 'Steer…' ? 'steer' : 'interrupt'}.`,
    };
  return { uri: element.uri, sessionId: element.sessionId, run };
}

/** The control Retry and Copy Request act on. */
export function controlTarget(
  element: RunControlElement | undefined,
  what: 'Retry' | 'Copy Request',
): { uri: string; run: RunNode; control: RunControlNode } | { unavailable: string } {
  if (element?.kind === 'control') return { uri: element.uri, run: element.run, control: element.control };
  return { unavailable: `${what} works on a control (a steer or interrupt request) of the Run Controls view.` };
}

export type Delivery = 'inbox' | 'clipboard';

/** The delivery setting's value; anything else is the default, `inbox`. */
export function readDelivery(value: unknown): Delivery {
  return value === 'clipboard' ? 'clipboard' : 'inbox';
}

/** Why nothing is appended in Restricted Mode (the clipboard still works). */
export const UNTRUSTED_INBOX_MESSAGE =
  'Restricted Mode: Harn Workbench writes no file in an untrusted workspace, so the request cannot be appended to the run-control inbox. ' +
  'Trust the workspace to append it, or copy the request to the clipboard instead.';
export const COPY_INSTEAD = 'Copy to Clipboard Instead';

/** What the input box shows under the input while it types: the server's refusal, nothing when it would be sent. */
export function validationText(result: RunControlComposeResult): string | undefined {
  return result.ok ? undefined : `${result.code}: ${result.message}`;
}

export function refusalText(result: Extract<RunControlComposeResult, { ok: false }>): string {
  return `Not sent: ${result.code}: ${result.message}`;
}

function requestIdOf(result: Extract<RunControlComposeResult, { ok: true }>): string {
  const id = result.request['request_id'];
  return typeof id === 'string' ? clip(id, 80) : '(no request id)';
}

/** What the user is told once a request has gone out. */
export function deliveredText(result: Extract<RunControlComposeResult, { ok: true }>, delivery: Delivery, retry = false): string {
  const what = `${retry ? 'the retried ' : ''}request ${requestIdOf(result)}`;
  if (delivery === 'clipboard') return `Copied ${what} to the clipboard (${utf8Length(result.line).toLocaleString('en-US')} bytes, one JSON line).`;
  return `Appended ${what} to ${result.inbox ?? 'the run-control inbox'}`;
}

export function utf8Length(text: string): number {
  return new TextEncoder().encode(text).length;
}

/** The force quick pick's items: whether an interrupt is forced (advisory only: cleanup and governance still run). */
export const FORCE_ITEMS = [
  { label: 'Interrupt at the next safe point', description: 'force: false', force: false },
  { label: 'Force', description: 'force: true (advisory: cleanup and governance still run)', force: true },
] as const;

export function steerPrompt(target: ComposeTarget): { title: string; prompt: string; placeHolder: string } {
  return {
    title: `Steer run ${clip(target.run.runId, 60)}`,
    // An input box's prompt and validation message are read for links as a notification is (the turn id is the log's):
    // notify.inputBox shows them as text.
    prompt: `Bound to ${turnText(target.run)} of the log's latest snapshot. At most 128 KiB; Enter sends it.`,
    placeHolder: 'e.g. Only fix the failing parser test.',
  };
}

export function interruptPrompt(target: ComposeTarget): { title: string; prompt: string; placeHolder: string } {
  return {
    title: `Interrupt run ${clip(target.run.runId, 60)}`,
    prompt: `Reason (optional, at most 4 KiB). Bound to ${turnText(target.run)} of the log's latest snapshot.`,
    placeHolder: 'e.g. operator stop',
  };
}
