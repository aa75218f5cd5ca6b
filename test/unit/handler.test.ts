// guarded(): what every LSP request handler goes through — cancelled → the empty answer, a document
// edited while the handler ran → the empty answer, a thrown error → logged and the empty answer.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CancellationTokenSource } from 'vscode-languageserver';
import { forEachChunked, guarded, HandlerHost, yieldToRequests } from '../../server/src/features/handler';

function host(versions: Map<string, number>): HandlerHost & { errors: string[] } {
  const errors: string[] = [];
  return { errors, versionOf: (uri) => versions.get(uri), error: (m) => errors.push(m) };
}

const params = { textDocument: { uri: 'file:///a.harn' } };

describe('guarded', () => {
  test('answers what the handler returns when nothing changed', async () => {
    const h = host(new Map([['file:///a.harn', 1]]));
    const handler = guarded(h, 'hover', 'empty', () => 'answer');
    assert.equal(await handler(params, new CancellationTokenSource().token), 'answer');
    assert.deepEqual(h.errors, []);
  });

  test('a request cancelled before or while it runs gets the empty answer', async () => {
    const h = host(new Map([['file:///a.harn', 1]]));
    const before = new CancellationTokenSource();
    before.cancel();
    let ran = false;
    assert.equal(await guarded(h, 'hover', 'empty', () => ((ran = true), 'answer'))(params, before.token), 'empty');
    assert.equal(ran, false, 'a request cancelled before it starts does not run');
    const during = new CancellationTokenSource();
    const handler = guarded(h, 'hover', 'empty', async () => {
      during.cancel();
      await yieldToRequests();
      return 'answer';
    });
    assert.equal(await handler(params, during.token), 'empty');
  });

  test('a result for a document version that changed while the handler ran is dropped', async () => {
    const versions = new Map([['file:///a.harn', 1]]);
    const h = host(versions);
    const handler = guarded(h, 'documentSymbol', [] as string[], async () => {
      versions.set('file:///a.harn', 2); // an edit arrives while the handler yields
      await yieldToRequests();
      return ['stale'];
    });
    assert.deepEqual(await handler(params, new CancellationTokenSource().token), []);
    // Closed meanwhile: the same.
    const closing = guarded(h, 'documentSymbol', [] as string[], async () => {
      versions.delete('file:///a.harn');
      await yieldToRequests();
      return ['stale'];
    });
    versions.set('file:///a.harn', 3);
    assert.deepEqual(await closing(params, new CancellationTokenSource().token), []);
  });

  test('an error is logged with the method name and answered with the empty result', async () => {
    const h = host(new Map());
    const handler = guarded(h, 'codeAction', [] as number[], () => {
      throw new Error('boom');
    });
    assert.deepEqual(await handler(params, new CancellationTokenSource().token), []);
    assert.equal(h.errors.length, 1);
    assert.match(h.errors[0] ?? '', /^codeAction failed: Error: boom/);
  });
});

test('forEachChunked stops at the first chunk boundary after a cancellation', async () => {
  const source = new CancellationTokenSource();
  const seen: number[] = [];
  const items = Array.from({ length: 10 }, (_, i) => i);
  const finished = await forEachChunked(
    items,
    source.token,
    (item) => {
      seen.push(item);
      if (item === 2) source.cancel();
    },
    4,
  );
  assert.equal(finished, false);
  assert.deepEqual(seen, [0, 1, 2, 3]);
  assert.equal(await forEachChunked(items, new CancellationTokenSource().token, () => undefined, 4), true);
});
