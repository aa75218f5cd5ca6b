// What a formatting request answers when the formatter refuses (a syntax error it cannot format around, such as
// an unterminated block comment): no edits, the reason in the log, and the reason shown as a warning once per
// document until it formats again or the reason changes (format on save would repeat it at every save).
// On typing `}` a refusal is silent: the file is being typed.

import { CancellationToken, MessageType, ShowMessageNotification, TextEdit } from 'vscode-languageserver';
import { notificationText } from '../text/notification';
import { FeatureContext } from './context';
import { FormatRefusal } from './provider';

type Answer = TextEdit[] | FormatRefusal | null;

export class FormatRefusals {
  private readonly lastShown = new Map<string, string>();

  constructor(private readonly ctx: FeatureContext) {
    ctx.documents.onDidClose((e) => this.lastShown.delete(e.document.uri));
  }

  /** The handler with refusals turned into null (logged and shown, or silent with `quiet`). */
  shown<P extends { textDocument: { uri: string } }>(
    handler: (params: P, token: CancellationToken) => Promise<Answer>,
    quiet = false,
  ): (params: P, token: CancellationToken) => Promise<TextEdit[] | null> {
    return async (params, token) => {
      const answer = await handler(params, token);
      const uri = params.textDocument.uri;
      if (answer === null || !('refused' in answer)) {
        if (answer !== null && !quiet) this.lastShown.delete(uri);
        return answer;
      }
      if (quiet) return null;
      this.ctx.connection.console.warn(`Not formatted: ${uri}: ${answer.refused}`);
      if (this.lastShown.get(uri) !== answer.refused) {
        this.lastShown.set(uri, answer.refused);
        // A notification (window/showMessage): nothing to answer, and no request left pending with a client that cannot.
        void this.ctx.connection.sendNotification(ShowMessageNotification.type, {
          type: MessageType.Warning,
          // The reason may quote a token of the file: shown literally, never as a link.
          message: notificationText(`Harn: not formatted: ${answer.refused}`),
        });
      }
      return null;
    };
  }
}
