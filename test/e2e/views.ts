// E2E helpers for the extension's tree views in the side bar (the "Harn" view container) and the diff editor.
// DOM conditions with timeouts, as in harness.ts.
import type { Locator } from 'playwright-core';
import { type Editor, waitFor } from './harness';

/** The callbacks run in the page; the project compiles without the DOM library. */
interface RowElement {
  readonly innerText: string;
  getAttribute(name: string): string | null;
  querySelector(selector: string): { className: string } | null;
}

export interface TreeRow {
  /** data-index of the row in the list (rows are virtualised: only the rendered ones are read). */
  index: number;
  level: number;
  label: string;
  description: string;
  expanded: boolean | undefined;
  /** The codicon of the row's icon, e.g. "warning". */
  icon: string;
  selected: boolean;
}

/** Opens a view container from the activity bar by its title (e.g. "Harn") and waits for a view of it by name. */
export async function openViewContainer(editor: Editor, title: string, viewName: string, timeoutMs = 30_000): Promise<Locator> {
  const item = editor.page.locator(`.activitybar .action-item [aria-label^="${title}"], .activitybar .action-item[aria-label^="${title}"]`).first();
  await item.waitFor({ state: 'visible', timeout: timeoutMs });
  const sidebar = editor.page.locator('#workbench\\.parts\\.sidebar');
  // A container with one view hides that view's header (the side bar's title names it): attached, not visible.
  const header = sidebar.locator(`.pane-header[aria-label^="${viewName}"]`).first();
  const shown = async (): Promise<boolean> => (await sidebar.isVisible()) && (await header.count()) > 0 && (await header.locator('xpath=..').isVisible());
  if (!(await shown())) await item.click();
  await waitFor(`the ${viewName} view in the side bar`, timeoutMs, async () => ((await shown()) ? true : undefined));
  if ((await header.isVisible()) && (await header.getAttribute('aria-expanded')) === 'false') await header.click();
  return header.locator('xpath=..');
}

/** The rendered rows of a view's tree, top to bottom. */
export async function treeRows(pane: Locator): Promise<TreeRow[]> {
  const rows = await pane.locator('.monaco-list-row[role="treeitem"]').evaluateAll((nodes: RowElement[]) =>
    nodes.map((node) => {
      const icon = node.querySelector('.custom-view-tree-node-item-icon') ?? node.querySelector('.codicon');
      const codicon = /codicon-([\w-]+)/.exec(icon?.className ?? '')?.[1] ?? '';
      const label = node.querySelector('.label-name');
      const description = node.querySelector('.label-description');
      const expanded = node.getAttribute('aria-expanded');
      return {
        index: Number(node.getAttribute('data-index')),
        level: Number(node.getAttribute('aria-level')),
        label: ((label as unknown as { innerText?: string } | null)?.innerText ?? '').trim(),
        description: ((description as unknown as { innerText?: string } | null)?.innerText ?? '').trim(),
        expanded: expanded === null ? undefined : expanded === 'true',
        icon: codicon,
        selected: node.getAttribute('aria-selected') === 'true',
      };
    }),
  );
  return rows.sort((a, b) => a.index - b.index);
}

/** Waits until the tree's rendered rows satisfy `accept`; returns them. */
export async function waitForTree(pane: Locator, what: string, accept: (rows: TreeRow[]) => boolean, timeoutMs = 30_000): Promise<TreeRow[]> {
  let last: TreeRow[] = [];
  try {
    return await waitFor(what, timeoutMs, async () => {
      last = await treeRows(pane);
      return accept(last) ? last : undefined;
    });
  } catch (error) {
    throw new Error(`${String(error)}\nrows now:\n${last.map((r) => `  ${'  '.repeat(r.level - 1)}${r.label} | ${r.description} | ${r.icon}`).join('\n')}`, {
      cause: error,
    });
  }
}

export function rowLocator(pane: Locator, row: TreeRow): Locator {
  return pane.locator(`.monaco-list-row[role="treeitem"][data-index="${row.index}"]`);
}

/** Expands a collapsed row (its twistie) and waits for it to say so. */
export async function expandRow(pane: Locator, row: TreeRow, timeoutMs = 10_000): Promise<void> {
  if (row.expanded !== false) return;
  const locator = rowLocator(pane, row);
  await locator.locator('.monaco-tl-twistie').click();
  await waitFor(`the row ${row.label} to expand`, timeoutMs, async () => ((await locator.getAttribute('aria-expanded')) === 'true' ? true : undefined));
}

/** Right-clicks a row and picks `item` from its context menu. */
export async function contextMenuPick(editor: Editor, pane: Locator, row: TreeRow, item: string, timeoutMs = 10_000): Promise<string[]> {
  await rowLocator(pane, row).click({ button: 'right' });
  return pickFromOpenMenu(editor, item, timeoutMs);
}

