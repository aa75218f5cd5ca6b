// The "Directive Envelopes" view's items, built from the server's DirectiveTreeResult (issue 11): labels,
// icons, context values and commands. No `vscode` import, so node:test checks it with plain objects;
// client/src/directiveTree.ts turns these into TreeItems. Everything shown comes from a transcript and is
// treated as plain text (tree labels and string tooltips are never rendered as Markdown).

import type { DirectiveNode, DirectiveTreeResult, EnvelopeNode, PrefixMessageParams, PrefixStatus, RequestNode, SessionNode } from '../../server/src/protocol';
import type { IconView, MessageElement, SessionElement, TreeItemView } from './treeItemView';
import { clip, clipTooltip, messageItemView, oneLine, plural, revealCommandOf, sessionRoots } from './treeItemView';
export { clip, type CommandView, type IconView, type RevealTarget, type TreeItemView } from './treeItemView';

export const VIEW_ID = 'harn.directives';
export const PREFIX_SCHEME = 'harn-prefix';
export const COMMANDS = {
  reveal: 'harn.directives.reveal',
  copyBody: 'harn.directives.copyBody',
  showPrefixBreak: 'harn.directives.showPrefixBreak',
  refresh: 'harn.directives.refresh',
} as const;
const revealCommand = revealCommandOf(COMMANDS.reveal, 'Reveal in Transcript');
/** Context key: a transcript is shown in the view (the welcome text shows while it is false). */
export const SHOWN_CONTEXT_KEY = 'harn.directives.transcriptShown';

export type DirectiveTreeElement =
  | MessageElement
  | SessionElement<SessionNode>
  | { kind: 'request'; id: string; uri: string; sessionId: string; request: RequestNode; index: number; previous?: RequestNode }
  | { kind: 'envelope'; id: string; uri: string; envelope: EnvelopeNode }
  | { kind: 'directive'; id: string; uri: string; directive: DirectiveNode };

/** How a request is addressed in harn/prefixMessage: the key the server gave it (its call id, else its `row:N`). */
export function requestKey(request: RequestNode): string {
  return request.key;
}

function requestName(request: RequestNode): string {
  return request.callId ?? `row ${request.range.start.line + 1}`;
}

/** The top-level nodes. `result` undefined: no transcript is shown (the view's welcome text); null: not a transcript. */
export function rootElements(result: DirectiveTreeResult | undefined): DirectiveTreeElement[] {
  return sessionRoots(
    result,
    {
      kind: 'message',
      id: 'message:not-a-transcript',
      text: 'This file is not a Harn LLM transcript.',
      detail: 'The Harn language server read it as another kind of file, so it has no directive envelopes to show.',
    },
    {
      kind: 'message',
      id: 'message:no-sessions',
      text: 'No session with provider requests in this transcript.',
      detail: 'Sessions come from message rows (session_id); requests from provider_call_request rows.',
    },
  );
}

/** The children of a node. */
export function childElements(element: DirectiveTreeElement): DirectiveTreeElement[] {
  switch (element.kind) {
    case 'session':
      return element.session.requests.map((request, index) => ({
        kind: 'request',
        id: `${element.id}/r${index}:${requestKey(request)}`,
        uri: element.uri,
        sessionId: element.session.sessionId,
        request,
        index,
        previous: index > 0 ? element.session.requests[index - 1] : undefined,
      }));
    case 'request':
      return element.request.envelopes.map((envelope, i) => ({ kind: 'envelope', id: `${element.id}/e${i}`, uri: element.uri, envelope }));
    case 'envelope':
      return element.envelope.directives.map((directive, i) => ({ kind: 'directive', id: `${element.id}/d${i}`, uri: element.uri, directive }));
    case 'message':
    case 'directive':
      return [];
  }
}

const PREFIX_ICONS: Record<PrefixStatus, IconView> = {
  intact: { id: 'pass', color: 'testing.iconPassed' },
  broken: { id: 'warning', color: 'list.warningForeground' },
  excused: { id: 'archive', color: 'charts.blue' },
  first: { id: 'debug-start' },
  unknown: { id: 'question' },
};

const PREFIX_WORDS: Record<PrefixStatus, string> = {
  intact: 'prefix intact',
  broken: 'prefix broken',
  excused: 'prefix changed, excused',
  first: 'first request',
  unknown: 'prefix unknown',
};

