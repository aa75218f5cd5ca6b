// What a domain offers the LSP layer. Each domain has one provider (server/src/providers/) that answers
// for the document kinds it owns; the adaptors (one per LSP method, in this folder) ask the router what a
// document is and then the providers of that kind, in the order features/index.ts lists them.

import {
  CallHierarchyIncomingCall,
  CallHierarchyItem,
  CallHierarchyOutgoingCall,
  CancellationToken,
  CodeAction,
  CodeActionParams,
  CompletionItem,
  Diagnostic,
  DocumentHighlight,
  DocumentLink,
  DocumentSymbol,
  FileEvent,
  FoldingRange,
  Hover,
  InlayHint,
  Location,
  LocationLink,
  Position,
  Range,
  WorkspaceEdit,
  WorkspaceSymbol,
  SelectionRange,
  SemanticTokens,
  SemanticTokensDelta,
  SignatureHelp,
  SignatureHelpContext,
  TextEdit,
} from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { FolderConfig } from '../workspace/folders';
import { HarnAnalysis } from '../harn/analysis';
import { InvalidUtf8 } from '../text/utf8';
import { WorkbenchSettings } from '../workspace/settings';
import { Awaitable } from './handler';
import { DocumentKind } from './router';

/** One request about one document. */
export interface DocumentRequest {
  uri: string;
  kind: DocumentKind;
  /** The open document; undefined for a file the editor does not sync (big artifacts are served from disk). */
  doc: TextDocument | undefined;
  token: CancellationToken;
}

/** A closed file, as the workspace check (workspaceScan.ts) hands it to the providers of its kind. */
export interface DiskFile {
  uri: string;
  path: string;
  size: number;
  /** Its text read from disk (once, shared by the providers); undefined when it cannot be read or the check was cancelled. */
  document(): Promise<TextDocument | undefined>;
  /** A `.harn` file's analysis of that text (made once, shared by the providers). */
  harnAnalysis(): Promise<HarnAnalysis | undefined>;
  /** Where its bytes are not UTF-8 (the text reads U+FFFD there). */
  invalidUtf8(): Promise<readonly InvalidUtf8[]>;
  token: CancellationToken;
}

/** Why a rename cannot be done: the editor shows the message. */
export interface RenameRefusal {
  refused: string;
}

/** Why a document is not formatted (the formatter's refusal): no edits, the reason logged and shown. */
export interface FormatRefusal {
  refused: string;
}

/** A request about an open document. */
export interface OpenDocumentRequest extends DocumentRequest {
  doc: TextDocument;
}

export interface DomainProvider {
  /** Names the provider in logs, and its bucket of diagnostics. */
  readonly name: string;
  /** The document kinds it answers for. */
  readonly kinds: ReadonlySet<DocumentKind>;

  /**
   * The workspace folders, each with its own settings, and the window's settings (for files outside every folder),
   * on start and whenever they change (settings edited, folders added or removed).
   */
  configure?(folders: readonly FolderConfig[], outside: WorkbenchSettings): Awaitable<void>;
  /** Files changed on disk (saves included). */
  filesChanged?(changes: FileEvent[]): void;
  /** An open document's text changed (before its debounced diagnostics). */
  documentChanged?(uri: string): void;
  documentOpened?(uri: string): void;
  documentClosed?(uri: string): void;

  /** Live diagnostics of an open document, published in this provider's bucket (undefined: none for this kind). */
  diagnostics?(doc: TextDocument, kind: DocumentKind): Diagnostic[] | undefined;
  /**
   * Diagnostics of a closed file from its text on disk: what `diagnostics` says of it once it is open, less what
   * another producer already reports on closed files (the gate's findings). Published in the workspace check's
   * bucket, hidden while the file is open. Undefined: nothing for this kind; cancelled: anything.
   */
  diskDiagnostics?(file: DiskFile, kind: DocumentKind): Promise<Diagnostic[] | undefined>;
  /** Whether the diagnostics of a closed document stay (they describe the file on disk). */
  keepsDiagnosticsOnClose?(uri: string): boolean;

