// The "Directive Envelopes" view (issue 11) and its commands: renders the server's harn/directiveTree for the
// transcript last made active, asked only while the view is visible, and the read-only `harn-prefix:` documents
// of "Show Prefix Break" (their text from harn/prefixMessage). It parses nothing: the items come from
// directiveTreeModel.ts.

import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { State } from 'vscode-languageclient/node';
import { DirectiveTreeChangedNotification, DirectiveTreeRequest, type DirectiveTreeResult, PrefixMessageRequest } from '../../server/src/protocol';
import {
  childElements,
  COMMANDS,
  type DirectiveTreeElement,
  itemView,
  missingPrefixMessage,
  parsePrefixQuery,
  PREFIX_SCHEME,
  prefixBreakDiff,
  prefixDocumentParts,
  rootElements,
  type RevealTarget,
  SHOWN_CONTEXT_KEY,
  VIEW_ID,
} from './directiveTreeModel';

/** Files the view offers to show: the ones the client syncs to the server as run artifacts. Which kind each is, the server says. */
function isArtifactCandidate(uri: vscode.Uri): boolean {
  return uri.scheme === 'file' && /\.(jsonl|ndjson)$/i.test(uri.path);
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

class DirectiveTreeProvider implements vscode.TreeDataProvider<DirectiveTreeElement>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<DirectiveTreeElement | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  /** The transcript shown: the last artifact editor made active, until its last tab closes. */
  shown: vscode.Uri | undefined;
  /** The last answer for `shown`; undefined until asked (or after a change the view has not re-asked for). */
  private result: DirectiveTreeResult | undefined;
  private failure: string | undefined;
  /** Set when the tree changed while the view was hidden: re-asked when it shows again. */
  private stale = false;
  private asking = 0;
  view: vscode.TreeView<DirectiveTreeElement> | undefined;

  constructor(private readonly client: LanguageClient) {}

  private get visible(): boolean {
    return this.view?.visible ?? false;
  }

  show(uri: vscode.Uri | undefined): void {
    if (uri?.toString() === this.shown?.toString()) return;
    this.shown = uri;
    this.result = undefined;
    this.failure = undefined;
    void vscode.commands.executeCommand('setContext', SHOWN_CONTEXT_KEY, uri !== undefined);
    if (this.view) this.view.description = uri ? vscode.workspace.asRelativePath(uri) : undefined;
    this.invalidate();
  }

  /** The tree of the shown transcript may have changed: re-ask now if the view is visible, else when it shows. */
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

  async getChildren(element?: DirectiveTreeElement): Promise<DirectiveTreeElement[]> {
    if (element) return childElements(element);
    const uri = this.shown;
    if (!uri) return [];
    if (this.result === undefined) {
      const asked = ++this.asking;
      try {
        const answer = await this.client.sendRequest(DirectiveTreeRequest, { uri: uri.toString() });
        if (asked !== this.asking || uri !== this.shown) return []; // a newer question is on its way
        this.result = answer;
        this.failure = undefined;
      } catch (error) {
        if (asked !== this.asking || uri !== this.shown) return [];
        this.failure = errorText(error);
      }
    }
    if (this.failure !== undefined) {
      return [{ kind: 'message', id: 'message:failed', text: 'The Harn language server did not answer.', detail: this.failure }];
    }
    return rootElements(this.result);
  }

  getTreeItem(element: DirectiveTreeElement): vscode.TreeItem {
    const view = itemView(element);
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

  dispose(): void {
    this.changed.dispose();
  }
}

/** harn-prefix: documents, read-only, their text from the server (refreshed when their transcript changes). */
class PrefixDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  constructor(private readonly client: LanguageClient) {}

  async provideTextDocumentContent(uri: vscode.Uri, token: vscode.CancellationToken): Promise<string> {
    const params = parsePrefixQuery(uri.query);
    if ('invalid' in params) return `// ${params.invalid}\n`;
    try {
      const answer = await this.client.sendRequest(PrefixMessageRequest, params, token);
      return answer === null ? missingPrefixMessage(params) : answer.text;
    } catch (error) {
      return `// The Harn language server did not answer: ${errorText(error)}\n`;
    }
  }

  /** The open prefix documents of a transcript ask again. */
  transcriptChanged(transcript: string): void {
    for (const document of vscode.workspace.textDocuments) {
      if (document.uri.scheme !== PREFIX_SCHEME) continue;
      const params = parsePrefixQuery(document.uri.query);
      if (!('invalid' in params) && params.uri === transcript) this.changed.fire(document.uri);
    }
  }

  dispose(): void {
    this.changed.dispose();
  }
}

