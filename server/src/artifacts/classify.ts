// Which artifact a file is: by the configured globs first (relative to the workspace root, or the base
// name), then by its first rows. Shared by the language server and the CLI.

import * as path from 'node:path';
import { minimatch } from 'minimatch';
import { isRunRecord } from './runRecord';
import { ArtifactKind } from './types';
import { detectArtifactKind } from './validate';

export interface ArtifactSettings {
  transcriptGlobs: string[];
  eventLogGlobs: string[];
  runRecordGlobs: string[];
}

export const DEFAULT_ARTIFACT_SETTINGS: ArtifactSettings = {
  transcriptGlobs: ['**/llm_transcript*.jsonl'],
  eventLogGlobs: ['**/event_log*.jsonl'],
  runRecordGlobs: ['**/run.json', '**/*.run.json'],
};

/** Whether a file matches one of the globs (relative to the workspace root, or its base name). */
export function matchesGlobs(file: string, root: string | undefined, globs: readonly string[]): boolean {
  const relative = root ? path.relative(root, file).split(path.sep).join('/') : path.basename(file);
  const candidates = relative.startsWith('..') ? [path.basename(file)] : [relative, path.basename(file)];
  return globs.some((g) => candidates.some((c) => minimatch(c, g, { dot: true, matchBase: !g.includes('/') })));
}

/**
 * The artifact kind of `file`, or undefined when it is none. `head` gives the first lines (read lazily: the
 * globs usually decide); a JSON file is a run record only if its text says `"_type": "run_record"` or its
 * name is one of the run-record globs.
 */
/** The artifact kind its name gives by the configured globs alone (they win over every content rule). */
export function artifactByGlobs(file: string, root: string | undefined, settings: ArtifactSettings): ArtifactKind | undefined {
  if (matchesGlobs(file, root, settings.transcriptGlobs)) return 'transcript';
  if (matchesGlobs(file, root, settings.eventLogGlobs)) return 'eventLog';
  if (matchesGlobs(file, root, settings.runRecordGlobs)) return 'runRecord';
  return undefined;
}

export function classifyArtifact(file: string, root: string | undefined, settings: ArtifactSettings, head: () => string[]): ArtifactKind | undefined {
  if (matchesGlobs(file, root, settings.transcriptGlobs)) return 'transcript';
  if (matchesGlobs(file, root, settings.eventLogGlobs)) return 'eventLog';
  if (matchesGlobs(file, root, settings.runRecordGlobs)) return 'runRecord';
  if (/\.json$/i.test(file)) return isRunRecord(path.basename(file), head().join('\n')) ? 'runRecord' : undefined;
  if (!/\.(jsonl|ndjson)$/i.test(file)) return undefined;
  return detectArtifactKind(path.basename(file), head()) ?? 'jsonl';
}
