// Thin LSP adaptors for the .harn editor features: each converts positions, calls the pure domain
// function and converts its plain result to LSP types.

import {
  CompletionItem,
  CompletionItemKind,
  Connection,
  Diagnostic,
  DiagnosticSeverity,
  DocumentLink,
  DocumentSymbol,
  FoldingRange,
  FoldingRangeKind,
  Hover,
  LocationLink,
  MarkupKind,
  Position,
  SymbolKind,
  TextDocuments,
} from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { WorkbenchDiagnostic } from '../diagnostics';
import { completionsAt, CompletionKind } from '../harn/completion';
import { definitionAt } from '../harn/definition';
import { foldingRanges } from '../harn/folding';
import { hoverAt } from '../harn/hover';
import { OutlineKind, OutlineSymbol } from '../harn/outline';
import { HarnAnalysis } from '../harn/analysis';
import { HarnWorkspace, pathToUri, uriToPath } from '../workspace/harnWorkspace';
import { guarded } from './handler';

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

const SEVERITIES = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  information: DiagnosticSeverity.Information,
  hint: DiagnosticSeverity.Hint,
} as const;

export function toLspDiagnostic(d: WorkbenchDiagnostic): Diagnostic {
  const out: Diagnostic = { range: d.range, severity: SEVERITIES[d.severity], source: d.source, code: d.code, message: d.message };
  if (d.data) out.data = d.data;
  return out;
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

/** Features of other domains that answer first in the same handlers (one handler per LSP method). */
export interface FeatureExtensions {
  /** Hover for any document (synced or not: big artifacts are served from disk); undefined lets the Harn hover answer. */
  hover?(uri: string, position: Position): Hover | undefined;
  /** Symbols of documents that are not `.harn`. */
  symbols?(uri: string): DocumentSymbol[] | undefined;
  /** Completion inside special strings of a `.harn` document; undefined lets the Harn completion answer. */
  completion?(analysis: HarnAnalysis, offset: number): CompletionItem[] | undefined;
}

export function registerHarnFeatures(
  connection: Connection,
  documents: TextDocuments<TextDocument>,
  workspace: HarnWorkspace,
  workspaceRoot: () => string | undefined,
  extensions: FeatureExtensions = {},
): void {
  /** The analysis of an open .harn document, or undefined for other documents. */
  const harnDoc = (uri: string): { doc: TextDocument; analysis: HarnAnalysis; file: string } | undefined => {
    const doc = documents.get(uri);
    if (!doc || doc.languageId !== 'harn') return undefined;
    return { doc, analysis: workspace.analysisOf(doc), file: uriToPath(uri) };
  };

  connection.onDocumentSymbol(
    guarded(connection, 'documentSymbol', [] as DocumentSymbol[], (params) => {
      const h = harnDoc(params.textDocument.uri);
      if (h) return toDocumentSymbols(h.analysis.outline, h.analysis);
      return extensions.symbols?.(params.textDocument.uri) ?? [];
    }),
  );

  connection.onFoldingRanges(
    guarded(connection, 'foldingRange', [] as FoldingRange[], (params) => {
      const h = harnDoc(params.textDocument.uri);
      if (!h) return [];
      return foldingRanges(h.analysis).map((f) => {
        const range: FoldingRange = { startLine: f.startLine, endLine: f.endLine };
        if (f.kind === 'comment') range.kind = FoldingRangeKind.Comment;
        else if (f.kind === 'imports') range.kind = FoldingRangeKind.Imports;
        return range;
      });
    }),
  );

  connection.onDocumentLinks(
    guarded(connection, 'documentLink', [] as DocumentLink[], (params) => {
      const h = harnDoc(params.textDocument.uri);
      if (!h) return [];
      const links: DocumentLink[] = [];
      for (const decl of h.analysis.scopes.imports) {
        if (!decl.path || decl.path.value === undefined) continue;
        const target = workspace.resolveImport(h.file, decl.path.value);
        if (!target) continue;
        // The link covers the path text inside the quotes.
        const quote = decl.path.triple ? 3 : 1;
        links.push({
          range: h.analysis.lineIndex.rangeOf(decl.path.start + quote, decl.path.end - quote),
          target: pathToUri(target),
          tooltip: 'Open the imported module',
        });
      }
      return links;
    }),
  );

  connection.onHover(
    guarded(connection, 'hover', null as Hover | null, (params) => {
      const extra = extensions.hover?.(params.textDocument.uri, params.position);
      if (extra) return extra;
      const h = harnDoc(params.textDocument.uri);
      if (!h) return null;
      const offset = h.analysis.lineIndex.offsetAt(params.position);
      const result = hoverAt(h.analysis, h.file, offset, workspace, workspaceRoot());
      if (!result) return null;
      return {
        contents: { kind: MarkupKind.Markdown, value: result.markdown },
        range: h.analysis.lineIndex.rangeOf(result.start, result.end),
      };
    }),
  );

  connection.onDefinition(
    guarded(connection, 'definition', [] as LocationLink[], (params) => {
      const h = harnDoc(params.textDocument.uri);
      if (!h) return [];
      const offset = h.analysis.lineIndex.offsetAt(params.position);
      const def = definitionAt(h.analysis, h.file, offset, workspace);
      if (!def) return [];
      const targetIndex = def.analysis?.lineIndex;
      const zero = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
      return [
        {
          originSelectionRange: h.analysis.lineIndex.rangeOf(def.originStart, def.originEnd),
          targetUri: pathToUri(def.file),
          targetRange: targetIndex ? targetIndex.rangeOf(def.fullStart, def.fullEnd) : zero,
          targetSelectionRange: targetIndex ? targetIndex.rangeOf(def.start, def.end) : zero,
        },
      ];
    }),
  );

  connection.onCompletion(
    guarded(connection, 'completion', [] as CompletionItem[], (params) => {
      const h = harnDoc(params.textDocument.uri);
      if (!h) return [];
      const offset = h.analysis.lineIndex.offsetAt(params.position);
      const extra = extensions.completion?.(h.analysis, offset);
      if (extra) return extra;
      return completionsAt(h.analysis, h.file, offset, workspace, workspaceRoot()).map((c) => {
        const item: CompletionItem = { label: c.label, kind: COMPLETION_KINDS[c.kind], sortText: c.sortText };
        if (c.detail) item.detail = c.detail;
        if (c.documentation) item.documentation = { kind: MarkupKind.Markdown, value: c.documentation };
        return item;
      });
    }),
  );
}
