// The `.harn` domain in the LSP layer: syntax diagnostics, outline, folding, import links, hover,
// definition and completion, each converting positions, calling the pure domain function (harn/) and
// converting its plain result to LSP types.

import {
  CallHierarchyIncomingCall,
  CallHierarchyItem,
  CallHierarchyOutgoingCall,
  CancellationToken,
  CompletionItem,
  CompletionItemKind,
  Diagnostic,
  DocumentHighlight,
  DocumentHighlightKind,
  DocumentLink,
  DocumentSymbol,
  FileEvent,
  FoldingRange,
  FoldingRangeKind,
  Hover,
  InlayHint,
  InlayHintKind,
  Location,
  LocationLink,
  MarkupKind,
  Position,
  Range,
  SelectionRange,
  SemanticTokens,
  SemanticTokensDelta,
  SignatureHelp,
  SymbolKind,
  TextEdit,
  WorkspaceEdit,
  WorkspaceSymbol,
} from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import * as path from 'node:path';
import { harnSyntaxDiagnostics, invalidUtf8Diagnostics, replacementCharacterDiagnostics, WorkbenchDiagnostic } from '../diagnostics';
import { DiskFile, DocumentRequest, DomainProvider, FormatRefusal, OpenDocumentRequest, RenameRefusal } from '../features/provider';
import { DocumentKind } from '../features/router';
import { CompletionKind, CompletionSource, completionsAt, resolveCompletion } from '../harn/completion';
import { DefinitionLocation, definitionAt } from '../harn/definition';
import { foldingRanges } from '../harn/folding';
import { hoverAt } from '../harn/hover';
import { CallItem, implementationsAt, incomingCalls, outgoingCalls, prepareCallHierarchy, topLevelCalls } from '../harn/index/navigation';
import { highlightsAt, referencesAt } from '../harn/index/references';
import { prepareRenameAt, renameAt } from '../harn/index/rename';
import { DeclId, WorkspaceIndex } from '../harn/index/workspaceIndex';
import { workspaceSymbols } from '../harn/index/symbols';
import { HarnIndexer } from '../workspace/harnIndexer';
import { OutlineKind, OutlineSymbol, statementOutline } from '../harn/outline';
import * as A from '../harn/ast';
import { MAX_OUTLINE_SYMBOLS } from '../outlineCap';
import { pushAll } from '../util/arrays';
import { HarnAnalysis } from '../harn/analysis';
import { encodeTokens, SemanticTokensCache, tokenEdits } from '../harn/semanticTokens';
import { selectionRangesAt } from '../harn/selectionRanges';
import { signatureHelpAt } from '../harn/signatureHelp';
import { declarationAt, typeDefinitionAt } from '../harn/typeDefinition';
import { parameterHints } from '../harn/inlayHints';
import { formatConfigFor } from '../harn/format/config';
import { documentFormatEdits, FormatEdits, onTypeFormatEdits, rangeFormatEdits } from '../harn/format/edits';
import { DEFAULT_FORMAT_OPTIONS, FormatOptions } from '../harn/format';
import { hexBytes } from '../text/utf8';
import { FolderConfig, FolderSettings, rootOf } from '../workspace/folders';
import { workspaceRefusal } from '../workspace/roots';
import { WorkbenchSettings } from '../workspace/settings';
import { HarnWorkspace, pathToUri, uriToPath } from '../workspace/harnWorkspace';
import { omittedSymbolsNote, toLspDiagnostic } from './convert';

const SYMBOL_KINDS: Record<OutlineKind, SymbolKind> = {
  pipeline: SymbolKind.Module,
  function: SymbolKind.Function,
  method: SymbolKind.Method,
  tool: SymbolKind.Function,
  skill: SymbolKind.Object,
  evalPack: SymbolKind.Package,
  struct: SymbolKind.Struct,
  field: SymbolKind.Field,
  enum: SymbolKind.Enum,
  variant: SymbolKind.EnumMember,
  typeAlias: SymbolKind.TypeParameter,
  interface: SymbolKind.Interface,
  impl: SymbolKind.Class,
  constant: SymbolKind.Constant,
  variable: SymbolKind.Variable,
  import: SymbolKind.Module,
};

