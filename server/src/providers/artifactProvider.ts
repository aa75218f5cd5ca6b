// Run artifacts in the editor: diagnostics per row (re-validating only the lines an edit touched), a
// hover that explains a row, the outline, run-record integrity, and validation of files on disk that
// VS Code never syncs (over 50 MB), whose rows still answer hovers through a byte-offset line index.

import * as fs from 'node:fs';
import { CancellationToken, Diagnostic, DocumentSymbol, Hover, MarkupKind, Position, SymbolKind, TextDocuments } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { rowHover } from '../artifacts/hover';
import { LineByteIndex, readLineAt } from '../artifacts/jsonl';
import { artifactOutline, capOutline, OutlineNode, OutlineRow } from '../artifacts/outline';
import { rowNumberAt, toolPartners } from '../artifacts/rows';
import { nodeRunRecordFs, TranscriptFactsCache, verifyRunRecord } from '../artifacts/runRecord';
import { ArtifactKind, ArtifactProblem } from '../artifacts/types';
import { JsonlKind, LineResult, parseRow, RowSummary, validateArtifact, validateArtifactFile } from '../artifacts/validate';
import { BoundaryInfo } from '../boundaries/registry';
import { diagnosticTotal } from '../diagnosticCap';
import { artifactProblemDiagnostic } from '../diagnostics';
import { DiagnosticsStore } from '../features/diagnosticsStore';
import { forEachChunked } from '../features/handler';
import { DocumentRequest, DomainProvider, OpenDocumentRequest } from '../features/provider';
import { ARTIFACT_KINDS, DocumentKind } from '../features/router';
import { pathToUri, uriToPath } from '../workspace/harnWorkspace';
import { omittedSymbolsNote, toLspDiagnostic } from './convert';

/** What the registry says of a boundary, for boundary_failure rows. */
export type RegistryLookup = (id: string) => BoundaryInfo | undefined;

export function artifactDiagnostic(p: ArtifactProblem): Diagnostic {
  return toLspDiagnostic(artifactProblemDiagnostic(p));
}

/** The last validation of one artifact, kept for hovers and the outline. */
interface Validated {
  kind: JsonlKind;
  summaries: RowSummary[];
  /** Open document: its version and the line cache for the next edit. */
  version?: number;
  lineCache?: Map<string, LineResult>;
  /** File validated from disk: where each line starts. */
  lineIndex?: LineByteIndex;
  partner?: ReturnType<typeof toolPartners>;
}

export class ArtifactProvider implements DomainProvider {
  readonly name = 'artifacts';
  readonly kinds: ReadonlySet<DocumentKind> = ARTIFACT_KINDS;
  private readonly validated = new Map<string, Validated>();
  private readonly factsCache: TranscriptFactsCache = new Map();

  constructor(
    private readonly documents: TextDocuments<TextDocument>,
    private readonly store: DiagnosticsStore,
    private readonly registry: RegistryLookup,
    /** Open documents to check again (run records whose transcript changed on disk). */
    private readonly revalidate: (select: (doc: TextDocument, kind: DocumentKind) => boolean) => void,
  ) {}

  private registryTitle = (id: string): string | undefined => this.registry(id)?.title;

  /** The diagnostics of an open artifact; its rows are kept for hovers and the outline. */
  diagnostics(doc: TextDocument, kind: DocumentKind): Diagnostic[] | undefined {
    if (!isArtifactKind(kind)) return undefined;
    return this.validateDocument(doc, kind).map(artifactDiagnostic);
  }

  private validateDocument(doc: TextDocument, kind: ArtifactKind): ArtifactProblem[] {
    const file = uriToPath(doc.uri);
    const text = doc.getText();
    if (kind === 'runRecord') {
      this.validated.delete(doc.uri);
      return verifyRunRecord(file, text, nodeRunRecordFs, { cache: this.factsCache });
    }
    const previous = this.validated.get(doc.uri);
    const result = validateArtifact(kind, text, {
      fileName: file,
      registryTitle: this.registryTitle,
      lineCache: previous?.kind === kind ? previous.lineCache : undefined,
    });
    this.validated.set(doc.uri, { kind, summaries: result.summaries, version: doc.version, lineCache: result.lineCache });
    return result.problems;
  }

  /** A file validated from disk keeps its diagnostics (they describe the file); an open document's go with it. */
  keepsDiagnosticsOnClose(uri: string): boolean {
    const v = this.validated.get(uri);
    return v !== undefined && v.version === undefined;
  }

  documentClosed(uri: string): void {
    if (this.validated.get(uri)?.version !== undefined) this.validated.delete(uri);
  }

  /**
   * Validates a file from disk, streaming (for files the editor does not sync). A document the editor has open
   * is validated from its text instead: its diagnostics, hovers and outline then describe what the editor shows.
   */
  validateFile(file: string, kind: ArtifactKind, token: CancellationToken): { kind: ArtifactKind | undefined; problems: number; lines: number } {
    const uri = pathToUri(file);
    const doc = this.documents.get(uri);
    if (doc) {
      const problems = this.validateDocument(doc, kind);
      this.store.set(uri, this.name, problems.map(artifactDiagnostic), doc.version);
      return { kind, problems: diagnosticTotal(problems), lines: doc.lineCount };
    }
    if (kind === 'runRecord') {
      let text: string;
      try {
        text = fs.readFileSync(file, 'utf8');
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        const unreadable: ArtifactProblem = {
          line: 0,
          startCharacter: 0,
          endLine: 0,
          endCharacter: 0,
          code: 'unreadable_file',
          severity: 'error',
          message: `Cannot read ${file}: ${reason}`,
        };
        this.store.set(uri, this.name, [artifactDiagnostic(unreadable)]);
        return { kind, problems: 1, lines: 0 };
      }
      const problems = verifyRunRecord(file, text, nodeRunRecordFs, { cache: this.factsCache });
      this.store.set(uri, this.name, problems.map(artifactDiagnostic));
      return { kind, problems: problems.length, lines: text.split(/\r\n|\r|\n/).length };
    }
    const result = validateArtifactFile(kind, file, { fileName: file, registryTitle: this.registryTitle });
    if (token.isCancellationRequested) return { kind, problems: 0, lines: 0 };
    this.validated.set(uri, { kind, summaries: result.summaries, lineIndex: result.lineIndex });
    this.store.set(uri, this.name, result.problems.map(artifactDiagnostic));
    // Every problem found, those the cap left out included (its note counts them).
    return { kind, problems: diagnosticTotal(result.problems), lines: result.summaries.length };
  }