function tabUris(): string[] {
  return vscode.window.tabGroups.all.flatMap((group) =>
    group.tabs.flatMap((tab) => {
      const input = tab.input;
      if (input instanceof vscode.TabInputText) return [input.uri.toString()];
      if (input instanceof vscode.TabInputTextDiff) return [input.original.toString(), input.modified.toString()];
      return [];
    }),
  );
}

/** Shows a row of a file: its editor if visible, else the active column; the range selected and centred. */
export async function reveal(target: RevealTarget | undefined): Promise<void> {
  if (!target) return;
  const uri = vscode.Uri.parse(target.uri);
  const { start, end } = target.range;
  const range = new vscode.Range(start.line, start.character, end.line, end.character);
  // The transcript's own editor if it is visible, else the active column.
  const column = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === uri.toString())?.viewColumn;
  const editor = await vscode.window.showTextDocument(uri, { viewColumn: column, preserveFocus: true, preview: false, selection: range });
  editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
}

export function registerDirectiveTree(client: LanguageClient): vscode.Disposable {
  const provider = new DirectiveTreeProvider(client);
  const prefixDocuments = new PrefixDocuments(client);
  const view = vscode.window.createTreeView(VIEW_ID, { treeDataProvider: provider, showCollapseAll: true });
  provider.view = view;
  const selected = (element: DirectiveTreeElement | undefined): DirectiveTreeElement | undefined => element ?? view.selection[0];

  const follow = (editor: vscode.TextEditor | undefined): void => {
    if (editor && isArtifactCandidate(editor.document.uri)) provider.show(editor.document.uri);
  };
  follow(vscode.window.activeTextEditor);

  return vscode.Disposable.from(
    provider,
    prefixDocuments,
    view,
    view.onDidChangeVisibility((e) => {
      if (e.visible) provider.becameVisible();
    }),
    vscode.window.onDidChangeActiveTextEditor(follow),
    // The shown transcript stays until its last tab closes (so opening the diff editor keeps the tree).
    vscode.window.tabGroups.onDidChangeTabs(() => {
      const shown = provider.shown?.toString();
      if (shown !== undefined && !tabUris().includes(shown)) {
        const active = vscode.window.activeTextEditor;
        provider.show(active && isArtifactCandidate(active.document.uri) ? active.document.uri : undefined);
      }
    }),
    client.onNotification(DirectiveTreeChangedNotification, ({ uri }) => {
      prefixDocuments.transcriptChanged(uri);
      if (provider.shown !== undefined && vscode.Uri.parse(uri).toString() === provider.shown.toString()) provider.invalidate();
    }),
    // A restarted server is asked again.
    client.onDidChangeState((e) => {
      if (e.newState === State.Running) provider.invalidate();
    }),
    vscode.workspace.registerTextDocumentContentProvider(PREFIX_SCHEME, prefixDocuments),
    vscode.commands.registerCommand(COMMANDS.reveal, reveal),
    vscode.commands.registerCommand(COMMANDS.refresh, () => provider.invalidate()),
    vscode.commands.registerCommand(COMMANDS.copyBody, async (element?: DirectiveTreeElement) => {
      const node = selected(element);
      if (node?.kind !== 'directive') {
        void vscode.window.showInformationMessage('Copy Directive Body works on a directive of the Directive Envelopes view.');
        return;
      }
      await vscode.env.clipboard.writeText(node.directive.body);
      vscode.window.setStatusBarMessage(`Copied the directive body (${node.directive.body.length.toLocaleString('en-US')} characters)`, 3000);
    }),
    vscode.commands.registerCommand(COMMANDS.showPrefixBreak, async (element?: DirectiveTreeElement) => {
      const node = selected(element);
      const diff = node ? prefixBreakDiff(node) : { unavailable: 'Select a request with a prefix break in the Directive Envelopes view first.' };
      if ('unavailable' in diff) {
        void vscode.window.showInformationMessage(diff.unavailable);
        return;
      }
      const left = vscode.Uri.from(prefixDocumentParts(diff.left));
      const right = vscode.Uri.from(prefixDocumentParts(diff.right));
      await vscode.commands.executeCommand('vscode.diff', left, right, diff.title, { preview: true });
    }),
  );
}