const COMPLETION_KINDS: Record<CompletionKind, CompletionItemKind> = {
  keyword: CompletionItemKind.Keyword,
  function: CompletionItemKind.Function,
  variable: CompletionItemKind.Variable,
  constant: CompletionItemKind.Constant,
  struct: CompletionItemKind.Struct,
  enum: CompletionItemKind.Enum,
  enumMember: CompletionItemKind.EnumMember,
  interface: CompletionItemKind.Interface,
  module: CompletionItemKind.Module,
  field: CompletionItemKind.Field,
  class: CompletionItemKind.Class,
};

/**
 * What a `.harn` completion item carries to its resolve, kept short (a list holds every builtin): the name is the
 * item's label; a declaration's file is left out when it is the file completion was asked in (`from`).
 */
type HarnCompletionData = { harn: 'builtin' } | { harn: 'binding' | 'variant'; from: string; file?: string; offset: number };

function completionData(source: CompletionSource, from: string): HarnCompletionData | undefined {
  switch (source.kind) {
    case 'keyword':
      return undefined;
    case 'builtin':
      return { harn: 'builtin' };
    default:
      return { harn: source.kind, from, ...(source.file === from ? {} : { file: source.file }), offset: source.offset };
  }
}

/** The item's source and the file it was asked in when its data is a `.harn` completion's, checked field by field (the client sends it back). */
function completionSourceOf(item: CompletionItem): { from: string | undefined; source: CompletionSource } | undefined {
  const data: unknown = item.data;
  if (typeof data !== 'object' || data === null || !('harn' in data)) return undefined;
  const d = data as Record<string, unknown>;
  if (d.harn === 'builtin') return { from: undefined, source: { kind: 'builtin', name: item.label } };
  if (d.harn !== 'binding' && d.harn !== 'variant') return undefined;
  const from = typeof d.from === 'string' && path.isAbsolute(d.from) ? d.from : undefined;
  const file = d.file === undefined ? from : typeof d.file === 'string' && path.isAbsolute(d.file) ? d.file : undefined;
  const offset = typeof d.offset === 'number' && Number.isSafeInteger(d.offset) && d.offset >= 0 ? d.offset : undefined;
  if (from === undefined || file === undefined || offset === undefined) return undefined;
  return { from, source: { kind: d.harn, file, name: item.label, offset } };
}

/** A top-level statement's document symbols, as made when it started at `line` and `character`; `size`: its outline's nodes. */
interface StatementSymbols {
  line: number;
  character: number;
  symbols: readonly DocumentSymbol[];
  size: number;
}

/**
 * Each top-level statement's document symbols, kept as long as the statement object lives. HarnAnalysis.edited
 * keeps the statements an edit leaves alone (the same object holds the same text), and their symbols stay the same
 * while the statement starts at the same line and character (every position inside it then does too): after a
 * keystroke that adds no line, only the edited statement's symbols are made again. Answers share these objects;
 * nothing changes a DocumentSymbol once it is made.
 */
const statementSymbols = new WeakMap<A.Stmt, StatementSymbols>();

/** The document's outline as LSP symbols: what toDocumentSymbols gives for `analysis.cappedOutline`, with its note. */
export function documentSymbolsOf(analysis: HarnAnalysis): DocumentSymbol[] {
  const li = analysis.lineIndex;
  const out: DocumentSymbol[] = [];
  let size = 0;
  for (const stmt of analysis.file.statements) {
    const line = li.lineAt(stmt.start);
    const character = stmt.start - (li.lineStarts[line] ?? 0);
    let known = statementSymbols.get(stmt);
    if (known?.line !== line || known.character !== character) {
      const outline = statementOutline(stmt, analysis.text);
      known = { line, character, symbols: toDocumentSymbols(outline, analysis), size: outlineSize(outline) };
      statementSymbols.set(stmt, known);
    }
    size += known.size;
    // Past the cap the outline is cut inside a statement: made whole, as the cap says (a rare file).
    if (size > MAX_OUTLINE_SYMBOLS) return cappedDocumentSymbols(analysis);
    pushAll(out, known.symbols);
  }
  return out;
}

