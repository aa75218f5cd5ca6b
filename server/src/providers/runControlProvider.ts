// Run-control logs in the editor (runControl/): the replay's findings as diagnostics (source harn.runControl), live
// and from disk, a hover on a row (what it is, its control's state, the rule it breaks), the code actions, and
// the data of the Run Controls tree and of composing (features/runControlTree.ts, runControlCompose.ts).

import * as path from 'node:path';
import {
  CodeAction,
  CodeActionKind,
  CodeActionParams,
  Diagnostic,
  DiagnosticSeverity,
  Hover,
  MarkupKind,
  Position,
  TextDocuments,
} from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { randomUUID } from 'node:crypto';
import { DiskFile, DocumentRequest, DomainProvider } from '../features/provider';
import { DocumentKind } from '../features/router';
import type { RunControlCommandInput, RunControlComposeResult, RunControlNode, RunControlTreeResult } from '../protocol';
import { composeRequest, retryRequest } from '../runControl/compose';
import { removeField, withExpectedTurn, withRequestId, withSchema, withTrimmedReason } from '../runControl/fixes';
import { LocatedFinding, readRunControlLog, RunControlLogView } from '../runControl/logView';
import { parseRow } from '../runControl/rows';
import { code, plain } from '../text/markdown';
import { readFileTextSync } from '../workspace/files';
import { FolderConfig, FolderSettings } from '../workspace/folders';
import { pathToUri, uriToPath } from '../workspace/harnWorkspace';
import { appendInboxLine } from '../workspace/inboxAppend';
import { WorkbenchSettings } from '../workspace/settings';
import { DocumentCache } from './documentCache';

export const RUN_CONTROL_SOURCE = 'harn.runControl';
const KINDS: ReadonlySet<DocumentKind> = new Set<DocumentKind>(['runControlLog']);
/** Logs read from disk for the tree and compose (closed documents); the workspace check reads at most 50 MB too. */
const MAX_LOG_BYTES = 50 * 1024 * 1024;

const SEVERITY = { error: DiagnosticSeverity.Error, warning: DiagnosticSeverity.Warning, information: DiagnosticSeverity.Information } as const;

function toDiagnostic(f: LocatedFinding): Diagnostic {
  const d: Diagnostic = { range: f.range, severity: SEVERITY[f.severity], source: RUN_CONTROL_SOURCE, code: f.code, message: f.message };
  if (f.data) d.data = f.data;
  return d;
}

export class RunControlProvider implements DomainProvider {
  readonly name = 'runControl';
  readonly kinds = KINDS;
  private readonly folderSettings = new FolderSettings();
  private readonly views: DocumentCache<RunControlLogView>;

  constructor(
    private readonly documents: TextDocuments<TextDocument>,
    private readonly roots: () => readonly string[],
    private readonly treeChanged: (uri: string) => void,
    private readonly newRequestId: () => string = randomUUID,
    private readonly now: () => number = Date.now,
  ) {
    this.views = new DocumentCache(documents, (_uri, text) => readRunControlLog(text), MAX_LOG_BYTES);
  }

  configure(folders: readonly FolderConfig[], outside: WorkbenchSettings): void {
    this.folderSettings.configure(folders, outside);
  }

  private settings(uri: string): WorkbenchSettings['runControl'] {
    return this.folderSettings.of(uriToPath(uri)).runControl;
  }

  /** The inbox beside a log (harn.runControl.inbox, relative to the log's folder). */
  inboxOf(uri: string): string {
    return path.resolve(path.dirname(uriToPath(uri)), this.settings(uri).inbox);
  }

  private inboxText(uri: string): string | undefined {
    const read = readFileTextSync(this.inboxOf(uri), { noFollow: true, maxBytes: MAX_LOG_BYTES });
    return read.ok ? read.text : undefined;
  }

  /** The log's view: of the open document (cached per version), else of the file on disk. */
  view(uri: string): RunControlLogView | undefined {
    return this.views.get(uri);
  }

  diagnostics(doc: TextDocument, kind: DocumentKind): Diagnostic[] | undefined {
    if (kind !== 'runControlLog') return undefined;
    return this.view(doc.uri)?.findings.map(toDiagnostic);
  }

  async diskDiagnostics(file: DiskFile, kind: DocumentKind): Promise<Diagnostic[] | undefined> {
    if (kind !== 'runControlLog') return undefined;
    const doc = await file.document();
    if (!doc || file.token.isCancellationRequested) return undefined;
    return readRunControlLog(doc.getText()).findings.map(toDiagnostic);
  }

