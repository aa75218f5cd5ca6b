// Connection wiring only: documents, capabilities, and the feature adaptors.

import * as path from 'node:path';
import {
  createConnection,
  DidChangeConfigurationNotification,
  InitializeResult,
  ProposedFeatures,
  TextDocuments,
  TextDocumentSyncKind,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { harnSyntaxDiagnostics } from './diagnostics';
import { registerHarnFeatures, toLspDiagnostic } from './features/harnFeatures';
import { StatusNotification } from './protocol';
import { HarnWorkspace, uriToPath } from './workspace/harnWorkspace';

const connection = createConnection(ProposedFeatures.all);
const documents = new TextDocuments(TextDocument);
let workspaceRoots: string[] = [];

const workspace = new HarnWorkspace(documents, () => workspaceRoots);
const firstRoot = (): string | undefined => workspaceRoots[0];

connection.onInitialize((params): InitializeResult => {
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
    },
    serverInfo: { name: 'harn-workbench', version: '0.1.0' },
  };
});

connection.onInitialized(() => {
  void connection.client.register(DidChangeConfigurationNotification.type, undefined).catch(() => undefined);
  connection.console.info('Harn language server ready');
  void connection.sendNotification(StatusNotification, { state: 'ready' });
});

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
    if (doc.languageId !== 'harn') return;
    const diagnostics = harnSyntaxDiagnostics(workspace.analysisOf(doc)).map(toLspDiagnostic);
    if (documents.get(uri)?.version !== version) return;
    void connection.sendDiagnostics({ uri, version, diagnostics });
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

documents.onDidChangeContent((e) => scheduleValidation(e.document));
documents.onDidClose((e) => {
  workspace.forget(e.document.uri);
  void connection.sendDiagnostics({ uri: e.document.uri, diagnostics: [] });
});

registerHarnFeatures(connection, documents, workspace, firstRoot);

documents.listen(connection);
connection.listen();