function cappedDocumentSymbols(analysis: HarnAnalysis): DocumentSymbol[] {
  const { symbols, omitted, firstOmitted } = analysis.cappedOutline;
  const converted = toDocumentSymbols(symbols, analysis);
  if (omitted > 0) converted.push(omittedSymbolsNote(omitted, analysis.lineIndex.positionAt(firstOmitted ?? analysis.text.length)));
  return converted;
}

/** How many symbols an outline holds, at every depth. */
function outlineSize(symbols: readonly OutlineSymbol[]): number {
  let size = symbols.length;
  for (const s of symbols) size += outlineSize(s.children);
  return size;
}

export function toDocumentSymbols(symbols: OutlineSymbol[], analysis: HarnAnalysis): DocumentSymbol[] {
  const li = analysis.lineIndex;
  return symbols.map((s) => ({
    name: s.name || '(anonymous)',
    detail: s.detail,
    kind: SYMBOL_KINDS[s.kind],
    range: li.rangeOf(s.start, s.end),
    selectionRange: li.rangeOf(s.selectionStart, s.selectionEnd),
    children: toDocumentSymbols(s.children, analysis),
  }));
}

/** A location link from a name of `origin` to a declaration (a whole file when the target has no analysis). */
function locationLink(origin: HarnAnalysis, def: DefinitionLocation): LocationLink {
  const targetIndex = def.analysis?.lineIndex;
  const zero = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
  return {
    originSelectionRange: origin.lineIndex.rangeOf(def.originStart, def.originEnd),
    targetUri: pathToUri(def.file),
    targetRange: targetIndex ? targetIndex.rangeOf(def.fullStart, def.fullEnd) : zero,
    targetSelectionRange: targetIndex ? targetIndex.rangeOf(def.start, def.end) : zero,
  };
}

function callHierarchyItem(item: CallItem): CallHierarchyItem {
  return {
    name: item.name,
    kind: item.kind === 'file' ? SymbolKind.File : SYMBOL_KINDS[item.kind],
    uri: pathToUri(item.file),
    range: item.range,
    selectionRange: item.selectionRange,
    ...(item.detail === undefined ? {} : { detail: item.detail }),
  };
}

export class HarnProvider implements DomainProvider {
  readonly name = 'harn';
  readonly kinds: ReadonlySet<DocumentKind> = new Set(['harn']);

  constructor(
    private readonly workspace: HarnWorkspace,
    private readonly roots: () => readonly string[],
    /** Whether the loud-boundary gate reports the invalid UTF-8 of this closed file already. */
    private readonly gateReportsEncoding: (file: string) => boolean = () => false,
  ) {
    this.indexer = new HarnIndexer(workspace, { get: (uri) => workspace.openDocument(uri) }, roots);
  }

  /** Every `.harn` file of the folders, for the cross-file features (references, rename, workspace symbols). */
  private readonly indexer: HarnIndexer;

  private readonly folderSettings = new FolderSettings();

  /** The folders are known (or changed): the index is built again in the background. */
  configure(folders: readonly FolderConfig[], outside: WorkbenchSettings): void {
    this.folderSettings.configure(folders, outside);
    // The editor keeps the hints it has until asked again: it is, when the setting changed anywhere.
    const hints = JSON.stringify([outside.inlayHints, folders.map((f) => [f.root, f.settings.inlayHints])]);
    if (this.hintSettings !== undefined && hints !== this.hintSettings) this.hintsChanged();
    this.hintSettings = hints;
    void this.indexer.rebuild();
  }

  private hintSettings: string | undefined;
  private hintsChanged: () => void = () => undefined;

  /** Called when `harn.inlayHints.*` changes (the LSP layer asks the editor to fetch hints again). */
  whenHintsChange(listener: () => void): void {
    this.hintsChanged = listener;
  }

  filesChanged(changes: FileEvent[]): void {
    this.indexer.filesChanged(changes);
  }

  documentOpened(uri: string): void {
    this.indexer.documentOpened(uri);
  }

  documentChanged(uri: string): void {
    this.indexer.documentChanged(uri);
  }

  /** Paths are shown relative to the file's own workspace folder. */
  private rootOf(file: string): string | undefined {
    return rootOf(file, this.roots());
  }