/** Picks `item` from the context menu just opened; the menu's entries as they were shown. */
async function pickFromOpenMenu(editor: Editor, item: string, timeoutMs: number): Promise<string[]> {
  const menu = editor.page.locator('.context-view .monaco-menu').first();
  await menu.waitFor({ state: 'visible', timeout: timeoutMs });
  const entries = (await menu.locator('.action-item .action-label').allInnerTexts()).map((t) => t.trim()).filter(Boolean);
  // A click while the menu still fades in can be lost (seen under load): click again until the menu closes.
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    await menu.locator('.action-item').filter({ hasText: item }).first().click();
    try {
      await menu.waitFor({ state: 'hidden', timeout: 2_000 });
      return entries;
    } catch (error) {
      if (performance.now() > deadline || !(await menu.isVisible())) throw error;
    }
  }
}

/** The text of both sides of the visible diff editor (the rendered lines of each). */
export async function diffSides(editor: Editor, timeoutMs = 15_000): Promise<{ original: string; modified: string }> {
  const diff = editor.page.locator('.editor-instance .monaco-diff-editor').first();
  await diff.waitFor({ state: 'visible', timeout: timeoutMs });
  const side = async (which: 'original' | 'modified'): Promise<string> =>
    (
      await diff
        .locator(`.editor.${which} .view-lines .view-line`)
        .evaluateAll((nodes: { textContent: string | null; style: { top: string } }[]) =>
          nodes.map((n) => ({ top: parseFloat(n.style.top) || 0, text: (n.textContent ?? '').replace(/\u00a0/g, ' ') })),
        )
    )
      .sort((a, b) => a.top - b.top)
      .map((l) => l.text)
      .join('\n');
  return { original: await side('original'), modified: await side('modified') };
}

/** The open input box of a command (showInputBox): its title, prompt and validation message as shown. */
export interface InputBoxState {
  title: string;
  message: string;
  /** The validation severity the widget shows (an error outline on the input), if any. */
  invalid: boolean;
}

async function inputBoxState(editor: Editor): Promise<InputBoxState> {
  const widget = editor.page.locator('.quick-input-widget');
  const title = ((await widget.locator('.quick-input-title').first().textContent()) ?? '').trim();
  const message = ((await widget.locator('.quick-input-message').first().textContent()) ?? '').trim();
  const invalid = (await widget.locator('.quick-input-box .monaco-inputbox.error, .quick-input-box .monaco-inputbox.idle.error').count()) > 0;
  return { title, message, invalid };
}

/**
 * Types `text` into the open input box (replacing what is there) and waits until its validation message
 * satisfies `accept` (validation is asynchronous: the server answers as the user types).
 */
export async function typeInInputBox(editor: Editor, text: string, accept: (state: InputBoxState) => boolean, timeoutMs = 15_000): Promise<InputBoxState> {
  const input = editor.page.locator('.quick-input-widget .quick-input-box input').first();
  await input.waitFor({ state: 'visible', timeout: timeoutMs });
  await input.fill(text);
  let last: InputBoxState | undefined;
  try {
    return await waitFor('the input box to validate the text', timeoutMs, async () => {
      last = await inputBoxState(editor);
      return accept(last) ? last : undefined;
    });
  } catch (error) {
    throw new Error(`${String(error)}\ninput box now: ${JSON.stringify(last)}`, { cause: error });
  }
}

/** Accepts the open input box (Enter) and waits for it to close. */
export async function acceptInputBox(editor: Editor, timeoutMs = 10_000): Promise<void> {
  const input = editor.page.locator('.quick-input-widget .quick-input-box input').first();
  await input.press('Enter');
  await input.waitFor({ state: 'hidden', timeout: timeoutMs });
}

/**
 * Right-clicks a file of the explorer (folders of `file` expanded on the way, as openFileFromExplorer does) and picks
 * `item` from its context menu; returns the menu's entries.
 */
export async function explorerContextMenuPick(editor: Editor, file: string, item: string, timeoutMs = 30_000): Promise<string[]> {
  const row = await editor.revealExplorerItem(file, timeoutMs);
  await row.click({ button: 'right' });
  return pickFromOpenMenu(editor, item, timeoutMs);
}

/** The visible modal dialog (a `{ modal: true }` message): its text and buttons; `click` presses one of them. */
export async function modalDialog(editor: Editor, timeoutMs = 15_000): Promise<{ text: string; buttons: string[]; click(label: string): Promise<void> }> {
  const dialog = editor.page.locator('.monaco-dialog-box').first();
  await dialog.waitFor({ state: 'visible', timeout: timeoutMs });
  // The message and the buttons, as rendered (class names of the dialog's parts differ between versions).
  const text = (await dialog.innerText()).replace(/\s+/g, ' ').trim();
  const buttons = (await dialog.locator('.monaco-button').allInnerTexts()).map((b) => b.trim()).filter(Boolean);
  return {
    text,
    buttons,
    click: async (label: string) => {
      await dialog.locator('.monaco-button').filter({ hasText: label }).first().click();
      await dialog.waitFor({ state: 'hidden', timeout: timeoutMs });
    },
  };
}
