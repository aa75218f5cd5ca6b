// textDocument/documentHighlight.

import { DocumentHighlight } from 'vscode-languageserver';
import { FeatureContext } from './context';
import { firstProviderAnswer } from './openRequest';

export function registerDocumentHighlight(ctx: FeatureContext): void {
  ctx.connection.onDocumentHighlight(
    firstProviderAnswer(ctx, 'documentHighlight', [] as DocumentHighlight[], (p, request, params) => p.documentHighlight?.(request, params.position)),
  );
}