  /** Off while upstream's extension serves `.harn` files (features/languageFeatures.ts): then nothing below answers. */
  private answering: () => boolean = () => true;

  /** Lifecycle hooks still run when off (the analyses are shared with the boundary provider); answers do not. */
  answersOnlyWhen(enabled: () => boolean): void {
    this.answering = enabled;
  }

  private analysisOf(doc: TextDocument): HarnAnalysis {
    return this.workspace.analysisOf(doc);
  }

  documentClosed(uri: string): void {
    this.workspace.forget(uri);
    this.indexer.documentClosed(uri);
    this.lastTokens.delete(uri);
    this.tokenCaches.delete(uri);
  }

  /** Each open document's last full tokens, for deltas against them. */
  private readonly lastTokens = new Map<string, { resultId: string; data: Uint32Array }>();
  private nextResultId = 1;
  /** Each open document's tokens per top-level statement: a keystroke recomputes the statement it falls in. */
  private readonly tokenCaches = new Map<string, SemanticTokensCache>();

  private tokenCache(uri: string): SemanticTokensCache {
    let cache = this.tokenCaches.get(uri);
    if (!cache) this.tokenCaches.set(uri, (cache = new SemanticTokensCache()));
    return cache;
  }

  private encodedTokens(doc: TextDocument): Uint32Array {
    return this.tokenCache(doc.uri).encoded(this.analysisOf(doc), uriToPath(doc.uri), this.workspace);
  }

  private remember(uri: string, data: Uint32Array): string {
    const resultId = String(this.nextResultId++);
    this.lastTokens.set(uri, { resultId, data });
    return resultId;
  }

  diagnostics(doc: TextDocument): Diagnostic[] {
    // Empty, not undefined: an empty bucket clears what was published while on.
    if (!this.answering()) return [];
    return this.diagnosticsOf(this.analysisOf(doc), uriToPath(doc.uri));
  }

  /**
   * A closed file's: the same checks on its text on disk (its analysis is not cached: the file is not open), with
   * bytes that are not UTF-8 reported as `check` reports them (invalid_utf8, not the editor's U+FFFD warning) unless
   * the gate already reports them on this file.
   */
  async diskDiagnostics(file: DiskFile, kind: DocumentKind): Promise<Diagnostic[] | undefined> {
    if (kind !== 'harn' || !this.answering()) return undefined;
    const analysis = await file.harnAnalysis();
    if (!analysis) return undefined;
    const invalid = this.gateReportsEncoding(file.path) ? [] : await file.invalidUtf8();
    const encoding = invalidUtf8Diagnostics(invalid, analysis.lineIndex).map(toLspDiagnostic);
    return [...encoding, ...this.diagnosticsOf(analysis, file.path, false)];
  }

  private diagnosticsOf(analysis: HarnAnalysis, file: string, replacementCharacters = true): Diagnostic[] {
    return [
      ...harnSyntaxDiagnostics(analysis),
      ...(replacementCharacters ? replacementCharacterDiagnostics(analysis) : []),
      ...this.importEncodingDiagnostics(analysis, file),
    ].map(toLspDiagnostic);
  }

  /** `invalid_utf8` (warning) on each import whose module, read from disk, is not UTF-8: where, and how often. */
  private importEncodingDiagnostics(analysis: HarnAnalysis, file: string): WorkbenchDiagnostic[] {
    const out: WorkbenchDiagnostic[] = [];
    for (const decl of analysis.scopes.imports) {
      const value = decl.path?.value;
      if (!decl.path || value === undefined) continue;
      const target = this.workspace.resolveImport(file, value);
      if (target === undefined || !this.workspace.load(target)) continue;
      const bad = this.workspace.invalidUtf8Of(target);
      if (!bad) continue;
      const at = bad.analysis.lineIndex.positionAt(bad.first.start);
      const root = this.rootOf(file);
      const shown = root ? path.relative(root, target) : path.basename(target);
      const more = bad.count > 1 ? `, and ${bad.count - 1} more place${bad.count === 2 ? '' : 's'}` : '';
      const what = bad.first.bytes.length === 1 ? 'the byte' : 'the bytes';
      out.push({
        range: analysis.lineIndex.rangeOf(decl.path.start, decl.path.end),
        severity: 'warning',
        source: 'harn.syntax',
        code: 'invalid_utf8',
        message: `The imported ${shown} is not UTF-8: ${what} ${hexBytes(bad.first.bytes)} at line ${at.line + 1}, character ${at.character + 1}${more} (read as U+FFFD).`,
        data: { file: target, byteOffset: bad.first.byteOffset },
      });
    }
    return out;
  }

