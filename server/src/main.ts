// Connection wiring only: the connection, the documents, the capabilities and the LSP layer.

import { createConnection, InitializeResult, ProposedFeatures, TextDocuments } from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { registerFeatures, SERVER_CAPABILITIES } from './features';
import { WORKBENCH_VERSION } from './version';
import { uriToPath } from './workspace/harnWorkspace';

const connection = createConnection(ProposedFeatures.all);
const documents = new TextDocuments(TextDocument);
let workspaceRoots: string[] = [];
let supportsConfiguration = false;

connection.onInitialize((params): InitializeResult => {
  supportsConfiguration = params.capabilities.workspace?.configuration === true;
  workspaceRoots = (params.workspaceFolders ?? []).map((f) => uriToPath(f.uri));
  if (workspaceRoots.length === 0 && params.rootUri) workspaceRoots = [uriToPath(params.rootUri)];
  return { capabilities: SERVER_CAPABILITIES, serverInfo: { name: 'harn-workbench', version: WORKBENCH_VERSION } };
});

registerFeatures(
  connection,
  documents,
  () => workspaceRoots,
  () => supportsConfiguration,
);

documents.listen(connection);
connection.listen();
