// Training example files in the editor (training/validate.ts, hover.ts): their schema and pairing problems as
// diagnostics (source harn.training), live and from disk for the workspace check, a hover on a message (its
// pairing) or on the provenance block, and an outline of the messages.

import { Diagnostic, DocumentSymbol, Hover, MarkupKind, Position, SymbolKind, TextDocuments } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { DiskFile, DocumentRequest, DomainProvider, OpenDocumentRequest } from '../features/provider';
import { DocumentKind } from '../features/router';
import { artifactProblemDiagnostic } from '../diagnostics';
import { SymbolBudget } from '../outlineCap';
import { trainingFormatOf } from '../training/classify';
import { trainingFileDiagnostics } from '../training/diagnostics';
import { trainingHover } from '../training/hover';
import { TrainingValidation, validateTrainingFile } from '../training/validate';
import { FolderConfig, FolderSettings } from '../workspace/folders';
import { uriToPath } from '../workspace/harnWorkspace';
import { MAX_SCAN_BYTES } from '../workspace/scanPlan';
import { WorkbenchSettings } from '../workspace/settings';
import { omittedSymbolsNote, toLspDiagnostic } from './convert';
import { DocumentCache } from './documentCache';

const KINDS: ReadonlySet<DocumentKind> = new Set<DocumentKind>(['trainingExample']);

export class TrainingExampleProvider implements DomainProvider {
  readonly name = 'training';
  readonly kinds = KINDS;
  private readonly folderSettings = new FolderSettings();
  /** The validation of the open document, else of the file on disk (up to the scan's bound). */
  private readonly cache: DocumentCache<TrainingValidation>;

  constructor(private readonly documents: TextDocuments<TextDocument>) {
    this.cache = new DocumentCache(documents, (uri, text) => this.validate(uri, text), MAX_SCAN_BYTES);
  }

  configure(folders: readonly FolderConfig[], outside: WorkbenchSettings): void {
    this.folderSettings.configure(folders, outside);
    this.cache.clear();
  }

  private validate(uri: string, text: string): TrainingValidation {
    const maxLineBytes = this.folderSettings.of(uriToPath(uri)).artifacts.maxLineBytes;
    return validateTrainingFile(text, trainingFormatOf(uriToPath(uri)), { maxLineBytes });
  }

  diagnostics(doc: TextDocument, kind: DocumentKind): Diagnostic[] | undefined {
    if (kind !== 'trainingExample') return undefined;
    return this.cache.get(doc.uri)?.problems.map((p) => toLspDiagnostic(artifactProblemDiagnostic(p)));
  }

  async diskDiagnostics(file: DiskFile, kind: DocumentKind): Promise<Diagnostic[] | undefined> {
    if (kind !== 'trainingExample') return undefined;
    const doc = await file.document();
    if (!doc || file.token.isCancellationRequested) return undefined;
    const maxLineBytes = this.folderSettings.of(file.path).artifacts.maxLineBytes;
    const invalid = await file.invalidUtf8();
    return trainingFileDiagnostics(doc.getText(), trainingFormatOf(file.path), invalid, { maxLineBytes }).map(toLspDiagnostic);
  }

  keepsDiagnosticsOnClose(): boolean {
    return false;
  }

  documentClosed(uri: string): void {
    this.cache.delete(uri);
  }

  filesChanged(changes: { uri: string }[]): void {
    for (const { uri } of changes) if (!this.documents.get(uri)) this.cache.delete(uri);
  }

  hover({ uri, kind }: DocumentRequest, position: Position): Hover | undefined {
    if (kind !== 'trainingExample') return undefined;
    const validation = this.cache.get(uri);
    const found = validation && trainingHover(validation, position);
    if (!found) return undefined;
    const s = found.span;
    return {
      contents: { kind: MarkupKind.Markdown, value: found.markdown },
      range: { start: { line: s.line, character: s.startCharacter }, end: { line: s.endLine, character: s.endCharacter } },
    };
  }

  /** One symbol per example (a JSONL file's lines), each with its messages, at most MAX_OUTLINE_SYMBOLS in all. */
  documentSymbol({ uri, kind }: OpenDocumentRequest): DocumentSymbol[] | undefined {
    if (kind !== 'trainingExample') return undefined;
    const validation = this.cache.get(uri);
    if (!validation) return [];
    const budget = new SymbolBudget();
    const rangeOf = (s: { line: number; startCharacter: number; endLine: number; endCharacter: number }): DocumentSymbol['range'] => ({
      start: { line: s.line, character: s.startCharacter },
      end: { line: s.endLine, character: s.endCharacter },
    });
    const symbols: DocumentSymbol[] = [];
    let firstOmitted: Position | undefined;
    const take = (range: DocumentSymbol['range']): boolean => {
      if (budget.take(0)) return true;
      firstOmitted ??= range.start;
      return false;
    };
    for (const [i, example] of validation.examples.entries()) {
      const range = rangeOf(example.span);
      if (!take(range)) continue;
      const children: DocumentSymbol[] = [];
      for (const m of example.messages) {
        const r = rangeOf(m.span);
        if (!take(r)) continue;
        const detail = m.answer?.callId ?? (m.calls.length > 0 ? m.calls.map((c) => c.name).join(', ') : '');
        children.push({ name: `${m.index} ${m.role ?? '(no role)'}`, detail, kind: SymbolKind.String, range: r, selectionRange: r, children: [] });
      }
      const name = validation.examples.length === 1 ? 'training example' : `training example ${i + 1}`;
      symbols.push({ name, detail: `${example.messages.length} messages`, kind: SymbolKind.Object, range, selectionRange: range, children });
    }
    if (budget.omitted > 0) symbols.push(omittedSymbolsNote(budget.omitted, firstOmitted ?? { line: 0, character: 0 }));
    return symbols;
  }
}
