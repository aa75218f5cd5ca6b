// Custom messages between the client and the server. Imported by the client for its types only.

import { NotificationType, RequestType } from 'vscode-languageserver-protocol';

/** What the server last did, for the client's language status item. */
export interface ServerStatus {
  state: 'starting' | 'ready' | 'checking';
  /** Workspace-relative (or base) name of the last checked file. */
  lastChecked?: string;
  lastCheckMs?: number;
  /** What is switched off, e.g. in an untrusted workspace. */
  limitations?: string[];
}

export const StatusNotification = new NotificationType<ServerStatus>('harn/status');

/** Validates an artifact file from disk (files over 50 MB are never synced to the server). */
export interface ValidateArtifactFileParams {
  uri: string;
}

export interface ValidateArtifactFileResult {
  /** Undefined when the file is not a recognised artifact. */
  kind: 'transcript' | 'eventLog' | 'runRecord' | 'jsonl' | undefined;
  problems: number;
  lines: number;
}

export const ValidateArtifactFileRequest = new RequestType<ValidateArtifactFileParams, ValidateArtifactFileResult, void>('harn/validateArtifactFile');