  keepsDiagnosticsOnClose(): boolean {
    return false;
  }

  documentChanged(uri: string): void {
    this.treeChanged(uri);
  }

  documentOpened(uri: string): void {
    this.treeChanged(uri);
  }

  documentClosed(uri: string): void {
    this.views.delete(uri);
    this.treeChanged(uri);
  }

  /** A log or an inbox changed on disk: the trees showing it are out of date. */
  filesChanged(changes: { uri: string }[]): void {
    const notified = new Set<string>();
    for (const { uri } of changes) {
      if (!/\.(jsonl|ndjson)$/i.test(uri)) continue;
      if (!this.documents.get(uri)) this.views.delete(uri);
      notified.add(uri);
      // An inbox changed: the logs beside it whose inbox it is.
      for (const logUri of this.views.uris()) if (pathToUri(this.inboxOf(logUri)) === uri) notified.add(logUri);
    }
    for (const uri of notified) this.treeChanged(uri);
  }

  tree(uri: string, kind: DocumentKind | undefined): RunControlTreeResult {
    if (kind !== 'runControlLog') return null;
    const text = this.documents.get(uri)?.getText() ?? readFileTextSync(uriToPath(uri), { maxBytes: MAX_LOG_BYTES });
    const logText = typeof text === 'string' ? text : text.ok ? text.text : undefined;
    if (logText === undefined) return { uri, sessions: [] };
    return { uri, sessions: readRunControlLog(logText, this.inboxText(uri)).sessions };
  }

  /** Builds (and for `inbox`, appends) a request for a run of the log; see RunControlComposeParams. */
  compose(
    uri: string,
    kind: DocumentKind | undefined,
    runId: string,
    command: RunControlCommandInput,
    deliver: 'check' | 'inbox' | 'clipboard',
    retryOf: string | undefined,
  ): RunControlComposeResult {
    if (kind !== 'runControlLog') return { ok: false, code: 'NOT_A_LOG', message: `${uriToPath(uri)} is not a run-control log.` };
    const view = this.view(uri);
    if (!view) return { ok: false, code: 'UNREADABLE', message: `${uriToPath(uri)} cannot be read.` };
    const result =
      retryOf === undefined
        ? composeRequest(view, runId, command, this.newRequestId(), this.now())
        : retryRequest(view, retryOf, (this.inboxText(uri) ?? '').split(/\r\n|\r|\n/));
    if (!result.ok || deliver !== 'inbox') return result;
    const inbox = this.inboxOf(uri);
    const appended = appendInboxLine(inbox, result.line, this.roots());
    if (!appended.ok) return { ok: false, code: 'INBOX_REFUSED', message: appended.message };
    this.treeChanged(uri);
    const root = this.roots().find((r) => !path.relative(r, inbox).startsWith('..'));
    return { ...result, inbox: root ? path.relative(root, inbox).split(path.sep).join('/') : inbox };
  }

