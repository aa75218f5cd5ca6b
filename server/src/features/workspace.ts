// The workspace's lifecycle, fanned out to the providers: each folder's settings on start, on change and when
// folders are added or removed (the first scan shown as progress), files changed on disk and saves, documents
// opened, changed and closed.

import * as path from 'node:path';
import { DidChangeConfigurationNotification, FileChangeType, MessageType, ShowMessageNotification } from 'vscode-languageserver';
import { StatusNotification } from '../protocol';
import { notificationText } from '../text/notification';
import { changedRoots, FolderConfig, folderOf } from '../workspace/folders';
import { pathToUri, uriToPath } from '../workspace/harnWorkspace';
import { readSettings, WorkbenchSettings } from '../workspace/settings';
import { FeatureContext } from './context';
import { DiagnosticsPipeline } from './diagnostics';
import { describeError } from './handler';
import { DocumentKind } from './router';
import { WorkspaceScan } from './workspaceScan';

/** How the server hears of workspace folders added and removed (main.ts owns the list of roots). */
export interface FolderChanges {
  /** Whether the client sends `workspace/didChangeWorkspaceFolders` (known once initialized). */
  supported(): boolean;
  setRoots(roots: readonly string[]): void;
}

/** What the rest of the server asks of the lifecycle: closed files to check again when what they depend on changed. */
export interface WorkspaceChecks {
  recheckClosed(select: (kind: DocumentKind) => boolean): void;
}

export function registerWorkspaceLifecycle(
  ctx: FeatureContext,
  diagnostics: DiagnosticsPipeline,
  supportsConfiguration: () => boolean,
  folderChanges?: FolderChanges,
): WorkspaceChecks {
  const { connection, documents } = ctx;
  let applied: string | undefined;
  /** The workspace check of each folder (`harn.diagnostics.scope: workspace`). */
  let scans: WorkspaceScan[] = [];

  function warn(problem: string): void {
    connection.console.warn(problem);
    // A notification, not window/showMessageRequest: no answer is needed, and a client that refuses the request must not crash us.
    // A problem names folders and quotes settings: shown literally, never as a link.
    void connection.sendNotification(ShowMessageNotification.type, { type: MessageType.Warning, message: notificationText(`Harn Workbench: ${problem}`) });
  }

  /** The window's settings and each folder's (its `resource`-scoped ones as that folder resolves them), in one request. */
  async function loadSettings(roots: readonly string[]): Promise<{ folders: FolderConfig[]; outside: WorkbenchSettings }> {
    const items = [{ section: 'harn' }, ...roots.map((root) => ({ scopeUri: pathToUri(root), section: 'harn' }))];
    const raw: unknown[] = supportsConfiguration() ? await connection.workspace.getConfiguration(items) : [];
    // An invalid value is reported, not silently replaced; a folder's own problem names the folder.
    const window = readSettings(raw[0]);
    for (const problem of window.problems) warn(problem);
    const folders = roots.map((root, i) => {
      const { settings, problems } = readSettings(raw[i + 1]);
      // A value set for the whole window is said once, not again for each folder that inherits it.
      for (const problem of problems) if (!window.problems.includes(problem)) warn(`folder ${path.basename(root) || root}: ${problem}`);
      return { root, settings };
    });
    return { folders, outside: window.settings };
  }

  async function configure(): Promise<void> {
    const { folders, outside } = await loadSettings(ctx.roots());
    // The client announces its configuration right after start: a change that changes nothing rescans nothing.
    const key = JSON.stringify({ folders, outside });
    if (key === applied) return;
    applied = key;
    ctx.router.configure(folders, outside);
    const progress = folders.length > 0 ? await connection.window.createWorkDoneProgress() : undefined;
    progress?.begin('Harn: scanning the workspace', undefined, 'loud-boundary gate');
    try {
      for (const provider of ctx.providers) {
        try {
          await provider.configure?.(folders, outside);
        } catch (error) {
          ctx.error(`${provider.name}: starting failed: ${describeError(error)}`);
        }
      }
    } finally {
      progress?.done();
    }
    // What a document is may have changed with the settings.
    diagnostics.revalidate(() => true);
    // After the gate's first run: closed files checked from disk, one scan per folder, taking over the last ones.
    const previous = new Map(scans.map((scan) => [scan.root, scan]));
    scans = [];
    for (const folder of folders) {
      const before = previous.get(folder.root);
      previous.delete(folder.root);
      if (folder.settings.diagnostics.scope !== 'workspace') {
        before?.clear();
        continue;
      }
      const owns = (file: string): boolean => folderOf(file, folders)?.root === folder.root;
      const scan = new WorkspaceScan(folder.root, folder.settings, ctx, diagnostics.store, before?.dispose(), owns);
      scans.push(scan);
      void scan.start().catch((error: unknown) => ctx.error(`checking the workspace failed: ${describeError(error)}`));
    }
    for (const gone of previous.values()) gone.clear();
  }

  connection.onInitialized(() => {
    if (supportsConfiguration()) void connection.client.register(DidChangeConfigurationNotification.type, undefined).catch(() => undefined);
    if (folderChanges?.supported()) {
      connection.workspace.onDidChangeWorkspaceFolders((event) => {
        const paths = (folders: readonly { uri: string }[]): string[] => folders.map((f) => uriToPath(f.uri));
        folderChanges.setRoots(changedRoots(ctx.roots(), paths(event.removed), paths(event.added)));
        void configure().catch((error: unknown) => ctx.error(`applying the changed workspace folders failed: ${describeError(error)}`));
      });
    }
    void configure()
      .catch((error: unknown) => ctx.error(`starting the workspace checks failed: ${describeError(error)}`))
      .finally(() => {
        ctx.info('Harn language server ready');
        void connection.sendNotification(StatusNotification, { state: 'ready' });
      });
  });

  connection.onDidChangeConfiguration(() => {
    void configure().catch((error: unknown) => ctx.error(`reloading settings failed: ${describeError(error)}`));
  });

  const filesChanged = (changes: { uri: string; type: FileChangeType }[]): void => {
    for (const provider of ctx.providers) provider.filesChanged?.(changes);
    for (const scan of scans) scan.filesChanged(changes);
  };
  connection.onDidChangeWatchedFiles((params) => filesChanged(params.changes));
  documents.onDidSave((e) => filesChanged([{ uri: e.document.uri, type: FileChangeType.Changed }]));

  documents.onDidOpen((e) => {
    for (const provider of ctx.providers) provider.documentOpened?.(e.document.uri);
  });
  documents.onDidChangeContent((e) => {
    diagnostics.schedule(e.document);
    for (const provider of ctx.providers) provider.documentChanged?.(e.document.uri);
  });
  documents.onDidClose((e) => {
    for (const scan of scans) scan.documentClosed(e.document.uri);
    diagnostics.closed(e.document.uri);
    for (const provider of ctx.providers) provider.documentClosed?.(e.document.uri);
  });

  return { recheckClosed: (select) => scans.forEach((scan) => scan.recheck(select)) };
}
