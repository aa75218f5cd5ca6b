// The one place that decides what a document is. Every adaptor asks the router for a document's kind
// and then only the providers of that kind; a new domain adds its kind here and nowhere else.

import * as path from 'node:path';
import { ArtifactSettings, classifyArtifact, DEFAULT_ARTIFACT_SETTINGS } from '../artifacts/classify';
import { readFirstLines } from '../artifacts/jsonl';
import { DEFAULT_GATE_SETTINGS, GateSettings } from '../boundaries/workspaceGate';
import { uriToPath } from '../workspace/harnWorkspace';

export type DocumentKind =
  /** A `.harn` source. */
  | 'harn'
  /** The loud-boundary registry (TOML). */
  | 'registry'
  /** A Rust source: the funnel, or a file the gate scans for `BoundaryId::X` sites. */
  | 'rust'
  | 'transcript'
  | 'eventLog'
  | 'runRecord'
  /** JSONL that is none of the known artifacts. */
  | 'jsonl';

export const ARTIFACT_KINDS: ReadonlySet<DocumentKind> = new Set(['transcript', 'eventLog', 'runRecord', 'jsonl']);

/** The text of a document the editor syncs (its first lines are read from it, not from the disk). */
export interface RoutedText {
  languageId?: string;
  getText(): string;
}

/** The first lines of a text, for classification by content (the globs usually decide without them). */
export function headLines(text: string, count = 5): string[] {
  return text
    .slice(0, 64 * 1024)
    .split(/\r\n|\r|\n/)
    .slice(0, count);
}

export class DocumentRouter {
  private root: string | undefined;
  private gate: Pick<GateSettings, 'registryPath'> = DEFAULT_GATE_SETTINGS;
  private artifacts: ArtifactSettings = DEFAULT_ARTIFACT_SETTINGS;

  configure(root: string | undefined, gate: Pick<GateSettings, 'registryPath'>, artifacts: ArtifactSettings): void {
    this.root = root;
    this.gate = gate;
    this.artifacts = artifacts;
  }

  /** The kind of a document: from its open text when the editor syncs it, else from the file on disk. */
  kindOf(uri: string, open: RoutedText | undefined): DocumentKind | undefined {
    const file = uriToPath(uri);
    if (open?.languageId === 'harn' || /\.harn$/i.test(file)) return 'harn';
    if (/\.rs$/.test(file)) return 'rust';
    if (/\.toml$/i.test(file)) return this.isRegistry(file) ? 'registry' : undefined;
    if (!/\.(jsonl?|ndjson)$/i.test(file)) return undefined;
    const head = open ? () => headLines(open.getText()) : () => readFirstLines(file, 5);
    return classifyArtifact(file, this.root, this.artifacts, head);
  }

  private isRegistry(file: string): boolean {
    if (!this.root) return false;
    const relative = path.relative(this.root, file).split(path.sep).join('/');
    return relative === this.gate.registryPath;
  }
}
