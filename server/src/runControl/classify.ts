// Which files are run-control logs: the `harn.runControl.logGlobs` globs, else their first rows (classify's
// artifact globs are asked first by the router, so an `llm_transcript*.jsonl` stays a transcript).

import { matchesGlobs } from '../artifacts/classify';
import { looksLikeRunControlLog } from './rows';

export const RUN_CONTROL_DELIVERIES = ['inbox', 'clipboard'] as const;

export interface RunControlSettings {
  logGlobs: string[];
  inbox: string;
  delivery: (typeof RUN_CONTROL_DELIVERIES)[number];
}

export const DEFAULT_RUN_CONTROL_SETTINGS: RunControlSettings = {
  logGlobs: ['**/*run_control*.jsonl', '**/*run-control*.jsonl'],
  inbox: 'run-control-inbox.jsonl',
  delivery: 'inbox',
};

/**
 * Whether a JSONL file is a run-control log: by the globs, else by its first rows. The inbox file itself is one
 * too (requests only), by its rows. `head` is read lazily.
 */
export function isRunControlLog(file: string, root: string | undefined, settings: Pick<RunControlSettings, 'logGlobs'>, head: () => string[]): boolean {
  if (!/\.(jsonl|ndjson)$/i.test(file)) return false;
  return matchesGlobs(file, root, settings.logGlobs) || looksLikeRunControlLog(head());
}
