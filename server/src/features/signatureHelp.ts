// textDocument/signatureHelp (on `(` and `,`): the first provider of the document's kind that answers.

import { SignatureHelp } from 'vscode-languageserver';
import { FeatureContext } from './context';
import { firstProviderAnswer } from './openRequest';

export function registerSignatureHelp(ctx: FeatureContext): void {
  ctx.connection.onSignatureHelp(
    firstProviderAnswer(ctx, 'signatureHelp', null as SignatureHelp | null, (p, request, params) =>
      p.signatureHelp?.(request, params.position, params.context),
    ),
  );
}
