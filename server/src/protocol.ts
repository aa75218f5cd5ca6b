// Custom messages between the client and the server, imported by the client too (so no zod here: the
// server validates each parameter where it enters, in the adaptor of its request).

import { NotificationType, RequestType } from 'vscode-languageserver-protocol';

/** What the server last did, for the client's language status item. */
export interface ServerStatus {
  state: 'ready';
  /** Workspace-relative (or base) name of the last checked file. */
  lastChecked?: string;
  lastCheckMs?: number;
}

export const StatusNotification = new NotificationType<ServerStatus>('harn/status');

/** Validates an artifact file from disk (files over 50 MB are never synced to the server). */
export interface ValidateArtifactFileParams {
  uri: string;
}

export interface ValidateArtifactFileResult {
  /** Undefined when the file is not a recognised artifact. */
  kind: 'transcript' | 'eventLog' | 'runRecord' | 'jsonl' | undefined;
  /** Every problem found, those past the per-file cap included (only a thousand are published). */
  problems: number;
  lines: number;
  /** Why the file was not read, when it was refused: not a regular file ("… is a FIFO, not a regular file", also a
   *  diagnostic on it), or outside the workspace folders; shown to the user. */
  refused?: string;
}

export const ValidateArtifactFileRequest = new RequestType<ValidateArtifactFileParams, ValidateArtifactFileResult, void>('harn/validateArtifactFile');

/** The server's text of an open document, as a digest (tests compare it with the client's after each edit). */
export interface DocumentDigestParams {
  uri: string;
}
export type DocumentDigestResult = { version: number; sha256: string } | null;

export const DocumentDigestRequest = new RequestType<DocumentDigestParams, DocumentDigestResult, void>('harn/documentDigest');

/**
 * Whether the server's own `.harn` language features answer: syntax and analysis diagnostics, hover, outline,
 * folding, import links, definition and completion. The loud-boundary features on `.harn` files (ids in strings)
 * and every artifact feature answer either way. The client decides (`harn.languageFeatures`, and whether
 * upstream's extension is installed) and says so at start (`initializationOptions.languageFeatures`) and on each
 * change (this notification), never by restarting the server.
 */
export interface LanguageFeaturesParams {
  enabled: boolean;
  /** Why, for the server's log: e.g. "harn.languageFeatures is auto and burin-labs.harn-lang is installed". */
  reason: string;
}

export const LanguageFeaturesNotification = new NotificationType<LanguageFeaturesParams>('harn/languageFeatures');

/** What the client sends as `initializationOptions`. */
export interface HarnInitializationOptions {
  languageFeatures?: LanguageFeaturesParams;
}

/** The directive tree of one transcript (issue 11), asked only while the view is visible. */
export interface DirectiveTreeParams {
  uri: string;
}
export type PrefixStatus = 'intact' | 'broken' | 'excused' | 'first' | 'unknown';
export type DirectiveAuthorityName = 'contract' | 'corrective' | 'advisory';
export interface DirectiveTreeRange {
  start: { line: number; character: number };
  end: { line: number; character: number };
} // UTF-16, the row in the transcript
export interface DirectiveNode {
  /** A DirectiveAuthorityName, or what was written instead (an invalid one is shown, and diagnosed). */
  authority: string;
  ttlTurns?: string;
  id?: string; // id: from _harn_directive_ids when the envelope carries them
  firstLine: string; // first non-empty line of the decoded body (never trusted: the client shows it as plain text)
  body: string; // the decoded body (for "Copy Directive Body")
  range: DirectiveTreeRange; // where the <directive ...> tag is in the row
}
export interface EnvelopeNode {
  speaker?: string;
  nonce?: string;
  form: 'current' | 'appended' | 'system-reminder' | 'system-reminder-text';
  range: DirectiveTreeRange;
  directives: DirectiveNode[];
}
export interface RequestNode {
  /** Its address in harn/prefixMessage: the call id, else the server's `row:N` (N the 1-based non-blank row, §1). */
  key: string;
  callId?: string;
  iteration?: number;
  messageCount: number;
  prefix: PrefixStatus;
  /** How the message array was rebuilt: 'snapshot' (request_snapshot.messages) or 'replay' (rows before the request). */
  source: 'snapshot' | 'replay';
  /** On a broken/excused request: the first divergent message index, and why it is excused. */
  divergentIndex?: number;
  excusedBy?: string;
  range: DirectiveTreeRange; // the provider_call_request row
  envelopes: EnvelopeNode[]; // envelopes in this request's array that are new since the previous request
}
export interface SessionNode {
  sessionId: string;
  range: DirectiveTreeRange;
  requests: RequestNode[];
}
export type DirectiveTreeResult = { uri: string; version: number | null; sessions: SessionNode[] } | null; // null: not a transcript
export const DirectiveTreeRequest = new RequestType<DirectiveTreeParams, DirectiveTreeResult, void>('harn/directiveTree');
/** Sent when a transcript's tree may have changed (edit, file change on disk); the client re-asks if visible. */
export const DirectiveTreeChangedNotification = new NotificationType<{ uri: string }>('harn/directiveTreeChanged');
/** The text of message `index` of the array sent with request `callId` (for the prefix-break diff editor). */
export interface PrefixMessageParams {
  uri: string;
  callId: string;
  index: number;
}
export type PrefixMessageResult = { text: string } | null;
export const PrefixMessageRequest = new RequestType<PrefixMessageParams, PrefixMessageResult, void>('harn/prefixMessage');

