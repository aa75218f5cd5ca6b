// textDocument/implementation.

import { LocationLink } from 'vscode-languageserver';
import { FeatureContext } from './context';
import { firstProviderAnswer } from './openRequest';

export function registerImplementation(ctx: FeatureContext): void {
  ctx.connection.onImplementation(
    firstProviderAnswer(ctx, 'implementation', [] as LocationLink[], (p, request, params) => p.implementation?.(request, params.position)),
  );
}
