// Connection wiring only: documents, capabilities, and the feature adaptors.

import * as path from 'node:path';
import {
  CodeAction,
  CodeActionKind,
  createConnection,
  DidChangeConfigurationNotification,
  FileChangeType,
  InitializeResult,
  MessageType,
  ProposedFeatures,
  ShowMessageNotification,
  TextDocuments,
  TextDocumentSyncKind,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { harnSyntaxDiagnostics } from './diagnostics';
import { ArtifactService } from './features/artifactFeatures';
import { BoundaryService } from './features/boundaryFeatures';
import { DiagnosticsStore } from './features/diagnosticsStore';
import { guarded } from './features/handler';
import { registerHarnFeatures, toLspDiagnostic } from './features/harnFeatures';
import { StatusNotification, ValidateArtifactFileRequest } from './protocol';
import { readSettings, WorkbenchSettings } from './workspace/settings';
import { HarnWorkspace, uriToPath } from './workspace/harnWorkspace';

const connection = createConnection(ProposedFeatures.all);
const documents = new TextDocuments(TextDocument);
let workspaceRoots: string[] = [];

const workspace = new HarnWorkspace(documents, () => workspaceRoots);
const firstRoot = (): string | undefined => workspaceRoots[0];
const store = new DiagnosticsStore(connection);
const boundaries = new BoundaryService(documents, store, (message) => connection.console.info(message));
const artifacts = new ArtifactService(documents, store, (id) => {
  const entry = boundaries.registry?.boundaries.find((b) => b.id?.value === id);
  return entry ? { title: entry.title?.value, drops: entry.drops?.value } : undefined;
});
let supportsConfiguration = false;

connection.onInitialize((params): InitializeResult => {
  supportsConfiguration = params.capabilities.workspace?.configuration === true;
  workspaceRoots = (params.workspaceFolders ?? []).map((f) => uriToPath(f.uri));
  if (workspaceRoots.length === 0 && params.rootUri) workspaceRoots = [uriToPath(params.rootUri)];
  return {
    capabilities: {
      textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental, save: { includeText: false } },
      documentSymbolProvider: { label: 'Harn' },
      foldingRangeProvider: true,
      documentLinkProvider: { resolveProvider: false },
      hoverProvider: true,
      definitionProvider: true,
      completionProvider: { triggerCharacters: ['.', '"'], resolveProvider: false },
      codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix] },
    },
    serverInfo: { name: 'harn-workbench', version: '0.1.0' },
  };
});

async function loadSettings(): Promise<WorkbenchSettings> {
  const raw: unknown = supportsConfiguration ? await connection.workspace.getConfiguration('harn') : undefined;
  const { settings, problems } = readSettings(raw);
  // An invalid value is reported, not silently replaced.
  for (const problem of problems) {
    connection.console.warn(problem);
    // A notification, not window/showMessageRequest: no answer is needed, and a client that refuses the request must not crash us.
    void connection.sendNotification(ShowMessageNotification.type, { type: MessageType.Warning, message: `Harn Workbench: ${problem}` });
  }
  return settings;
}

let appliedSettings: string | undefined;

async function startDomains(): Promise<void> {
  const root = firstRoot();
  const settings = await loadSettings();
  // The client announces its configuration right after start: a change that changes nothing rescans nothing.
  const key = JSON.stringify({ root, settings });
  if (key === appliedSettings) return;
  appliedSettings = key;
  artifacts.configure(root, settings.artifacts);
  if (!root) return;
  // The first scan of the workspace (the loud-boundary gate) is shown as progress.
  const progress = await connection.window.createWorkDoneProgress();
  progress.begin('Harn: scanning the workspace', undefined, 'loud-boundary gate');
  try {
    boundaries.start(root, settings.boundaries);
  } finally {
    progress.done();
  }
}

