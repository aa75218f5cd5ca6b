// Run artifacts in the editor: diagnostics per row (re-validating only the lines an edit touched), a
// hover that explains a row, the outline, run-record integrity, and validation of files on disk that
// VS Code never syncs (over 50 MB), whose rows still answer hovers through a byte-offset line index.

import * as fs from 'node:fs';
import { Diagnostic, DocumentSymbol, Hover, MarkupKind, Position, SymbolKind, TextDocuments } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { rowHover } from '../artifacts/hover';
import { LineByteIndex, readFirstLines, readLineAt } from '../artifacts/jsonl';
import { artifactOutline, OutlineNode, OutlineRow } from '../artifacts/outline';
import { nodeRunRecordFs, TranscriptFactsCache, verifyRunRecord } from '../artifacts/runRecord';
import { ArtifactSettings, classifyArtifact, DEFAULT_ARTIFACT_SETTINGS } from '../artifacts/classify';
import { ArtifactKind, ArtifactProblem } from '../artifacts/types';
import { JsonlKind, LineResult, parseRow, RowSummary, validateArtifact, validateArtifactFile } from '../artifacts/validate';
import { pathToUri, uriToPath } from '../workspace/harnWorkspace';
import { artifactProblemDiagnostic } from '../diagnostics';
import { DiagnosticsStore } from './diagnosticsStore';
import { toLspDiagnostic } from './harnFeatures';

/** What the registry says of a boundary, for boundary_failure rows. */
export type RegistryLookup = (id: string) => { title?: string; drops?: string } | undefined;

export function artifactDiagnostic(p: ArtifactProblem): Diagnostic {
  return toLspDiagnostic(artifactProblemDiagnostic(p));
}

/** The first lines of a document's text, for classifyArtifact (the globs usually decide without them). */
function headLines(text: string): string[] {
  return text.slice(0, 64 * 1024).split(/\r?\n/).slice(0, 5);
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
  partners?: Map<string, number>;
}

export class ArtifactService {
  private settings: ArtifactSettings = DEFAULT_ARTIFACT_SETTINGS;
  private root: string | undefined;
  private readonly validated = new Map<string, Validated>();
  /** Open documents last verified as run records: their diagnostics go when they close. */
  private readonly openRunRecords = new Set<string>();
  private readonly factsCache: TranscriptFactsCache = new Map();

  constructor(
    private readonly documents: TextDocuments<TextDocument>,
    private readonly store: DiagnosticsStore,
    private readonly registry: RegistryLookup,
  ) {}

  configure(root: string | undefined, settings: ArtifactSettings): void {
    this.root = root;
    this.settings = settings;
    for (const doc of this.documents.all()) this.validateDocument(doc);
  }

  /** Which artifact a file is (see classifyArtifact). */
  kindOf(file: string, head: () => string[]): ArtifactKind | undefined {
    return classifyArtifact(file, this.root, this.settings, head);
  }

  private registryTitle = (id: string): string | undefined => this.registry(id)?.title;

  /** Validates an open document and publishes its diagnostics (nothing for other documents). */
  validateDocument(doc: TextDocument): void {
    const file = uriToPath(doc.uri);
    const text = doc.getText();
    const kind = this.kindOf(file, () => headLines(text));
    if (kind === undefined) {
      // No longer an artifact (a `.json` whose `_type` was edited away, or other settings): forget what it was.
      const wasRunRecord = this.openRunRecords.delete(doc.uri);
      const hadRows = this.validated.delete(doc.uri);
      if (wasRunRecord || hadRows) this.store.clear(doc.uri, 'artifacts');
      return;
    }
    if (kind === 'runRecord') {
      const problems = verifyRunRecord(file, text, nodeRunRecordFs, { cache: this.factsCache });
      this.validated.delete(doc.uri);
      this.openRunRecords.add(doc.uri);
      this.store.set(doc.uri, 'artifacts', problems.map(artifactDiagnostic), doc.version);
      return;
    }
    this.openRunRecords.delete(doc.uri);
    const previous = this.validated.get(doc.uri);
    const result = validateArtifact(kind, text, {
      fileName: file,
      registryTitle: this.registryTitle,
      lineCache: previous?.kind === kind ? previous.lineCache : undefined,
    });
    this.validated.set(doc.uri, { kind, summaries: result.summaries, version: doc.version, lineCache: result.lineCache });
    this.store.set(doc.uri, 'artifacts', result.problems.map(artifactDiagnostic), doc.version);
  }

  closed(uri: string): void {
    // A file validated from disk keeps its line index (its diagnostics describe the file).
    if (this.validated.get(uri)?.version !== undefined) {
      this.validated.delete(uri);
      this.store.clear(uri, 'artifacts');
    }
    // A run record verified from its open text: those diagnostics may describe unsaved edits.
    if (this.openRunRecords.delete(uri)) this.store.clear(uri, 'artifacts');
  }

