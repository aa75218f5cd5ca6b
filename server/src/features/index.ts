// The one place that wires the LSP layer: the providers in precedence order, one adaptor per method,
// the diagnostics pipeline and the workspace lifecycle. A new domain adds its document kind to the
// router, its provider to `providers` below, and its custom requests as adaptors of their own.

import { CodeActionKind, Connection, ServerCapabilities, TextDocuments, TextDocumentSyncKind } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { ArtifactProvider } from '../providers/artifactProvider';
import { BoundaryProvider } from '../providers/boundaryProvider';
import { HarnProvider } from '../providers/harnProvider';
import { RunControlProvider } from '../providers/runControlProvider';
import { TrainingExampleProvider } from '../providers/trainingExampleProvider';
import { TrainingProjectionProvider } from '../providers/trainingProjectionProvider';
import { HarnWorkspace } from '../workspace/harnWorkspace';
import { registerCallHierarchy } from './callHierarchy';
import { registerCodeAction } from './codeAction';
import { registerCompletion, registerCompletionResolve } from './completion';
import { FeatureContext } from './context';
import { registerDeclaration } from './declaration';
import { registerDefinition } from './definition';
import { DiagnosticsPipeline } from './diagnostics';
import { DiagnosticsStore } from './diagnosticsStore';
import { registerDirectiveTree } from './directiveTree';
import { registerDocumentDigest } from './documentDigest';
import { registerDocumentHighlight } from './documentHighlight';
import { registerDocumentFormatting } from './documentFormatting';
import { registerDocumentLink } from './documentLink';
import { ON_TYPE_FORMATTING_TRIGGER, registerDocumentOnTypeFormatting } from './documentOnTypeFormatting';
import { registerDocumentRangeFormatting } from './documentRangeFormatting';
import { registerDocumentSymbol } from './documentSymbol';
import { registerFoldingRange } from './foldingRange';
import { FormatRefusals } from './formatRefusals';
import { registerHover } from './hover';
import { registerImplementation } from './implementation';
import { registerInlayHint } from './inlayHint';
import { LanguageFeatureSwitch, registerLanguageFeatures } from './languageFeatures';
import { ServerLifecycle } from './lifecycle';
import { DocumentRouter } from './router';
import { registerPrefixMessage } from './prefixMessage';
import { registerReferences } from './references';
import { registerRename } from './rename';
import { registerRunControlCompose } from './runControlCompose';
import { registerRunControlTree } from './runControlTree';
import { registerSelectionRange } from './selectionRange';
import { registerSemanticTokens } from './semanticTokens';
import { registerSignatureHelp } from './signatureHelp';
import { registerTypeDefinition } from './typeDefinition';
import { registerTrainingExample } from './trainingExample';
import { registerValidateArtifactFile } from './validateArtifactFile';
import { DirectiveTreeChangedNotification, RunControlTreeChangedNotification } from '../protocol';
import { FolderChanges, registerWorkspaceLifecycle } from './workspace';
import { registerWorkspaceSymbol } from './workspaceSymbol';
import { TOKEN_MODIFIERS, TOKEN_TYPES } from '../harn/semanticTokens';

export const SERVER_CAPABILITIES: ServerCapabilities = {
  textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental, save: { includeText: false } },
  documentSymbolProvider: { label: 'Harn' },
  foldingRangeProvider: true,
  documentLinkProvider: { resolveProvider: false },
  hoverProvider: true,
  definitionProvider: true,
  completionProvider: { triggerCharacters: ['.', '"'], resolveProvider: true },
  referencesProvider: true,
  documentHighlightProvider: true,
  renameProvider: { prepareProvider: true },
  workspaceSymbolProvider: true,
  codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix] },
  // Standard types and modifiers only, so that every theme colours them (harn/semanticTokens.ts).
  semanticTokensProvider: { legend: { tokenTypes: [...TOKEN_TYPES], tokenModifiers: [...TOKEN_MODIFIERS] }, full: { delta: true }, range: true },
  signatureHelpProvider: { triggerCharacters: ['(', ','], retriggerCharacters: [')'] },
  selectionRangeProvider: true,
  declarationProvider: true,
  typeDefinitionProvider: true,
  implementationProvider: true,
  callHierarchyProvider: true,
  inlayHintProvider: { resolveProvider: false },
  // `harn fmt`'s output as small edits; `}` re-indents the block it closes.
  documentFormattingProvider: true,
  documentRangeFormattingProvider: true,
  documentOnTypeFormattingProvider: { firstTriggerCharacter: ON_TYPE_FORMATTING_TRIGGER },
  // Each folder has its own gate and settings; folders added or removed are followed.
  workspace: { workspaceFolders: { supported: true, changeNotifications: true } },
};