  /** A transcript changed on disk: open run records pointing at it are verified again. */
  filesChanged(changes: { uri: string }[]): void {
    if (changes.some((c) => c.uri.endsWith('.jsonl'))) this.revalidate((_doc, kind) => kind === 'runRecord');
  }

  /** One line's text: from the open document, or read back from disk through the line index. */
  private lineText(uri: string, line: number): string | undefined {
    const doc = this.documents.get(uri);
    if (doc) {
      if (line >= doc.lineCount) return undefined;
      return doc.getText({ start: { line, character: 0 }, end: { line: line + 1, character: 0 } }).replace(/\r?\n$|\r$/, '');
    }
    const v = this.validated.get(uri);
    return v?.lineIndex ? readLineAt(uriToPath(uri), v.lineIndex, line) : undefined;
  }

  hover({ uri, kind }: DocumentRequest, position: Position): Hover | undefined {
    const v = this.current(uri, kind);
    if (!v) return undefined;
    const text = this.lineText(uri, position.line);
    if (text === undefined || text.trim() === '') return undefined;
    let row: unknown;
    try {
      row = parseRow(text);
    } catch {
      return undefined; // the line's malformed_jsonl diagnostic says why
    }
    const partner = (v.partner ??= toolPartners(v.summaries));
    const markdown = rowHover(row, {
      line: position.line,
      kind: v.kind,
      rowNumber: rowNumberAt(v.summaries, position.line),
      partner: (rowKind, sessionId, callId) => {
        const line = partner(rowKind, sessionId, callId);
        return line === undefined ? undefined : { line };
      },
      lineLink: (line) => `${uri}#L${line + 1}`,
      registryEntry: (id) => this.registry(id),
    });
    if (!markdown) return undefined;
    return {
      contents: { kind: MarkupKind.Markdown, value: markdown },
      range: { start: { line: position.line, character: 0 }, end: { line: position.line, character: text.length } },
    };
  }

  /**
   * The validation of an open document at its current version. Requests (outline, hover) can arrive before
   * the debounced check of a just-opened or just-edited document has run: validate it now then.
   */
  private current(uri: string, kind: DocumentKind): Validated | undefined {
    const doc = this.documents.get(uri);
    const v = this.validated.get(uri);
    if (doc && isArtifactKind(kind) && kind !== 'runRecord' && v?.version !== doc.version && (v === undefined || v.version !== undefined)) {
      this.validateDocument(doc, kind);
      return this.validated.get(uri);
    }
    return v;
  }

  /** The outline: rows are parsed in chunks, yielding to edits and cancellation on big documents. */
  async documentSymbol({ uri, kind, doc, token }: OpenDocumentRequest): Promise<DocumentSymbol[] | undefined> {
    const v = this.current(uri, kind);
    if (!v) return [];
    const rows: OutlineRow[] = [];
    const lines = doc.getText().split(/\r\n|\r|\n/);
    const finished = await forEachChunked(lines, token, (text, line) => {
      if (v.summaries[line]?.shape !== 'row') return;
      try {
        rows.push({ line, row: parseRow(text) });
      } catch {
        // summarised as a row, so it parses; keep going either way
      }
    });
    if (!finished) return [];
    const lengthOf = (line: number): number => lines[line]?.length ?? 0;
    const convert = (node: OutlineNode): DocumentSymbol => ({
      name: node.name,
      detail: node.detail,
      kind: OUTLINE_KINDS[node.kind],
      range: { start: { line: node.line, character: 0 }, end: { line: node.endLine, character: lengthOf(node.endLine) } },
      selectionRange: { start: { line: node.line, character: 0 }, end: { line: node.line, character: lengthOf(node.line) } },
      children: node.children.map(convert),
    });
    // At most MAX_OUTLINE_SYMBOLS symbols, then one saying how many more there are (outlineCap.ts).
    const { nodes, omitted, firstOmitted } = capOutline(artifactOutline(rows, v.kind));
    const symbols = nodes.map(convert);
    if (omitted > 0) symbols.push(omittedSymbolsNote(omitted, { line: firstOmitted ?? 0, character: 0 }));
    return symbols;
  }

}

const OUTLINE_KINDS: Record<OutlineNode['kind'], SymbolKind> = {
  session: SymbolKind.Namespace,
  iteration: SymbolKind.Number,
  call: SymbolKind.Function,
  message: SymbolKind.String,
  tool: SymbolKind.Method,
  event: SymbolKind.Event,
  terminal: SymbolKind.Key,
};

export function isArtifactKind(kind: DocumentKind | undefined): kind is ArtifactKind {
  return kind !== undefined && ARTIFACT_KINDS.has(kind);
}
