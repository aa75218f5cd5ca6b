// textDocument/inlayHint (parameter names at call sites): the first provider of the document's kind that answers.

import { InlayHint } from 'vscode-languageserver';
import { FeatureContext } from './context';
import { firstProviderAnswer } from './openRequest';

export function registerInlayHint(ctx: FeatureContext): void {
  ctx.connection.languages.inlayHint.on(
    firstProviderAnswer(ctx, 'inlayHint', [] as InlayHint[], (p, request, params) => p.inlayHints?.(request, params.range)),
  );
}
