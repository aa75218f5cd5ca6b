// textDocument/documentLink.

import { DocumentLink } from 'vscode-languageserver';
import { FeatureContext } from './context';
import { firstProviderAnswer } from './openRequest';

export function registerDocumentLink(ctx: FeatureContext): void {
  ctx.connection.onDocumentLinks(firstProviderAnswer(ctx, 'documentLink', [] as DocumentLink[], (p, request) => p.documentLink?.(request)));
}