  // The first provider that answers (not undefined) wins; code actions are gathered from all.
  hover?(request: DocumentRequest, position: Position): Awaitable<Hover | undefined>;
  documentSymbol?(request: OpenDocumentRequest): Awaitable<DocumentSymbol[] | undefined>;
  foldingRange?(request: OpenDocumentRequest): FoldingRange[] | undefined;
  documentLink?(request: OpenDocumentRequest): DocumentLink[] | undefined;
  definition?(request: OpenDocumentRequest, position: Position): LocationLink[] | undefined;
  completion?(request: OpenDocumentRequest, position: Position): CompletionItem[] | undefined;
  /** The item with its details when it is this provider's (its `data` says), else undefined. */
  resolveCompletion?(item: CompletionItem): CompletionItem | undefined;
  codeAction?(request: DocumentRequest, params: CodeActionParams): CodeAction[];
  // Over the workspace index (cross-file); each honours the request's token.
  references?(request: OpenDocumentRequest, position: Position, includeDeclaration: boolean): Awaitable<Location[] | undefined>;
  documentHighlight?(request: OpenDocumentRequest, position: Position): Awaitable<DocumentHighlight[] | undefined>;
  prepareRename?(request: OpenDocumentRequest, position: Position): Awaitable<{ range: Range; placeholder: string } | RenameRefusal | undefined>;
  rename?(request: OpenDocumentRequest, position: Position, newName: string): Awaitable<WorkspaceEdit | RenameRefusal | undefined>;
  /** Not about one document: the adaptor gathers every provider's. */
  workspaceSymbol?(query: string, token: CancellationToken): Awaitable<WorkspaceSymbol[] | undefined>;
  semanticTokens?(request: OpenDocumentRequest): SemanticTokens | undefined;
  /** The edits since `previousResultId` when that is the provider's last result for the document, else all tokens. */
  semanticTokensDelta?(request: OpenDocumentRequest, previousResultId: string): SemanticTokens | SemanticTokensDelta | undefined;
  semanticTokensRange?(request: OpenDocumentRequest, range: Range): SemanticTokens | undefined;
  /** Null: asked and nothing to show (no call around the position). */
  signatureHelp?(request: OpenDocumentRequest, position: Position, context: SignatureHelpContext | undefined): SignatureHelp | null | undefined;
  selectionRanges?(request: OpenDocumentRequest, positions: Position[]): SelectionRange[] | undefined;
  declaration?(request: OpenDocumentRequest, position: Position): Awaitable<LocationLink[] | undefined>;
  typeDefinition?(request: OpenDocumentRequest, position: Position): Awaitable<LocationLink[] | undefined>;
  implementation?(request: OpenDocumentRequest, position: Position): Awaitable<LocationLink[] | undefined>;
  prepareCallHierarchy?(request: OpenDocumentRequest, position: Position): Awaitable<CallHierarchyItem[] | undefined>;
  /** About an item prepareCallHierarchy gave (the editor hands it back, perhaps after edits: it is looked up again). */
  incomingCalls?(item: CallHierarchyItem, token: CancellationToken): Awaitable<CallHierarchyIncomingCall[] | undefined>;
  outgoingCalls?(item: CallHierarchyItem, token: CancellationToken): Awaitable<CallHierarchyOutgoingCall[] | undefined>;
  inlayHints?(request: OpenDocumentRequest, range: Range): InlayHint[] | undefined;
  // Formatting, as small edits (the editor's FormattingOptions are not passed: the domain's formatter decides).
  formatDocument?(request: OpenDocumentRequest): Awaitable<TextEdit[] | FormatRefusal | undefined>;
  /** The smallest run of whole top-level items around the range. */
  formatRange?(request: OpenDocumentRequest, range: Range): Awaitable<TextEdit[] | FormatRefusal | undefined>;
  /** After `}` was typed just before `position`: the block it closes. */
  formatOnType?(request: OpenDocumentRequest, position: Position): Awaitable<TextEdit[] | FormatRefusal | undefined>;
}
