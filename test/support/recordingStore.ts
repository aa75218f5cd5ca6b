// A DiagnosticsStore whose connection records what it publishes, for the tests of the store.

import { PublishDiagnosticsParams } from 'vscode-languageserver';
import { DiagnosticsStore } from '../../server/src/features/diagnosticsStore';

export function recordingStore(): { store: DiagnosticsStore; published: PublishDiagnosticsParams[] } {
  const published: PublishDiagnosticsParams[] = [];
  const store = new DiagnosticsStore({
    sendDiagnostics: (params: PublishDiagnosticsParams) => {
      published.push(params);
      return Promise.resolve();
    },
  });
  return { store, published };
}