function prefixExplanation(request: RequestNode, previous: RequestNode | undefined): string {
  const before = previous ? requestName(previous) : 'the previous request';
  switch (request.prefix) {
    case 'intact':
      return `Prefix intact: the message array begins with ${before}'s, byte for byte (the provider's prompt cache is reused).`;
    case 'broken':
      return (
        `Prefix break: message ${request.divergentIndex ?? '?'} differs from ${before}'s, so every provider's prefix cache is lost from there ` +
        '(a full re-prefill). Right-click → Show Prefix Break compares both versions.'
      );
    case 'excused':
      return (
        `Prefix changed at message ${request.divergentIndex ?? '?'} since ${before}, excused: ${request.excusedBy ?? 'a compaction between the two requests'}. ` +
        'Right-click → Show Prefix Break compares both versions.'
      );
    case 'first':
      return 'The first request of its session: nothing to compare with.';
    case 'unknown':
      return 'Prefix status unknown: the message array of this request or of the one before could not be rebuilt.';
  }
}

const AUTHORITY_ICONS: Record<string, IconView> = {
  contract: { id: 'law' },
  corrective: { id: 'tools' },
  advisory: { id: 'lightbulb' },
};

const AUTHORITY_MEANING: Record<string, string> = {
  contract: 'contract: overrides corrective and advisory directives',
  corrective: 'corrective: overrides advisory directives; contract directives override it',
  advisory: 'advisory: contract and corrective directives override it',
};

const FORM_WORDS: Record<EnvelopeNode['form'], string> = {
  current: 'own user message',
  appended: 'appended to a user message (legacy)',
  'system-reminder': '<system-reminder> (legacy)',
  'system-reminder-text': '"System reminder:" text (legacy)',
};

/** What one node looks like in the view. */
export function itemView(element: DirectiveTreeElement): TreeItemView {
  switch (element.kind) {
    case 'message':
      return messageItemView(element, 'harnDirectives.message');
    case 'session': {
      const { session } = element;
      return {
        id: element.id,
        label: `session ${clip(session.sessionId)}`,
        description: plural(session.requests.length, 'request'),
        tooltip: clipTooltip(`Session ${oneLine(session.sessionId)}: ${plural(session.requests.length, 'provider request')}.`),
        icon: { id: 'comment-discussion' },
        contextValue: 'harnDirectives.session',
        collapsible: session.requests.length ? 'expanded' : 'none',
        command: revealCommand(element.uri, session.range),
      };
    }
    case 'request': {
      const { request, previous } = element;
      const iteration = request.iteration === undefined ? 'iteration ?' : `iteration ${request.iteration}`;
      const status =
        request.prefix === 'broken' || request.prefix === 'excused'
          ? `${PREFIX_WORDS[request.prefix]} at ${request.divergentIndex ?? '?'}`
          : PREFIX_WORDS[request.prefix];
      const rebuilt = request.source === 'snapshot' ? 'its request_snapshot.messages' : 'replaying the rows before it';
      return {
        id: element.id,
        label: `${iteration} · ${clip(requestName(request))}`,
        description: `${plural(request.messageCount, 'message')} · ${status}`,
        tooltip: clipTooltip(
          [
            `Request ${oneLine(requestName(request))}, ${iteration}, ${plural(request.messageCount, 'message')} (rebuilt from ${rebuilt}).`,
            prefixExplanation(request, previous),
            request.envelopes.length
              ? `${plural(request.envelopes.length, 'new envelope')} since the previous request.`
              : 'No new envelope since the previous request.',
          ].join('\n'),
        ),
        icon: PREFIX_ICONS[request.prefix],
        contextValue: `harnDirectives.request.${request.prefix}`,
        collapsible: request.envelopes.length ? 'collapsed' : 'none',
        command: revealCommand(element.uri, request.range),
      };
    }
    case 'envelope': {
      const { envelope } = element;
      const speaker = envelope.speaker === undefined ? 'no speaker' : `speaker ${clip(envelope.speaker, 40)}`;
      const nonce = envelope.nonce === undefined ? undefined : `nonce ${clip(envelope.nonce, 40)}`;
      // Legacy reminders have no speaker or nonce: their form names them.
      const label = envelope.form === 'current' || envelope.form === 'appended' ? `<context-directives> ${speaker}` : FORM_WORDS[envelope.form];
      return {
        id: element.id,
        label,
        description: [nonce, plural(envelope.directives.length, 'directive')].filter((part) => part !== undefined).join(' · '),
        tooltip: clipTooltip(
          [
            `Envelope: ${FORM_WORDS[envelope.form]}.`,
            `Speaker: ${envelope.speaker === undefined ? '(none)' : oneLine(envelope.speaker)}.`,
            `Nonce: ${envelope.nonce === undefined ? '(none)' : oneLine(envelope.nonce)}.`,
          ].join('\n'),
        ),
        icon: { id: 'mail' },
        contextValue: `harnDirectives.envelope.${envelope.form}`,
        collapsible: envelope.directives.length ? 'expanded' : 'none',
        command: revealCommand(element.uri, envelope.range),
      };
    }
    case 'directive': {
      const { directive } = element;
      const known = Object.hasOwn(AUTHORITY_ICONS, directive.authority);
      const parts = [
        known ? directive.authority : `authority ${clip(directive.authority, 40)}?`,
        directive.ttlTurns === undefined ? undefined : `ttl ${clip(directive.ttlTurns, 20)}`,
        directive.id === undefined ? undefined : clip(directive.id, 40),
      ].filter((part) => part !== undefined);
      return {
        id: element.id,
        label: directive.firstLine.trim() ? clip(directive.firstLine) : '(empty body)',
        description: parts.join(' · '),
        tooltip: clipTooltip(
          [
            `Authority ${known ? (AUTHORITY_MEANING[directive.authority] ?? directive.authority) : `${oneLine(directive.authority)} (not contract, corrective or advisory)`}.`,
            `TTL: ${directive.ttlTurns === undefined ? 'none (until withdrawn)' : `${oneLine(directive.ttlTurns)} turn(s)`}. Id: ${directive.id === undefined ? '(none)' : oneLine(directive.id)}.`,
            '',
            directive.body,
          ].join('\n'),
        ),
        icon: known ? (AUTHORITY_ICONS[directive.authority] ?? { id: 'question' }) : { id: 'question', color: 'list.warningForeground' },
        contextValue: 'harnDirectives.directive',
        collapsible: 'none',
        command: revealCommand(element.uri, directive.range),
      };
    }
  }
}

