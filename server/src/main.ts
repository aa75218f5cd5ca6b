// Connection wiring only: the connection, the documents, the capabilities and the LSP layer.

import { createConnection, InitializeResult, ProposedFeatures, TextDocuments } from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { inspect } from 'node:util';
import { registerFeatures, SERVER_CAPABILITIES } from './features';
import { FramedInput } from './features/stdioFraming';
import { WORKBENCH_VERSION } from './version';
import { uriToPath } from './workspace/harnWorkspace';

// Over stdio, stdin is read through FramedInput, which logs and skips a malformed message header instead of losing
// every later message. Given streams, the library no longer routes console output away from stdout: done here.
const stdio = process.argv.includes('--stdio');
const logInput = (problem: string): void => connection.console.error(`Malformed input from the client: ${problem}.`);
const connection = stdio
  ? createConnection(ProposedFeatures.all, process.stdin.pipe(new FramedInput(logInput)), process.stdout)
  : createConnection(ProposedFeatures.all);
if (stdio) {
  const text = (args: unknown[]): string => args.map((a) => (typeof a === 'string' ? a : inspect(a))).join(' ');
  console.log = console.info = console.debug = (...args: unknown[]): void => connection.console.log(text(args));
  console.warn = (...args: unknown[]): void => connection.console.warn(text(args));
  console.error = (...args: unknown[]): void => connection.console.error(text(args));
}

const documents = new TextDocuments(TextDocument);
let workspaceRoots: string[] = [];
let supportsConfiguration = false;
let supportsFolderChanges = false;
let supportsTokenRefresh = false;
let supportsInlayHintRefresh = false;
let initializationOptions: unknown;

const lifecycle = registerFeatures(
  connection,
  documents,
  () => workspaceRoots,
  () => supportsConfiguration,
  () => initializationOptions,
  { supported: () => supportsFolderChanges, setRoots: (roots) => (workspaceRoots = [...roots]) },
  () => supportsTokenRefresh,
  () => supportsInlayHintRefresh,
);

connection.onInitialize((params): InitializeResult => {
  lifecycle.refuseAfterShutdown('initialize');
  supportsConfiguration = params.capabilities.workspace?.configuration === true;
  supportsFolderChanges = params.capabilities.workspace?.workspaceFolders === true;
  supportsTokenRefresh = params.capabilities.workspace?.semanticTokens?.refreshSupport === true;
  supportsInlayHintRefresh = params.capabilities.workspace?.inlayHint?.refreshSupport === true;
  initializationOptions = params.initializationOptions;
  workspaceRoots = (params.workspaceFolders ?? []).map((f) => uriToPath(f.uri));
  if (workspaceRoots.length === 0 && params.rootUri) workspaceRoots = [uriToPath(params.rootUri)];
  return { capabilities: SERVER_CAPABILITIES, serverInfo: { name: 'harn-workbench', version: WORKBENCH_VERSION } };
});

documents.listen(connection);
connection.listen();