  /** At most MAX_OUTLINE_SYMBOLS symbols, then one saying how many more there are (outlineCap.ts). */
  documentSymbol({ doc }: OpenDocumentRequest): DocumentSymbol[] | undefined {
    if (!this.answering()) return undefined;
    return documentSymbolsOf(this.analysisOf(doc));
  }

  foldingRange({ doc }: OpenDocumentRequest): FoldingRange[] | undefined {
    if (!this.answering()) return undefined;
    return foldingRanges(this.analysisOf(doc)).map((f) => {
      const range: FoldingRange = { startLine: f.startLine, endLine: f.endLine };
      if (f.kind === 'comment') range.kind = FoldingRangeKind.Comment;
      else if (f.kind === 'imports') range.kind = FoldingRangeKind.Imports;
      return range;
    });
  }

  documentLink({ doc, uri }: OpenDocumentRequest): DocumentLink[] | undefined {
    if (!this.answering()) return undefined;
    const analysis = this.analysisOf(doc);
    const file = uriToPath(uri);
    const links: DocumentLink[] = [];
    for (const decl of analysis.scopes.imports) {
      if (!decl.path || decl.path.value === undefined) continue;
      const target = this.workspace.resolveImport(file, decl.path.value);
      if (!target) continue;
      // The link covers the path text inside the quotes.
      const quote = decl.path.triple ? 3 : 1;
      links.push({
        range: analysis.lineIndex.rangeOf(decl.path.start + quote, decl.path.end - quote),
        target: pathToUri(target),
        tooltip: 'Open the imported module',
      });
    }
    return links;
  }

  hover({ doc, uri }: DocumentRequest, position: Position): Hover | undefined {
    if (!doc || !this.answering()) return undefined;
    const analysis = this.analysisOf(doc);
    const offset = analysis.lineIndex.offsetAt(position);
    const result = hoverAt(analysis, uriToPath(uri), offset, this.workspace, this.rootOf(uriToPath(uri)));
    if (!result) return undefined;
    return {
      contents: { kind: MarkupKind.Markdown, value: result.markdown },
      range: analysis.lineIndex.rangeOf(result.start, result.end),
    };
  }

  definition({ doc, uri }: OpenDocumentRequest, position: Position): LocationLink[] | undefined {
    if (!this.answering()) return undefined;
    const analysis = this.analysisOf(doc);
    const offset = analysis.lineIndex.offsetAt(position);
    const def = definitionAt(analysis, uriToPath(uri), offset, this.workspace);
    if (!def) return [];
    const targetIndex = def.analysis?.lineIndex;
    const zero = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
    return [
      {
        originSelectionRange: analysis.lineIndex.rangeOf(def.originStart, def.originEnd),
        targetUri: pathToUri(def.file),
        targetRange: targetIndex ? targetIndex.rangeOf(def.fullStart, def.fullEnd) : zero,
        targetSelectionRange: targetIndex ? targetIndex.rangeOf(def.start, def.end) : zero,
      },
    ];
  }

  completion({ doc, uri }: OpenDocumentRequest, position: Position): CompletionItem[] | undefined {
    if (!this.answering()) return undefined;
    const analysis = this.analysisOf(doc);
    const offset = analysis.lineIndex.offsetAt(position);
    const file = uriToPath(uri);
    // Detail and documentation come in completionItem/resolve: the list stays small.
    return completionsAt(analysis, file, offset, this.workspace, this.rootOf(file)).map((c) => {
      const item: CompletionItem = { label: c.label, kind: COMPLETION_KINDS[c.kind], sortText: c.sortText };
      const data = completionData(c.source, file);
      if (data) item.data = data;
      return item;
    });
  }

