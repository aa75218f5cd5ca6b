// Wraps every LSP request handler: a request after shutdown is refused (InvalidRequest), a cancelled request
// gets the empty answer, a result computed for a document version that changed meanwhile is dropped, and a
// handler error is logged and answered with the empty result instead of crashing the server.

import { CancellationToken } from 'vscode-languageserver';

export type Awaitable<T> = T | Promise<T>;

export interface HandlerHost {
  /** The current version of an open document, undefined when the editor does not sync it. */
  versionOf(uri: string): number | undefined;
  error(message: string): void;
  /** Throws the LSP's InvalidRequest error once the client has asked the server to shut down. */
  refuseAfterShutdown?(method: string): void;
}

/** Params of requests about one document. */
interface DocumentParams {
  textDocument?: { uri: string };
}

export function describeError(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

export function guarded<P, R>(
  host: HandlerHost,
  name: string,
  empty: R,
  body: (params: P, token: CancellationToken) => Awaitable<R>,
): (params: P, token: CancellationToken) => Promise<R> {
  return async (params, token) => {
    // Refused, not answered: the error (a rejected promise) is the reply.
    host.refuseAfterShutdown?.(name);
    if (token.isCancellationRequested) return empty;
    const uri = (params as DocumentParams).textDocument?.uri;
    const version = uri === undefined ? undefined : host.versionOf(uri);
    try {
      const result = await body(params, token);
      if (token.isCancellationRequested) return empty;
      // Synchronous handlers cannot see an edit; those that yield (big files) can: their answer would
      // carry positions of text that is gone.
      if (uri !== undefined && host.versionOf(uri) !== version) return empty;
      return result;
    } catch (error) {
      host.error(`${name} failed: ${describeError(error)}`);
      return empty;
    }
  };
}

/** Lets pending messages (edits, cancellations) in between chunks of long work. */
export function yieldToRequests(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Runs `step` over `items` in chunks, yielding between chunks; stops early (returning false) once the
 * request is cancelled.
 */
export async function forEachChunked<T>(items: readonly T[], token: CancellationToken, step: (item: T, index: number) => void, chunk = 2000): Promise<boolean> {
  let i = 0;
  for (const item of items) {
    if (i > 0 && i % chunk === 0) {
      await yieldToRequests();
      if (token.isCancellationRequested) return false;
    }
    step(item, i);
    i++;
  }
  return true;
}
