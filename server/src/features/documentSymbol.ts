// textDocument/documentSymbol: the outline of an open document, from the domain that owns it.

import { DocumentSymbol } from 'vscode-languageserver';
import { FeatureContext } from './context';
import { firstProviderAnswer } from './openRequest';

export function registerDocumentSymbol(ctx: FeatureContext): void {
  ctx.connection.onDocumentSymbol(firstProviderAnswer(ctx, 'documentSymbol', [] as DocumentSymbol[], (p, request) => p.documentSymbol?.(request)));
}
