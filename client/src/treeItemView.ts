// What the tree views' vscode-free models hand their thin vscode files: a TreeItem as plain data, and the few
// text helpers that keep text from a file on one short plain line (labels) or a bounded tooltip.

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
  if (flat.length <= max) return flat;
  let end = max - 1;
  const code = flat.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return `${flat.slice(0, end)}…`;
}

export function clipTooltip(text: string): string {
  return text.length <= TOOLTIP_MAX ? text : `${text.slice(0, TOOLTIP_MAX - 1)}…`;
}

export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? one : many}`;
}
