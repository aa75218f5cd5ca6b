// textDocument/typeDefinition.

import { LocationLink } from 'vscode-languageserver';
import { FeatureContext } from './context';
import { firstProviderAnswer } from './openRequest';

export function registerTypeDefinition(ctx: FeatureContext): void {
  ctx.connection.onTypeDefinition(
    firstProviderAnswer(ctx, 'typeDefinition', [] as LocationLink[], (p, request, params) => p.typeDefinition?.(request, params.position)),
  );
}
