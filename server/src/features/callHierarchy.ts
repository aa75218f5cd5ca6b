// textDocument/prepareCallHierarchy, callHierarchy/incomingCalls and callHierarchy/outgoingCalls. The calls are
// asked of an item the editor hands back: routed by its uri to the providers of that file's kind (the file need not
// be open; the answers come from the workspace index).

import { CallHierarchyIncomingCall, CallHierarchyItem, CallHierarchyOutgoingCall } from 'vscode-languageserver';
import { FeatureContext, firstAnswer } from './context';
import { guarded } from './handler';
import { firstProviderAnswer } from './openRequest';

export function registerCallHierarchy(ctx: FeatureContext): void {
  const { callHierarchy } = ctx.connection.languages;
  callHierarchy.onPrepare(
    firstProviderAnswer(ctx, 'prepareCallHierarchy', [] as CallHierarchyItem[], (p, request, params) => p.prepareCallHierarchy?.(request, params.position)),
  );
  callHierarchy.onIncomingCalls(
    guarded(ctx, 'incomingCalls', [] as CallHierarchyIncomingCall[], async (params, token) => {
      const request = ctx.request(params.item.uri, token);
      if (!request) return [];
      return (await firstAnswer(ctx.providersFor(request.kind), (p) => p.incomingCalls?.(params.item, token))) ?? [];
    }),
  );
  callHierarchy.onOutgoingCalls(
    guarded(ctx, 'outgoingCalls', [] as CallHierarchyOutgoingCall[], async (params, token) => {
      const request = ctx.request(params.item.uri, token);
      if (!request) return [];
      return (await firstAnswer(ctx.providersFor(request.kind), (p) => p.outgoingCalls?.(params.item, token))) ?? [];
    }),
  );
}
