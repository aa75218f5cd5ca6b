// Most methods are about documents the editor has open; big artifacts it does not sync only get hovers.

import { CancellationToken } from 'vscode-languageserver';
import { FeatureContext } from './context';
import { OpenDocumentRequest } from './provider';

export function openRequest(ctx: FeatureContext, uri: string, token: CancellationToken): OpenDocumentRequest | undefined {
  const request = ctx.request(uri, token);
  const doc = request?.doc;
  return request && doc ? { ...request, doc } : undefined;
}