/** Both sides of "Show Prefix Break": message `divergentIndex` of the previous request and of this one. */
export interface PrefixBreakDiff {
  left: PrefixMessageParams;
  right: PrefixMessageParams;
  title: string;
}

/** The diff of a broken (or excused) request, or why there is none (shown to the user). */
export function prefixBreakDiff(element: DirectiveTreeElement): PrefixBreakDiff | { unavailable: string } {
  if (element.kind !== 'request') return { unavailable: 'Show Prefix Break works on a request of the Directive Envelopes view.' };
  const { request, previous } = element;
  if (request.prefix !== 'broken' && request.prefix !== 'excused') {
    return { unavailable: `Request ${requestName(request)} has no prefix break (${PREFIX_WORDS[request.prefix]}).` };
  }
  if (request.divergentIndex === undefined) return { unavailable: `The server did not say where request ${requestName(request)}'s prefix breaks.` };
  if (previous === undefined) return { unavailable: `Request ${requestName(request)} is the first of its session: nothing to compare with.` };
  const index = request.divergentIndex;
  const excused = request.prefix === 'excused' ? ' (excused)' : '';
  return {
    left: { uri: element.uri, callId: requestKey(previous), index },
    right: { uri: element.uri, callId: requestKey(request), index },
    title: `Prefix break${excused} at message ${index}: ${clip(requestName(previous), 40)} ↔ ${clip(requestName(request), 40)}`,
  };
}

/**
 * A `harn-prefix:` document's address: a readable path (the tab's name) and the request's parameters in the
 * query, so that the content provider needs nothing else. Returned as its parts for vscode.Uri.from. The name ends
 * in .txt: the text is a readable rendering of the message, not JSON (no JSON squiggles in the diff).
 */
export function prefixDocumentParts(params: PrefixMessageParams): { scheme: string; path: string; query: string } {
  const name = params.callId.replace(/[/\\?#%]/g, '_');
  const query = new URLSearchParams({ uri: params.uri, callId: params.callId, index: String(params.index) }).toString();
  return { scheme: PREFIX_SCHEME, path: `/${name} message ${params.index}.txt`, query };
}

/** The parameters back from a `harn-prefix:` document's query; a message when it is not one of ours. */
export function parsePrefixQuery(query: string): PrefixMessageParams | { invalid: string } {
  const params = new URLSearchParams(query);
  const uri = params.get('uri');
  const callId = params.get('callId');
  const indexText = params.get('index');
  if (!uri || !callId || indexText === null || !/^\d+$/.test(indexText)) {
    return { invalid: 'This harn-prefix: address lacks its transcript, request or message index.' };
  }
  const index = Number(indexText);
  if (!Number.isSafeInteger(index)) return { invalid: `Message index ${indexText} is out of range.` };
  return { uri, callId, index };
}

/** The text of a prefix document when the server has no such message. */
export function missingPrefixMessage(params: PrefixMessageParams): string {
  return `// Message ${params.index} of request ${params.callId} is not available: the transcript changed, or the request's array has no such message.\n`;
}
