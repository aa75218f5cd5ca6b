// The workspace's lifecycle, fanned out to the providers: settings on start and on change (the first
// scan shown as progress), files changed on disk and saves, documents opened, changed and closed.

import { DidChangeConfigurationNotification, FileChangeType, MessageType, ShowMessageNotification } from 'vscode-languageserver';
import { StatusNotification } from '../protocol';
import { readSettings, WorkbenchSettings } from '../workspace/settings';
import { FeatureContext } from './context';
import { DiagnosticsPipeline } from './diagnostics';
import { describeError } from './handler';
import { DocumentKind } from './router';
import { WorkspaceScan } from './workspaceScan';

/** What the rest of the server asks of the lifecycle: closed files to check again when what they depend on changed. */
export interface WorkspaceChecks {
  recheckClosed(select: (kind: DocumentKind) => boolean): void;
}

export function registerWorkspaceLifecycle(ctx: FeatureContext, diagnostics: DiagnosticsPipeline, supportsConfiguration: () => boolean): WorkspaceChecks {
  const { connection, documents } = ctx;
  let applied: string | undefined;
  /** The workspace check of each folder (`harn.diagnostics.scope: workspace`). */
  let scans: WorkspaceScan[] = [];

  async function loadSettings(): Promise<WorkbenchSettings> {
    const raw: unknown = supportsConfiguration() ? await connection.workspace.getConfiguration('harn') : undefined;
    const { settings, problems } = readSettings(raw);
    // An invalid value is reported, not silently replaced.
    for (const problem of problems) {
      connection.console.warn(problem);
      // A notification, not window/showMessageRequest: no answer is needed, and a client that refuses the request must not crash us.
      void connection.sendNotification(ShowMessageNotification.type, { type: MessageType.Warning, message: `Harn Workbench: ${problem}` });
    }
    return settings;
  }

  async function configure(): Promise<void> {
    const root = ctx.firstRoot();
    const settings = await loadSettings();
    // The client announces its configuration right after start: a change that changes nothing rescans nothing.
    const key = JSON.stringify({ root, settings });
    if (key === applied) return;
    applied = key;
    ctx.router.configure(root, settings.boundaries, settings.artifacts);
    const progress = root ? await connection.window.createWorkDoneProgress() : undefined;
    progress?.begin('Harn: scanning the workspace', undefined, 'loud-boundary gate');
    try {
      for (const provider of ctx.providers) {
        try {
          await provider.configure?.(root, settings);
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
    for (const folder of root ? [{ root, settings }] : []) {
      const before = previous.get(folder.root);
      previous.delete(folder.root);
      if (folder.settings.diagnostics.scope !== 'workspace') {
        before?.clear();
        continue;
      }
      const scan = new WorkspaceScan(folder.root, folder.settings, ctx, diagnostics.store, before?.dispose());
      scans.push(scan);
      void scan.start().catch((error: unknown) => ctx.error(`checking the workspace failed: ${describeError(error)}`));
    }
    for (const gone of previous.values()) gone.clear();
  }

  connection.onInitialized(() => {
    if (supportsConfiguration()) void connection.client.register(DidChangeConfigurationNotification.type, undefined).catch(() => undefined);
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