  /** Ours when the item's data is (completion above); the file it was asked in names the paths in its hover. */
  resolveCompletion(item: CompletionItem): CompletionItem | undefined {
    const found = completionSourceOf(item);
    if (!found || !this.answering()) return undefined;
    const { from, source } = found;
    // The data comes back from the client: a file it names is read only when it is open or inside the folders.
    const file = 'file' in source ? source.file : undefined;
    if (file !== undefined && !this.workspace.openDocument(pathToUri(file)) && workspaceRefusal(file, this.roots()) !== undefined) return item;
    const { detail, documentation } = resolveCompletion(source, from ?? '', this.workspace, from === undefined ? undefined : this.rootOf(from));
    const resolved: CompletionItem = { ...item };
    if (detail) resolved.detail = detail;
    if (documentation) resolved.documentation = { kind: MarkupKind.Markdown, value: documentation };
    return resolved;
  }

  async references({ doc, uri, token }: OpenDocumentRequest, position: Position, includeDeclaration: boolean): Promise<Location[] | undefined> {
    if (!this.answering()) return undefined;
    const index = await this.indexer.current();
    const offset = this.analysisOf(doc).lineIndex.offsetAt(position);
    const found = referencesAt(index, uriToPath(uri), offset, includeDeclaration, () => token.isCancellationRequested);
    return found?.map((r) => ({ uri: pathToUri(r.file), range: r.range }));
  }

  async documentHighlight({ doc, uri }: OpenDocumentRequest, position: Position): Promise<DocumentHighlight[] | undefined> {
    if (!this.answering()) return undefined;
    const index = await this.indexer.current();
    const offset = this.analysisOf(doc).lineIndex.offsetAt(position);
    return highlightsAt(index, uriToPath(uri), offset)?.map((h) => ({
      range: h.range,
      kind: h.write ? DocumentHighlightKind.Write : DocumentHighlightKind.Read,
    }));
  }

  async prepareRename({ doc, uri }: OpenDocumentRequest, position: Position): Promise<{ range: Range; placeholder: string } | RenameRefusal | undefined> {
    if (!this.answering()) return undefined;
    const index = await this.indexer.current();
    const analysis = this.analysisOf(doc);
    const target = prepareRenameAt(index, analysis, uriToPath(uri), analysis.lineIndex.offsetAt(position));
    return 'refused' in target ? target : { range: target.range, placeholder: target.placeholder };
  }

  async rename({ doc, uri, token }: OpenDocumentRequest, position: Position, newName: string): Promise<WorkspaceEdit | RenameRefusal | undefined> {
    if (!this.answering()) return undefined;
    const index = await this.indexer.current();
    const analysis = this.analysisOf(doc);
    const edits = renameAt(index, analysis, uriToPath(uri), analysis.lineIndex.offsetAt(position), newName, () => token.isCancellationRequested);
    if (edits === undefined || 'refused' in edits) return edits;
    const changes: Record<string, TextEdit[]> = {};
    for (const edit of edits) (changes[pathToUri(edit.file)] ??= []).push({ range: edit.range, newText: edit.newText });
    return { changes };
  }

  async workspaceSymbol(query: string, token: CancellationToken): Promise<WorkspaceSymbol[] | undefined> {
    if (!this.answering()) return undefined;
    const index = await this.indexer.current();
    return workspaceSymbols(index, query, () => token.isCancellationRequested)?.map((m) => {
      const symbol: WorkspaceSymbol = {
        name: m.symbol.name,
        kind: SYMBOL_KINDS[m.symbol.kind],
        location: { uri: pathToUri(m.file), range: m.range },
      };
      if (m.symbol.container !== undefined) symbol.containerName = m.symbol.container;
      return symbol;
    });
  }

  semanticTokens({ doc, uri }: OpenDocumentRequest): SemanticTokens | undefined {
    if (!this.answering()) return undefined;
    const data = this.encodedTokens(doc);
    return { resultId: this.remember(uri, data), data: Array.from(data) };
  }

  semanticTokensDelta({ doc, uri }: OpenDocumentRequest, previousResultId: string): SemanticTokens | SemanticTokensDelta | undefined {
    if (!this.answering()) return undefined;
    const previous = this.lastTokens.get(uri);
    const data = this.encodedTokens(doc);
    const resultId = this.remember(uri, data);
    // An unknown or older result (the server restarted, another request came between): all tokens.
    if (!previous || previous.resultId !== previousResultId) return { resultId, data: Array.from(data) };
    return { resultId, edits: tokenEdits(previous.data, data) };
  }

