// What the tree views of the "Harn" view container (Directive Envelopes, Run Controls) do alike: a tree whose data the
// server sends, asked only while the view is visible and again when the server says it changed or restarts, that
// follows the JSONL editor made active and reveals a node's row. Each view's own file says what it shows and asks;
// the items come from its vscode-free model (treeItemView.ts for what they share).

import * as vscode from 'vscode';
import type { LanguageClient, NotificationType } from 'vscode-languageclient/node';
import { State } from 'vscode-languageclient/node';
import type { RevealTarget, TreeItemView } from './treeItemView';

/** Files a view offers to show: the JSONL files the client syncs to the server. Which kind each is, the server says. */
export function isSyncedJsonl(uri: vscode.Uri): boolean {
  return uri.scheme === 'file' && /\.(jsonl|ndjson)$/i.test(uri.path);
}

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Shows a row of a file: its editor if visible, else the active column; the range selected and centred. */
export async function reveal(target: RevealTarget | undefined): Promise<void> {
  if (!target) return;
  const uri = vscode.Uri.parse(target.uri);
  const { start, end } = target.range;
  const range = new vscode.Range(start.line, start.character, end.line, end.character);
  // The file's own editor if it is visible, else the active column.
  const column = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === uri.toString())?.viewColumn;
  const editor = await vscode.window.showTextDocument(uri, { viewColumn: column, preserveFocus: true, preview: false, selection: range });
  editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
}

function treeItem(view: TreeItemView): vscode.TreeItem {
  const item = new vscode.TreeItem(
    view.label,
    view.collapsible === 'none'
      ? vscode.TreeItemCollapsibleState.None
      : view.collapsible === 'expanded'
        ? vscode.TreeItemCollapsibleState.Expanded
        : vscode.TreeItemCollapsibleState.Collapsed,
  );
  item.id = view.id;
  item.description = view.description;
  item.tooltip = view.tooltip; // a string: shown as plain text, never as Markdown
  item.iconPath = new vscode.ThemeIcon(view.icon.id, view.icon.color === undefined ? undefined : new vscode.ThemeColor(view.icon.color));
  item.contextValue = view.contextValue;
  item.command = view.command;
  return item;
}

/**
 * A tree of elements `E` built from the server's answer `R` for the file shown. The subclass asks (in getChildren);
 * this keeps the answer until something changes, and re-asks only while the view is visible.
 */
export abstract class ServerTreeProvider<E, R> implements vscode.TreeDataProvider<E>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<E | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  view: vscode.TreeView<E> | undefined;
  /** The last answer for the file shown; undefined until asked (or after a change the view has not re-asked for). */
  protected result: R | undefined;
  protected failure: string | undefined;
  /** Set when the tree changed while the view was hidden: re-asked when it shows again. */
  private stale = false;
  private asking = 0;

  constructor(
    protected readonly client: LanguageClient,
    private readonly itemView: (element: E) => TreeItemView,
  ) {}

  abstract getChildren(element?: E): Promise<E[]>;

  protected get visible(): boolean {
    return this.view?.visible ?? false;
  }

  /** The tree shown may have changed: re-ask now if the view is visible, else when it shows. */
  invalidate(): void {
    this.result = undefined;
    if (this.visible) {
      this.stale = false;
      this.changed.fire(undefined);
    } else {
      this.stale = true;
    }
  }

  becameVisible(): void {
    if (this.stale) this.invalidate();
  }

  /** Numbers a question to the server; the function says whether it is still the latest (else its answer is dropped). */
  protected newQuestion(): () => boolean {
    const asked = ++this.asking;
    return () => asked === this.asking;
  }

  getTreeItem(element: E): vscode.TreeItem {
    return treeItem(this.itemView(element));
  }

  dispose(): void {
    this.changed.dispose();
  }
}

export interface ServerTreeOptions<E> {
  viewId: string;
  provider: ServerTreeProvider<E, unknown>;
  commands: { reveal: string; refresh: string };
  /** A synced JSONL file was made active (or was active when the view was registered). */
  follow: (uri: vscode.Uri) => void;
  /** The server's notification that a file's tree changed, and what the view does about it. */
  changed: NotificationType<{ uri: string }>;
  onChanged: (uri: string) => void;
}

/** Registers a view: its tree, visibility, following the active editor, the change notification, Reveal and Refresh. */
export function registerServerTree<E>(
  client: LanguageClient,
  options: ServerTreeOptions<E>,
): { view: vscode.TreeView<E>; selected: (element: E | undefined) => E | undefined; disposable: vscode.Disposable } {
  const { provider } = options;
  const view = vscode.window.createTreeView(options.viewId, { treeDataProvider: provider, showCollapseAll: true });
  provider.view = view;
  const follow = (editor: vscode.TextEditor | undefined): void => {
    if (editor && isSyncedJsonl(editor.document.uri)) options.follow(editor.document.uri);
  };
  follow(vscode.window.activeTextEditor);
  const disposable = vscode.Disposable.from(
    provider,
    view,
    view.onDidChangeVisibility((e) => {
      if (e.visible) provider.becameVisible();
    }),
    vscode.window.onDidChangeActiveTextEditor(follow),
    client.onNotification(options.changed, ({ uri }) => options.onChanged(uri)),
    // A restarted server is asked again.
    client.onDidChangeState((e) => {
      if (e.newState === State.Running) provider.invalidate();
    }),
    vscode.commands.registerCommand(options.commands.reveal, reveal),
    vscode.commands.registerCommand(options.commands.refresh, () => provider.invalidate()),
  );
  return { view, selected: (element) => element ?? view.selection[0], disposable };
}
