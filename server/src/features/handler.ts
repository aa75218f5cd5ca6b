// Wraps every LSP request handler: a cancelled request or a stale document gets the empty answer, and
// a handler error is logged and answered with the empty result instead of crashing the server.

import { CancellationToken, Connection } from 'vscode-languageserver';

export function guarded<P, R>(
  connection: Connection,
  name: string,
  empty: R,
  body: (params: P, token: CancellationToken) => R,
): (params: P, token: CancellationToken) => R {
  return (params, token) => {
    if (token.isCancellationRequested) return empty;
    try {
      const result = body(params, token);
      return token.isCancellationRequested ? empty : result;
    } catch (error) {
      connection.console.error(`${name} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      return empty;
    }
  };
}