connection.onInitialized(() => {
  if (supportsConfiguration) void connection.client.register(DidChangeConfigurationNotification.type, undefined).catch(() => undefined);
  void startDomains()
    .catch((error) => connection.console.error(`starting the workspace checks failed: ${String(error)}`))
    .finally(() => {
      connection.console.info('Harn language server ready');
      void connection.sendNotification(StatusNotification, { state: 'ready' });
    });
});

connection.onDidChangeConfiguration(() => {
  void startDomains().catch((error) => connection.console.error(`reloading settings failed: ${String(error)}`));
});

connection.onDidChangeWatchedFiles((params) => {
  boundaries.filesChanged(params.changes);
  artifacts.filesChanged(params.changes.map((c) => c.uri));
});

// Files too big for the editor to sync are validated from disk, on request, with progress.
connection.onRequest(ValidateArtifactFileRequest, async (params) => {
  const progress = await connection.window.createWorkDoneProgress();
  const file = uriToPath(params.uri);
  progress.begin('Harn: validating', undefined, path.basename(file));
  try {
    return artifacts.validateFile(file);
  } finally {
    progress.done();
  }
});
documents.onDidSave((e) => boundaries.filesChanged([{ uri: e.document.uri, type: FileChangeType.Changed }]));

// Live boundary checks depend on the registry: re-check open .harn documents after each gate run.
boundaries.whenGateRuns(() => {
  for (const doc of documents.all()) if (doc.languageId === 'harn') scheduleValidation(doc);
});

connection.onCodeAction(guarded(connection, 'codeAction', [] as CodeAction[], (params) => boundaries.codeActions(params)));

// Diagnostics as you type (opening a document counts as its first change): validate after a short pause; a result for an outdated version is dropped.
const pending = new Map<string, NodeJS.Timeout>();
const VALIDATE_DELAY_MS = 40;

function scheduleValidation(doc: TextDocument): void {
  const timer = pending.get(doc.uri);
  if (timer) clearTimeout(timer);
  pending.set(
    doc.uri,
    setTimeout(() => {
      pending.delete(doc.uri);
      validate(doc.uri, doc.version);
    }, VALIDATE_DELAY_MS),
  );
}

function validate(uri: string, version: number): void {
  const doc = documents.get(uri);
  if (!doc || doc.version !== version) return;
  try {
    const started = performance.now();
    if (doc.languageId !== 'harn') {
      artifacts.validateDocument(doc);
      return;
    }
    const analysis = workspace.analysisOf(doc);
    const diagnostics = [...harnSyntaxDiagnostics(analysis).map(toLspDiagnostic), ...boundaries.liveDiagnostics(uri, analysis)];
    if (documents.get(uri)?.version !== version) return;
    store.set(uri, 'harn', diagnostics, version);
    const root = firstRoot();
    const file = uriToPath(uri);
    void connection.sendNotification(StatusNotification, {
      state: 'ready',
      lastChecked: root ? path.relative(root, file) : path.basename(file),
      lastCheckMs: Math.round((performance.now() - started) * 10) / 10,
    });
  } catch (error) {
    connection.console.error(`validation of ${uri} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  }
}

documents.onDidChangeContent((e) => {
  scheduleValidation(e.document);
  boundaries.documentChanged(e.document.uri);
});
documents.onDidOpen((e) => boundaries.documentOpened(e.document.uri));
documents.onDidClose((e) => {
  workspace.forget(e.document.uri);
  store.clear(e.document.uri, 'harn');
  boundaries.documentClosed(e.document.uri);
  artifacts.closed(e.document.uri);
});

registerHarnFeatures(connection, documents, workspace, firstRoot, {
  hover: (uri, position) => {
    const doc = documents.get(uri);
    return (doc && boundaries.hover(doc, doc.offsetAt(position))) || artifacts.hover(uri, position);
  },
  symbols: (uri) => artifacts.symbols(uri),
  completion: (analysis, offset) => boundaries.completion(analysis, offset),
});

documents.listen(connection);
connection.listen();