  semanticTokensRange({ doc, uri }: OpenDocumentRequest, range: Range): SemanticTokens | undefined {
    if (!this.answering()) return undefined;
    const analysis = this.analysisOf(doc);
    const li = analysis.lineIndex;
    const tokens = this.tokenCache(uri).tokensIn(analysis, uriToPath(uri), this.workspace, li.offsetAt(range.start), li.offsetAt(range.end));
    return { data: encodeTokens(tokens, li) };
  }

  signatureHelp({ doc, uri }: OpenDocumentRequest, position: Position): SignatureHelp | null | undefined {
    if (!this.answering()) return undefined;
    const analysis = this.analysisOf(doc);
    const help = signatureHelpAt(analysis, uriToPath(uri), analysis.lineIndex.offsetAt(position), this.workspace);
    if (!help) return null;
    return {
      activeSignature: help.activeSignature,
      activeParameter: help.activeParameter,
      signatures: help.signatures.map((s) => ({
        label: s.label,
        ...(s.documentation ? { documentation: { kind: MarkupKind.Markdown, value: s.documentation } } : {}),
        parameters: s.parameters.map((p) => ({ label: p.label })),
      })),
    };
  }

  selectionRanges({ doc }: OpenDocumentRequest, positions: Position[]): SelectionRange[] | undefined {
    if (!this.answering()) return undefined;
    const analysis = this.analysisOf(doc);
    const li = analysis.lineIndex;
    return positions.map((position) => {
      const ranges = selectionRangesAt(analysis, li.offsetAt(position));
      let chain: SelectionRange | undefined;
      // Built from the outside in: each range's parent is the next larger one.
      for (let i = ranges.length - 1; i >= 0; i--) {
        const r = ranges[i];
        if (r) chain = { range: li.rangeOf(r.start, r.end), ...(chain ? { parent: chain } : {}) };
      }
      return chain ?? { range: { start: position, end: position } };
    });
  }

  declaration({ doc, uri }: OpenDocumentRequest, position: Position): LocationLink[] | undefined {
    if (!this.answering()) return undefined;
    const analysis = this.analysisOf(doc);
    const found = declarationAt(analysis, uriToPath(uri), analysis.lineIndex.offsetAt(position), this.workspace);
    return found ? [locationLink(analysis, found)] : [];
  }

  typeDefinition({ doc, uri }: OpenDocumentRequest, position: Position): LocationLink[] | undefined {
    if (!this.answering()) return undefined;
    const analysis = this.analysisOf(doc);
    return typeDefinitionAt(analysis, uriToPath(uri), analysis.lineIndex.offsetAt(position), this.workspace).map((d) => locationLink(analysis, d));
  }

  async implementation({ doc, uri, token }: OpenDocumentRequest, position: Position): Promise<LocationLink[] | undefined> {
    if (!this.answering()) return undefined;
    const index = await this.indexer.current();
    const analysis = this.analysisOf(doc);
    const offset = analysis.lineIndex.offsetAt(position);
    const found = implementationsAt(index, uriToPath(uri), offset, () => token.isCancellationRequested) ?? [];
    const origin = analysis.tokenAt(offset);
    return found.map((i) => ({
      ...(origin ? { originSelectionRange: analysis.lineIndex.rangeOf(origin.start, origin.end) } : {}),
      targetUri: pathToUri(i.file),
      targetRange: i.range,
      targetSelectionRange: i.selectionRange,
    }));
  }

  async prepareCallHierarchy({ doc, uri }: OpenDocumentRequest, position: Position): Promise<CallHierarchyItem[] | undefined> {
    if (!this.answering()) return undefined;
    const index = await this.indexer.current();
    const item = prepareCallHierarchy(index, uriToPath(uri), this.analysisOf(doc).lineIndex.offsetAt(position));
    return item ? [callHierarchyItem(item)] : [];
  }

