// textDocument/semanticTokens/full, /full/delta and /range: the first provider of the document's kind that has tokens.

import { SemanticTokens, SemanticTokensDelta } from 'vscode-languageserver';
import { FeatureContext } from './context';
import { firstProviderAnswer } from './openRequest';

const NONE: SemanticTokens = { data: [] };

export function registerSemanticTokens(ctx: FeatureContext): void {
  const tokens = ctx.connection.languages.semanticTokens;
  tokens.on(firstProviderAnswer(ctx, 'semanticTokens', NONE, (p, request) => p.semanticTokens?.(request)));
  tokens.onDelta(
    firstProviderAnswer(ctx, 'semanticTokensDelta', NONE as SemanticTokens | SemanticTokensDelta, (p, request, params) =>
      p.semanticTokensDelta?.(request, params.previousResultId),
    ),
  );
  tokens.onRange(firstProviderAnswer(ctx, 'semanticTokensRange', NONE, (p, request, params) => p.semanticTokensRange?.(request, params.range)));
}
