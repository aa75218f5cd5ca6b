// textDocument/declaration.

import { LocationLink } from 'vscode-languageserver';
import { FeatureContext } from './context';
import { firstProviderAnswer } from './openRequest';

export function registerDeclaration(ctx: FeatureContext): void {
  ctx.connection.onDeclaration(
    firstProviderAnswer(ctx, 'declaration', [] as LocationLink[], (p, request, params) => p.declaration?.(request, params.position)),
  );
}