  hover({ uri, kind }: DocumentRequest, position: Position): Hover | undefined {
    if (kind !== 'runControlLog') return undefined;
    const view = this.view(uri);
    const text = view?.rowText(position.line);
    if (!view || text === undefined || text.trim() === '') return undefined;
    const row = parseRow(text, []);
    const lines: string[] = [];
    const control = (requestId: string): RunControlNode | undefined => {
      for (const s of view.sessions) for (const r of s.runs) for (const c of r.controls) if (c.requestId === requestId) return c;
      return undefined;
    };
    const state = (requestId: string): string => {
      const c = control(requestId);
      return c ? `Its control is now **${plain(c.state)}** (${c.receipts.length} receipt${c.receipts.length === 1 ? '' : 's'}).` : '';
    };
    switch (row.kind) {
      case 'request':
      case 'preHook': {
        const r = row.request;
        lines.push(
          `**Run-control ${row.kind === 'request' ? 'request' : 'pre_run_control hook event'}**: ${plain(r.command.kind)} ${code(r.request_id)} for run ${code(r.run_id)}.`,
          r.expected_turn_id !== undefined || r.expected_turn_revision !== undefined
            ? `Guarded by turn ${code(r.expected_turn_id ?? '(any)')} revision ${r.expected_turn_revision ?? '(any)'}: refused STALE_TURN if the run moved on.`
            : 'No turn guard: it applies at whatever turn the run is in.',
          state(r.request_id),
        );
        break;
      }
      case 'receipt':
      case 'postHook': {
        const r = row.receipt;
        const meaning = {
          accepted: 'validated and waiting for the run’s next safe point',
          applied: 'the loop consumed it',
          rejected: 'refused before it entered the inbox (sequence 0)',
          settled: 'the run ended before it was applied (RUN_ENDED)',
        }[r.state];
        lines.push(
          `**Run-control receipt**: ${plain(r.operation)} ${code(r.request_id)} **${r.state}**: ${meaning}.`,
          `Sequence ${r.sequence}, turn ${code(r.turn_id ?? 'null')} revision ${r.turn_revision}.`,
          r.error ? `Error ${code(r.error.code)}: ${plain(r.error.message)}` : '',
          state(r.request_id),
        );
        break;
      }
      case 'snapshot': {
        const s = row.snapshot;
        lines.push(
          `**Run-control snapshot** of run ${code(s.run_id)}: ${s.active ? 'active' : 'closed'}, turn ${code(s.turn_id ?? 'null')} revision ${s.turn_revision}.`,
          `${s.queued_controls} queued, interrupt requested: ${s.interrupt_requested ? 'yes' : 'no'}, last sequence ${s.last_sequence}. Requests composed now are bound to the latest snapshot.`,
        );
        break;
      }
      case 'applied':
        lines.push(`**run_control_applied event**: ${plain(row.operation)} ${code(row.requestId)} reached the loop.`);
        break;
      default:
        lines.push('**Not a run-control row.**');
    }
    for (const f of view.findings) if (f.line === position.line) lines.push(`${code(f.code)}: ${plain(f.message)}`);
    return {
      contents: { kind: MarkupKind.Markdown, value: lines.filter((l) => l !== '').join('\n\n') },
      range: view.rangeOf(position.line),
    };
  }

  codeAction(request: DocumentRequest, params: CodeActionParams): CodeAction[] {
    if (request.kind !== 'runControlLog') return [];
    const view = this.view(request.uri);
    if (!view) return [];
    const actions: CodeAction[] = [];
    const replaceRow = (title: string, diagnostic: Diagnostic, line: number, next: string | undefined): void => {
      if (next === undefined || view.rowText(line) === next) return;
      actions.push({
        title,
        kind: CodeActionKind.QuickFix,
        diagnostics: [diagnostic],
        edit: { changes: { [request.uri]: [{ range: view.rangeOf(line), newText: next }] } },
      });
    };
    for (const d of params.context.diagnostics) {
      if (d.source !== RUN_CONTROL_SOURCE) continue;
      const line = d.range.start.line;
      const text = view.rowText(line);
      if (text === undefined) continue;
      const data = (d.data ?? {}) as { field?: string; schema?: 'request' | 'receipt'; trimReason?: boolean; requestLine?: number; runId?: string };
      if (d.code === 'UNKNOWN_FIELD' && data.field !== undefined)
        replaceRow(`Remove the unknown field \`${data.field}\``, d, line, removeField(text, data.field));
      if (d.code === 'DUPLICATE_REQUEST') {
        const requestLine = data.requestLine ?? line;
        const requestText = view.rowText(requestLine);
        if (requestText !== undefined) replaceRow('Give this request a new request id', d, requestLine, withRequestId(requestText, this.newRequestId()));
      }
      if (d.code === 'STALE_TURN' && data.requestLine !== undefined && data.runId !== undefined) {
        const latest = view.snapshots.get(data.runId)?.snapshot;
        const requestText = view.rowText(data.requestLine);
        if (latest && requestText !== undefined)
          replaceRow(
            `Expect turn ${latest.turn_id ?? 'null'} revision ${latest.turn_revision} (the latest snapshot)`,
            d,
            data.requestLine,
            withExpectedTurn(requestText, latest.turn_id, latest.turn_revision),
          );
      }
      if (d.code === 'INVALID_REQUEST' && data.trimReason) replaceRow('Trim the reason to 4 KiB', d, line, withTrimmedReason(text));
      if ((d.code === 'INVALID_REQUEST' || d.code === 'RECEIPT_SCHEMA') && data.schema !== undefined)
        replaceRow(`Set the schema to the v1 ${data.schema} schema`, d, line, withSchema(text, data.schema));
    }
    return actions;
  }
}