// Run controls (issue 12): the a3s run-control log's sessions, runs, controls and receipts, and composing a request.
export interface RunControlRange {
  start: { line: number; character: number };
  end: { line: number; character: number };
}
export type RunControlState = 'accepted' | 'applied' | 'rejected' | 'settled';
export interface RunControlReceiptNode {
  /** A RunControlState, or what the log wrote instead (shown as written, and diagnosed). */
  state: string;
  sequence: number;
  atMs?: number;
  errorCode?: string;
  errorMessage?: string;
  range: RunControlRange;
}
export interface RunControlNode {
  requestId: string;
  /** 'steer' | 'interrupt', or what the log wrote instead. */
  operation: string;
  /** The state of its last receipt (a RunControlState, or as written); 'requested' when the log has the request and no receipt yet. */
  state: string;
  /** First line of the steer input or the interrupt reason (plain text; the client never renders it as Markdown). */
  summary: string;
  force?: boolean;
  range: RunControlRange;
  receipts: RunControlReceiptNode[];
  /** Problems the replay found on this control's rows (codes), for the icon. */
  problems: string[];
}
export interface RunNode {
  runId: string;
  active: boolean;
  turnId: string | null;
  turnRevision: number;
  queuedControls: number;
  interruptRequested: boolean;
  lastSequence: number;
  range: RunControlRange;
  controls: RunControlNode[];
}
export interface RunControlSessionNode {
  sessionId: string;
  runs: RunNode[];
}
export type RunControlTreeResult = { uri: string; sessions: RunControlSessionNode[] } | null; // null: not a run-control log
export const RunControlTreeRequest = new RequestType<{ uri: string }, RunControlTreeResult, void>('harn/runControlTree');
export const RunControlTreeChangedNotification = new NotificationType<{ uri: string }>('harn/runControlTreeChanged');
export type RunControlCommandInput = { kind: 'steer'; input: string } | { kind: 'interrupt'; reason?: string; force: boolean };
/** Builds (and, with deliver 'inbox', appends) a request for run `runId` of the log, bound to its latest snapshot. */
export interface RunControlComposeParams {
  uri: string;
  runId: string;
  command: RunControlCommandInput;
  /** 'check': only validate (as the user types); 'inbox': build and append one line; 'clipboard': build, the client copies `line`. */
  deliver: 'check' | 'inbox' | 'clipboard';
  /** Retry: re-send the exact bytes of this earlier request id (same id: idempotent); command is then ignored. */
  retryOf?: string;
}
export type RunControlComposeResult =
  | { ok: true; request: Record<string, unknown>; line: string; inbox?: string /* workspace-relative path written */ }
  | { ok: false; code: string; message: string };
export const RunControlComposeRequest = new RequestType<RunControlComposeParams, RunControlComposeResult, void>('harn/runControlCompose');

// Training examples (issue 13): a run record projected into `harn.agent_training_example.v1`, written by the client.
/** A run record (`run.json`) to project; the server reads it, and its transcript, as written on disk. */
export interface ExportTrainingExampleParams {
  uri: string;
}
export type ExportTrainingExampleResult =
  | {
      ok: true;
      /** The example as the CLI prints it (upstream's key order, 2-space indent, trailing newline). */
      text: string;
      /** The uri of `<run>.training.json` beside the run record. */
      target: string;
      /** Whether the target exists already (the client asks before overwriting it). */
      exists: boolean;
      messages: number;
    }
  | {
      ok: false;
      /** The projector's refusal kind, or ours: `not_a_run_record`, `unsaved_run_record`, `invalid_params`. */
      kind: string;
      message: string;
      /** The 1-based transcript row the refusal is about. */
      eventIndex?: number;
      /** Where to look: the transcript row of eventIndex, else the run record's descriptor. */
      open?: { uri: string; line: number };
    };
export const ExportTrainingExampleRequest = new RequestType<ExportTrainingExampleParams, ExportTrainingExampleResult, void>('harn/exportTrainingExample');
