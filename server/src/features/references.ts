// textDocument/references.

import { Location } from 'vscode-languageserver';
import { FeatureContext } from './context';
import { firstProviderAnswer } from './openRequest';

export function registerReferences(ctx: FeatureContext): void {
  ctx.connection.onReferences(
    firstProviderAnswer(ctx, 'references', [] as Location[], (p, request, params) =>
      p.references?.(request, params.position, params.context.includeDeclaration),
    ),
  );
}
