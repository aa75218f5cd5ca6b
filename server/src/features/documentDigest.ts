// harn/documentDigest: the SHA-256 of the server's text of an open document, so tests can check after
// every incremental edit that the server's text is exactly the client's.

import { createHash } from 'node:crypto';
import { DocumentDigestRequest, DocumentDigestResult } from '../protocol';
import { z } from 'zod';
import { FeatureContext } from './context';
import { guarded } from './handler';

/** Checked where they enter: the client is not the only possible sender. */
const DocumentDigestParamsSchema = z.object({ uri: z.string().min(1) });

export function registerDocumentDigest(ctx: FeatureContext): void {
  ctx.connection.onRequest(
    DocumentDigestRequest,
    guarded(ctx, 'documentDigest', null as DocumentDigestResult, (raw: unknown) => {
      const params = DocumentDigestParamsSchema.parse(raw);
      const doc = ctx.documents.get(params.uri);
      if (!doc) return null;
      return { version: doc.version, sha256: createHash('sha256').update(doc.getText(), 'utf8').digest('hex') };
    }),
  );
}
