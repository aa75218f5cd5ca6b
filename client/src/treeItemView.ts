// What the tree views' vscode-free models share and hand their thin vscode files: a TreeItem as plain data, the
// few text helpers that keep text from a file on one short plain line (labels) or a bounded tooltip, and the parts
// of a tree of sessions both views build alike (their one-line messages, the top level, the reveal command).

import { cutUtf16 } from '../../server/src/text/surrogates';

export const LABEL_MAX = 100;
export const TOOLTIP_MAX = 2000;

export interface IconView {
  id: string;
  color?: string;
}

export interface CommandView {
  command: string;
  title: string;
  arguments: unknown[];
}

/** What a TreeItem shows; `collapsible` maps onto TreeItemCollapsibleState. */
export interface TreeItemView {
  id: string;
  label: string;
  description?: string;
  tooltip: string;
  icon: IconView;
  contextValue: string;
  collapsible: 'none' | 'collapsed' | 'expanded';
  command?: CommandView;
}

/** Control characters (newlines included) would break a one-line label; each run of them becomes a space. */
export function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/ *[\u0000-\u001f\u007f-\u009f\u2028\u2029]+ */g, ' ').trim();
}

/** One line of at most `max` characters, an ellipsis at the cut; never half a surrogate pair. */
export function clip(text: string, max = LABEL_MAX): string {
  const flat = oneLine(text);
  return flat.length <= max ? flat : `${cutUtf16(flat, max - 1)}…`;
}

export function clipTooltip(text: string): string {
  return text.length <= TOOLTIP_MAX ? text : `${text.slice(0, TOOLTIP_MAX - 1)}…`;
}

export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? one : many}`;
}

/** A one-line note standing for the tree: the file is not of the view's kind, has nothing to show, or no answer came. */
export interface MessageElement {
  kind: 'message';
  id: string;
  text: string;
  detail?: string;
}

/** Where the server did not answer the tree request (`detail`: its error). */
export function failedMessage(detail: string): MessageElement {
  return { kind: 'message', id: 'message:failed', text: 'The Harn language server did not answer.', detail };
}

/** A message's item; `contextValue` names its view (menus never match it). */
export function messageItemView(element: MessageElement, contextValue: string): TreeItemView {
  return { id: element.id, label: element.text, tooltip: element.detail ?? element.text, icon: { id: 'info' }, contextValue, collapsible: 'none' };
}

/** A UTF-16 range of a row, as the server sends it. */
export interface RowRange {
  start: { line: number; character: number };
  end: { line: number; character: number };
}

/** The place a node stands for: its row of the file. */
export interface RevealTarget {
  uri: string;
  range: RowRange;
}

/** A view's command that reveals a node's row when the node is selected (`command`: the view's reveal command). */
export function revealCommandOf(command: string, title: string): (uri: string, range: RowRange) => CommandView {
  return (uri, range) => {
    const target: RevealTarget = { uri, range };
    return { command, title, arguments: [target] };
  };
}

export interface SessionElement<S> {
  kind: 'session';
  id: string;
  uri: string;
  session: S;
}

/**
 * The top level of a tree of sessions. `result` undefined: nothing is shown (the view's welcome text); null: the
 * server does not read the file as the view's kind (`notThisKind` says so); no session: `noSessions` says so.
 */
export function sessionRoots<S extends { sessionId: string }>(
  result: { uri: string; sessions: readonly S[] } | null | undefined,
  notThisKind: MessageElement,
  noSessions: MessageElement,
): (MessageElement | SessionElement<S>)[] {
  if (result === undefined) return [];
  if (result === null) return [notThisKind];
  if (result.sessions.length === 0) return [noSessions];
  return result.sessions.map((session, i) => ({ kind: 'session', id: `s${i}:${session.sessionId}`, uri: result.uri, session }));
}
