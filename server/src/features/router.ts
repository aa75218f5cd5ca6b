// The one place that decides what a document is. Every adaptor asks the router for a document's kind
// and then only the providers of that kind; a new domain adds its kind here and nowhere else.

import * as path from 'node:path';
import { artifactByGlobs, classifyArtifact } from '../artifacts/classify';
import { isRunControlLog } from '../runControl/classify';
import { trainingFileFormat } from '../training/classify';
import { readFirstLines } from '../artifacts/jsonl';
import { FolderConfig, folderOf } from '../workspace/folders';
import { uriToPath } from '../workspace/harnWorkspace';
import { readSettings, WorkbenchSettings } from '../workspace/settings';

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
  /** An a3s run-control log (runControl/): requests, receipts, snapshots, hook and applied events. */
  | 'runControlLog'
  /** A `harn.agent_training_example.v1` file (training/): `*.training.json`, `*.training.jsonl`, or JSON declaring it. */
  | 'trainingExample'
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
  private folders: readonly FolderConfig[] = [];
  private outside: WorkbenchSettings = readSettings(undefined).settings;

  /** Each file is judged by the settings of its own folder (the innermost one holding it), else the window's. */
  configure(folders: readonly FolderConfig[], outside: WorkbenchSettings): void {
    this.folders = folders;
    this.outside = outside;
  }

  /** The kind of a document: from its open text when the editor syncs it, else from the file on disk. */
  kindOf(uri: string, open: RoutedText | undefined): DocumentKind | undefined {
    const file = uriToPath(uri);
    if (open?.languageId === 'harn' || /\.harn$/i.test(file)) return 'harn';
    if (/\.rs$/.test(file)) return 'rust';
    if (/\.toml$/i.test(file)) return this.isRegistry(file) ? 'registry' : undefined;
    if (!/\.(jsonl?|ndjson)$/i.test(file)) return undefined;
    const head = open ? () => headLines(open.getText()) : () => readFirstLines(file, 5);
    // Training examples before the artifacts' globs: a `run.training.json` is no run record.
    if (trainingFileFormat(file, head)) return 'trainingExample';
    const folder = folderOf(file, this.folders);
    const settings = folder?.settings ?? this.outside;
    // The artifacts' own globs first (an llm_transcript*.jsonl is a transcript whatever its rows), then run control's.
    const byGlobs = artifactByGlobs(file, folder?.root, settings.artifacts);
    if (byGlobs) return byGlobs;
    if (isRunControlLog(file, folder?.root, settings.runControl, head)) return 'runControlLog';
    return classifyArtifact(file, folder?.root, settings.artifacts, head);
  }

  /** A registry is one folder's: only a folder has one (its path is relative to the folder). */
  private isRegistry(file: string): boolean {
    const folder = folderOf(file, this.folders);
    if (!folder) return false;
    const relative = path.relative(folder.root, file).split(path.sep).join('/');
    return relative === folder.settings.boundaries.registryPath;
  }
}
