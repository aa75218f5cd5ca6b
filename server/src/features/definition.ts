// textDocument/definition.

import { LocationLink } from 'vscode-languageserver';
import { FeatureContext } from './context';
import { firstProviderAnswer } from './openRequest';

export function registerDefinition(ctx: FeatureContext): void {
  ctx.connection.onDefinition(firstProviderAnswer(ctx, 'definition', [] as LocationLink[], (p, request, params) => p.definition?.(request, params.position)));
}
