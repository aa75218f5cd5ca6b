// The "Directive Envelopes" view (issue 11) and its commands: renders the server's harn/directiveTree for the
// transcript last made active, asked only while the view is visible, and the read-only `harn-prefix:` documents
// of "Show Prefix Break" (their text from harn/prefixMessage). It parses nothing: the items come from
// directiveTreeModel.ts; what it does as the Run Controls view does, serverTree.ts.

import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
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
  SHOWN_CONTEXT_KEY,
  VIEW_ID,
} from './directiveTreeModel';
import * as notify from './notify';
import { errorText, isSyncedJsonl, registerServerTree, ServerTreeProvider } from './serverTree';
import { failedMessage } from './treeItemView';

class DirectiveTreeProvider extends ServerTreeProvider<DirectiveTreeElement, DirectiveTreeResult> {
  /** The transcript shown: the last artifact editor made active, until its last tab closes. */
  shown: vscode.Uri | undefined;

  constructor(client: LanguageClient) {
    super(client, itemView);
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

  async getChildren(element?: DirectiveTreeElement): Promise<DirectiveTreeElement[]> {
    if (element) return childElements(element);
    const uri = this.shown;
    if (!uri) return [];
    if (this.result === undefined) {
      const latest = this.newQuestion();
      try {
        const answer = await this.client.sendRequest(DirectiveTreeRequest, { uri: uri.toString() });
        if (!latest() || uri !== this.shown) return []; // a newer question is on its way
        this.result = answer;
        this.failure = undefined;
      } catch (error) {
        if (!latest() || uri !== this.shown) return [];
        this.failure = errorText(error);
      }
    }
    if (this.failure !== undefined) return [failedMessage(this.failure)];
    return rootElements(this.result);
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

export function registerDirectiveTree(client: LanguageClient): vscode.Disposable {
  const provider = new DirectiveTreeProvider(client);
  const prefixDocuments = new PrefixDocuments(client);
  const { selected, disposable } = registerServerTree(client, {
    viewId: VIEW_ID,
    provider,
    commands: COMMANDS,
    follow: (uri) => provider.show(uri),
    changed: DirectiveTreeChangedNotification,
    onChanged: (uri) => {
      prefixDocuments.transcriptChanged(uri);
      if (provider.shown !== undefined && vscode.Uri.parse(uri).toString() === provider.shown.toString()) provider.invalidate();
    },
  });

  return vscode.Disposable.from(
    disposable,
    prefixDocuments,
    // The shown transcript stays until its last tab closes (so opening the diff editor keeps the tree).
    vscode.window.tabGroups.onDidChangeTabs(() => {
      const shown = provider.shown?.toString();
      if (shown !== undefined && !tabUris().includes(shown)) {
        const active = vscode.window.activeTextEditor;
        provider.show(active && isSyncedJsonl(active.document.uri) ? active.document.uri : undefined);
      }
    }),
    vscode.workspace.registerTextDocumentContentProvider(PREFIX_SCHEME, prefixDocuments),
    vscode.commands.registerCommand(COMMANDS.copyBody, async (element?: DirectiveTreeElement) => {
      const node = selected(element);
      if (node?.kind !== 'directive') {
        void notify.info('Copy Directive Body works on a directive of the Directive Envelopes view.');
        return;
      }
      await vscode.env.clipboard.writeText(node.directive.body);
      vscode.window.setStatusBarMessage(`Copied the directive body (${node.directive.body.length.toLocaleString('en-US')} characters)`, 3000);
    }),
    vscode.commands.registerCommand(COMMANDS.showPrefixBreak, async (element?: DirectiveTreeElement) => {
      const node = selected(element);
      const diff = node ? prefixBreakDiff(node) : { unavailable: 'Select a request with a prefix break in the Directive Envelopes view first.' };
      if ('unavailable' in diff) {
        void notify.info(diff.unavailable);
        return;
      }
      const left = vscode.Uri.from(prefixDocumentParts(diff.left));
      const right = vscode.Uri.from(prefixDocumentParts(diff.right));
      await vscode.commands.executeCommand('vscode.diff', left, right, diff.title, { preview: true });
    }),
  );
}