  async incomingCalls(item: CallHierarchyItem, token: CancellationToken): Promise<CallHierarchyIncomingCall[] | undefined> {
    if (!this.answering()) return undefined;
    const index = await this.indexer.current();
    // A file item is called by no one.
    const id = item.kind === SymbolKind.File ? undefined : this.callableOf(index, item);
    const edges = id === undefined ? [] : incomingCalls(index, id, () => token.isCancellationRequested);
    return edges?.map((e) => ({ from: callHierarchyItem(e.item), fromRanges: e.fromRanges }));
  }

  async outgoingCalls(item: CallHierarchyItem): Promise<CallHierarchyOutgoingCall[] | undefined> {
    if (!this.answering()) return undefined;
    const index = await this.indexer.current();
    // A file item (the caller of top-level calls) calls what its top level calls.
    const id = item.kind === SymbolKind.File ? undefined : this.callableOf(index, item);
    const edges = item.kind === SymbolKind.File ? topLevelCalls(index, uriToPath(item.uri)) : id === undefined ? [] : outgoingCalls(index, id);
    return edges.map((e) => ({ to: callHierarchyItem(e.item), fromRanges: e.fromRanges }));
  }

  /** The callable an item handed back by the editor names: looked up again at its name (the file may have changed). */
  private callableOf(index: WorkspaceIndex, item: CallHierarchyItem): DeclId | undefined {
    const file = uriToPath(item.uri);
    const fileIndex = index.get(file);
    if (!fileIndex) return undefined;
    return prepareCallHierarchy(index, file, fileIndex.lineIndex.offsetAt(item.selectionRange.start))?.id;
  }
  /** Empty while `harn.inlayHints.parameterNames` is off for the file's folder. */
  inlayHints({ doc, uri }: OpenDocumentRequest, range: Range): InlayHint[] | undefined {
    if (!this.answering()) return undefined;
    const file = uriToPath(uri);
    if (!this.folderSettings.of(file).inlayHints.parameterNames) return [];
    const analysis = this.analysisOf(doc);
    const li = analysis.lineIndex;
    return parameterHints(analysis, file, li.offsetAt(range.start), li.offsetAt(range.end), this.workspace).map((h) => ({
      position: li.positionAt(h.offset),
      label: h.label,
      kind: InlayHintKind.Parameter,
      paddingRight: true,
    }));
  }

  private formatProblem: (message: string) => void = () => undefined;

  /** Told when a file's harn.toml cannot be used for formatting (it is then formatted with the defaults, as upstream does). */
  whenFormatConfigFails(listener: (message: string) => void): void {
    this.formatProblem = listener;
  }

  /**
   * The `[fmt]` options of the harn.toml at or above the file, read again on every request (at most 16 directories
   * looked at and one small file read), so an edited harn.toml counts at once. Not a file (untitled): the defaults.
   */
  private formatOptionsOf(uri: string): FormatOptions {
    if (!uri.startsWith('file:')) return DEFAULT_FORMAT_OPTIONS;
    const config = formatConfigFor(uriToPath(uri));
    if (config.error !== undefined) this.formatProblem(`${config.error}; formatting with the defaults`);
    return config.options;
  }

  private formatAnswer(edits: FormatEdits): TextEdit[] | FormatRefusal {
    return 'refused' in edits ? edits : edits.edits;
  }

  formatDocument({ doc, uri }: OpenDocumentRequest): TextEdit[] | FormatRefusal | undefined {
    if (!this.answering()) return undefined;
    return this.formatAnswer(documentFormatEdits(doc.getText(), this.formatOptionsOf(uri), this.analysisOf(doc).parsed));
  }

  formatRange({ doc, uri }: OpenDocumentRequest, range: Range): TextEdit[] | FormatRefusal | undefined {
    if (!this.answering()) return undefined;
    return this.formatAnswer(rangeFormatEdits(doc.getText(), range, this.formatOptionsOf(uri), this.analysisOf(doc).parsed));
  }

  formatOnType({ doc, uri }: OpenDocumentRequest, position: Position): TextEdit[] | FormatRefusal | undefined {
    if (!this.answering()) return undefined;
    return this.formatAnswer(onTypeFormatEdits(doc.getText(), position, this.formatOptionsOf(uri), this.analysisOf(doc).parsed));
  }
}
