// workspace/symbol: every provider's symbols matching the query (only the .harn index has any today).

import { WorkspaceSymbol } from 'vscode-languageserver';
import { FeatureContext } from './context';
import { guarded } from './handler';

export function registerWorkspaceSymbol(ctx: FeatureContext): void {
  ctx.connection.onWorkspaceSymbol(
    guarded(ctx, 'workspaceSymbol', [] as WorkspaceSymbol[], async (params, token) => {
      const out: WorkspaceSymbol[] = [];
      for (const provider of ctx.providers) out.push(...((await provider.workspaceSymbol?.(params.query, token)) ?? []));
      return out;
    }),
  );
}
