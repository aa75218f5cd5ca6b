// Diagnostics of open documents: after a short pause following each change (opening counts as the
// first), every provider of the document's kind checks it into its own bucket; a result for an outdated
// version is dropped, and the client's status item hears what was checked and how long it took.

import * as path from 'node:path';
import { Diagnostic } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { internalErrorDiagnostic as workbenchInternalError } from '../diagnostics';
import { StatusNotification } from '../protocol';
import { toLspDiagnostic } from '../providers/convert';
import { uriToPath } from '../workspace/harnWorkspace';
import { FeatureContext } from './context';
import { DISK_BUCKET, DiagnosticsStore } from './diagnosticsStore';
import { describeError } from './handler';
import { DocumentKind } from './router';

const VALIDATE_DELAY_MS = 40;

export function internalErrorDiagnostic(what: string, error: unknown): Diagnostic {
  return toLspDiagnostic(workbenchInternalError(what, error));
}

export class DiagnosticsPipeline {
  private readonly pending = new Map<string, NodeJS.Timeout>();
  /** The buckets each open document was published in, to clear them when it closes. */
  private readonly published = new Map<string, Set<string>>();

  constructor(
    private readonly ctx: FeatureContext,
    readonly store: DiagnosticsStore,
  ) {}

  schedule(doc: TextDocument): void {
    const timer = this.pending.get(doc.uri);
    if (timer) clearTimeout(timer);
    this.pending.set(
      doc.uri,
      setTimeout(() => {
        this.pending.delete(doc.uri);
        this.validate(doc.uri, doc.version);
      }, VALIDATE_DELAY_MS),
    );
  }

  /** Checks again the open documents a condition selects (a registry or a transcript they depend on changed). */
  revalidate(select: (doc: TextDocument, kind: DocumentKind) => boolean): void {
    for (const doc of this.ctx.documents.all()) {
      const kind = this.ctx.kindOf(doc.uri);
      if (kind !== undefined && select(doc, kind)) this.schedule(doc);
    }
  }

  private validate(uri: string, version: number): void {
    const doc = this.ctx.documents.get(uri);
    if (!doc || doc.version !== version) return;
    const started = performance.now();
    const kind = this.ctx.kindOf(uri);
    const buckets = this.published.get(uri) ?? new Set<string>();
    this.published.set(uri, buckets);
    // No longer a kind a provider owns (a `.json` whose `_type` was edited away, other settings): clear what it had.
    const providers = kind === undefined ? [] : this.ctx.providersFor(kind);
    for (const bucket of buckets) {
      if (!providers.some((p) => p.name === bucket && p.diagnostics !== undefined)) {
        this.store.clear(uri, bucket);
        buckets.delete(bucket);
      }
    }
    if (kind === undefined) return;
    const next = new Map<string, Diagnostic[]>();
    for (const provider of providers) {
      if (!provider.diagnostics) continue;
      try {
        const diagnostics = provider.diagnostics(doc, kind);
        if (diagnostics !== undefined) next.set(provider.name, diagnostics);
      } catch (error) {
        // Said on the file itself, so a failure is never a silent "no problems"; the other buckets still publish.
        this.ctx.error(`${provider.name}: checking ${uri} failed: ${describeError(error)}`);
        next.set(provider.name, [internalErrorDiagnostic(provider.name, error)]);
      }
    }
    if (this.ctx.documents.get(uri)?.version !== version) return;
    for (const bucket of next.keys()) buckets.add(bucket);
    this.store.markLive(uri);
    this.store.setBuckets(uri, next, version);
    const file = uriToPath(uri);
    const root = this.ctx.rootOf(file);
    void this.ctx.connection.sendNotification(StatusNotification, {
      state: 'ready',
      lastChecked: root ? path.relative(root, file) : path.basename(file),
      lastCheckMs: Math.round((performance.now() - started) * 10) / 10,
    });
  }

  /** A closed document's live diagnostics go; those describing the file on disk stay. */
  closed(uri: string): void {
    const timer = this.pending.get(uri);
    if (timer) clearTimeout(timer);
    this.pending.delete(uri);
    const buckets = this.published.get(uri);
    this.published.delete(uri);
    // What the disk said before the file was opened may be outdated by a save: the workspace check says it again.
    this.store.clear(uri, DISK_BUCKET);
    const kept = new Set([...(buckets ?? [])].filter((bucket) => this.ctx.providers.find((p) => p.name === bucket)?.keepsDiagnosticsOnClose?.(uri)));
    this.store.markClosed(uri, kept);
    if (!buckets) return;
    for (const bucket of buckets) if (!kept.has(bucket)) this.store.clear(uri, bucket);
  }
}
