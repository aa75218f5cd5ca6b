// What a domain offers the LSP layer. Each domain has one provider (server/src/providers/) that answers
// for the document kinds it owns; the adaptors (one per LSP method, in this folder) ask the router what a
// document is and then the providers of that kind, in the order features/index.ts lists them.

import {
  CancellationToken,
  CodeAction,
  CodeActionParams,
  CompletionItem,
  Diagnostic,
  DocumentLink,
  DocumentSymbol,
  FileEvent,
  FoldingRange,
  Hover,
  LocationLink,
  Position,
} from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { FolderConfig } from '../workspace/folders';
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
  /** Whether the diagnostics of a closed document stay (they describe the file on disk). */
  keepsDiagnosticsOnClose?(uri: string): boolean;

  // The first provider that answers (not undefined) wins; code actions are gathered from all.
  hover?(request: DocumentRequest, position: Position): Awaitable<Hover | undefined>;
  documentSymbol?(request: OpenDocumentRequest): Awaitable<DocumentSymbol[] | undefined>;
  foldingRange?(request: OpenDocumentRequest): FoldingRange[] | undefined;
  documentLink?(request: OpenDocumentRequest): DocumentLink[] | undefined;
  definition?(request: OpenDocumentRequest, position: Position): LocationLink[] | undefined;
  completion?(request: OpenDocumentRequest, position: Position): CompletionItem[] | undefined;
  codeAction?(request: DocumentRequest, params: CodeActionParams): CodeAction[];
}