  /**
   * Validates a file from disk, streaming (for files the editor does not sync). A document the editor has open
   * is validated from its text instead: its diagnostics, hovers and outline then describe what the editor shows.
   */
  validateFile(file: string): { kind: ArtifactKind | undefined; problems: number; lines: number } {
    const uri = pathToUri(file);
    const doc = this.documents.get(uri);
    if (doc) {
      const text = doc.getText();
      const kind = this.kindOf(file, () => headLines(text));
      if (kind === undefined) return { kind, problems: 0, lines: 0 };
      this.validateDocument(doc);
      return { kind, problems: this.store.get(uri, 'artifacts').length, lines: doc.lineCount };
    }
    const kind = this.kindOf(file, () => readFirstLines(file, 5));
    if (kind === undefined) return { kind, problems: 0, lines: 0 };
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
        this.store.set(uri, 'artifacts', [artifactDiagnostic(unreadable)]);
        return { kind, problems: 1, lines: 0 };
      }
      const problems = verifyRunRecord(file, text, nodeRunRecordFs, { cache: this.factsCache });
      this.store.set(uri, 'artifacts', problems.map(artifactDiagnostic));
      return { kind, problems: problems.length, lines: text.split(/\r\n|\r|\n/).length };
    }
    const result = validateArtifactFile(kind, file, { fileName: file, registryTitle: this.registryTitle });
    this.validated.set(uri, { kind, summaries: result.summaries, lineIndex: result.lineIndex });
    this.store.set(uri, 'artifacts', result.problems.map(artifactDiagnostic));
    return { kind, problems: result.problems.length, lines: result.summaries.length };
  }

  /** A transcript changed on disk: open run records pointing at it are verified again. */
  filesChanged(uris: string[]): void {
    if (!uris.some((u) => u.endsWith('.jsonl'))) return;
    for (const doc of this.documents.all()) {
      const file = uriToPath(doc.uri);
      if (/\.json$/i.test(file) && this.kindOf(file, () => headLines(doc.getText())) === 'runRecord') this.validateDocument(doc);
    }
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

  private partners(v: Validated): Map<string, number> {
    if (v.partners) return v.partners;
    const map = new Map<string, number>();
    v.summaries.forEach((s, line) => {
      if (s.type !== 'tool_call' && s.type !== 'tool_result') return;
      const callId = s.callId ?? s.toolCallId;
      if (callId === undefined) return;
      const key = `${s.type}\u0000${s.sessionId ?? ''}\u0000${callId}`;
      if (!map.has(key)) map.set(key, line);
    });
    return (v.partners = map);
  }

  hover(uri: string, position: Position): Hover | undefined {
    const v = this.current(uri);
    if (!v) return undefined;
    const text = this.lineText(uri, position.line);
    if (text === undefined || text.trim() === '') return undefined;
    let row: unknown;
    try {
      row = parseRow(text);
    } catch {
      return undefined; // the line's malformed_jsonl diagnostic says why
    }
    const partners = this.partners(v);
    let rowNumber = 0;
    for (let i = 0; i <= position.line && i < v.summaries.length; i++) if (v.summaries[i].shape !== 'blank') rowNumber++;
    const markdown = rowHover(row, {
      line: position.line,
      kind: v.kind,
      rowNumber,
      partner: (kind, sessionId, callId) => {
        const line = partners.get(`${kind}\u0000${sessionId}\u0000${callId}`);
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
  private current(uri: string): Validated | undefined {
    const doc = this.documents.get(uri);
    const v = this.validated.get(uri);
    if (doc && v?.version !== doc.version && (v === undefined || v.version !== undefined)) {
      this.validateDocument(doc);
      return this.validated.get(uri);
    }
    return v;
  }

  symbols(uri: string): DocumentSymbol[] {
    const v = this.current(uri);
    const doc = this.documents.get(uri);
    if (!v || !doc) return [];
    const rows: OutlineRow[] = [];
    const lines = doc.getText().split(/\r\n|\r|\n/);
    lines.forEach((text, line) => {
      if (v.summaries[line]?.shape !== 'row') return;
      try {
        rows.push({ line, row: parseRow(text) });
      } catch {
        // summarised as a row, so it parses; keep going either way
      }
    });
    const lengthOf = (line: number): number => lines[line]?.length ?? 0;
    const convert = (node: OutlineNode): DocumentSymbol => ({
      name: node.name,
      detail: node.detail,
      kind: OUTLINE_KINDS[node.kind],
      range: { start: { line: node.line, character: 0 }, end: { line: node.endLine, character: lengthOf(node.endLine) } },
      selectionRange: { start: { line: node.line, character: 0 }, end: { line: node.line, character: lengthOf(node.line) } },
      children: node.children.map(convert),
    });
    return artifactOutline(rows, v.kind).map(convert);
  }

  isArtifact(uri: string): boolean {
    return this.validated.has(uri);
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