export function registerFeatures(
  connection: Connection,
  documents: TextDocuments<TextDocument>,
  roots: () => readonly string[],
  supportsConfiguration: () => boolean,
  initializationOptions: () => unknown,
  folderChanges?: FolderChanges,
  /** Whether the client takes workspace/semanticTokens/refresh (asked again for tokens when ours step back or return). */
  supportsTokenRefresh: () => boolean = () => false,
  /** Whether the client takes workspace/inlayHint/refresh (asked again for hints when a setting or the switch changes them). */
  supportsInlayHintRefresh: () => boolean = () => false,
): ServerLifecycle {
  const lifecycle = new ServerLifecycle();
  lifecycle.register(connection);
  const store = new DiagnosticsStore(connection);
  const workspace = new HarnWorkspace(documents, roots);
  const log = (message: string): void => connection.console.info(message);

  // eslint-disable-next-line prefer-const -- the pipeline needs the context, and providers call back into it
  let diagnostics: DiagnosticsPipeline | undefined;
  const revalidate: DiagnosticsPipeline['revalidate'] = (select) => diagnostics?.revalidate(select);

  const boundaries = new BoundaryProvider(documents, store, workspace, log, (message) => connection.console.error(message));
  const artifacts = new ArtifactProvider(
    documents,
    store,
    (uri, id) => boundaries.boundaryInfo(uri, id),
    revalidate,
    (uri) => void connection.sendNotification(DirectiveTreeChangedNotification, { uri }),
  );
  const harn = new HarnProvider(workspace, roots, (file) => boundaries.reportsEncodingOf(file));
  // Our .harn language features step back while upstream's extension serves the language (the client decides).
  const languageFeatures = new LanguageFeatureSwitch(initializationOptions, { info: log, warn: (message) => connection.console.warn(message) });
  harn.answersOnlyWhen(() => languageFeatures.enabled);
  const refreshInlayHints = (): void => {
    if (supportsInlayHintRefresh())
      connection.languages.inlayHint.refresh().catch((error: unknown) => connection.console.error(`inlay hints refresh failed: ${String(error)}`));
  };
  harn.whenHintsChange(refreshInlayHints);
  harn.whenFormatConfigFails((message) => connection.console.warn(message));
  // Precedence: a boundary id inside a `.harn` string is the gate's to explain before it is Harn's.
  const runControl = new RunControlProvider(documents, roots, (uri) => void connection.sendNotification(RunControlTreeChangedNotification, { uri }));
  const training = new TrainingExampleProvider(documents);
  const trainingProjection = new TrainingProjectionProvider(revalidate);
  const providers = [boundaries, harn, artifacts, runControl, training, trainingProjection];

  const ctx = new FeatureContext(connection, documents, new DocumentRouter(), providers, roots, lifecycle);
  diagnostics = new DiagnosticsPipeline(ctx, store);
  // Live boundary checks depend on the registry: re-check open .harn documents after each gate run.
  boundaries.whenGateRuns(() => revalidate((_doc, kind) => kind === 'harn'));

  const checks = registerWorkspaceLifecycle(ctx, diagnostics, supportsConfiguration, folderChanges);
  // Closed .harn files' boundary checks run only where there is a registry: check them again when that changes.
  let withRegistry = '';
  boundaries.whenGateRuns(() => {
    const now = boundaries.foldersWithRegistry().join('\n');
    if (now !== withRegistry) checks.recheckClosed((kind) => kind === 'harn');
    withRegistry = now;
  });
  registerHover(ctx);
  registerDocumentSymbol(ctx);
  registerFoldingRange(ctx);
  registerDocumentLink(ctx);
  registerDefinition(ctx);
  registerCompletion(ctx);
  registerCompletionResolve(ctx);
  registerCodeAction(ctx);
  registerReferences(ctx);
  registerDocumentHighlight(ctx);
  registerRename(ctx);
  registerWorkspaceSymbol(ctx);
  registerSemanticTokens(ctx);
  registerSignatureHelp(ctx);
  registerSelectionRange(ctx);
  registerDeclaration(ctx);
  registerTypeDefinition(ctx);
  registerImplementation(ctx);
  registerCallHierarchy(ctx);
  registerInlayHint(ctx);
  const formatRefusals = new FormatRefusals(ctx);
  registerDocumentFormatting(ctx, formatRefusals);
  registerDocumentRangeFormatting(ctx, formatRefusals);
  registerDocumentOnTypeFormatting(ctx, formatRefusals);
  registerValidateArtifactFile(ctx, artifacts);
  registerDirectiveTree(ctx, artifacts);
  registerPrefixMessage(ctx, artifacts);
  registerRunControlTree(ctx, runControl);
  registerRunControlCompose(ctx, runControl);
  registerTrainingExample(ctx);
  registerDocumentDigest(ctx);
  registerLanguageFeatures(ctx, diagnostics, languageFeatures, checks, supportsTokenRefresh, refreshInlayHints);
  return lifecycle;
}
