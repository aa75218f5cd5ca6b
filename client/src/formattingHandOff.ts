// Our package.json makes us the `[harn]` editor.defaultFormatter, so format on save works once a user enables it.
// While our .harn language features are not in force (beside upstream's extension, or turned off), VS Code would
// still pick us and then format with nobody ("… is configured as formatter but it cannot format …"), even though
// upstream's harn-lsp can. So our formatting requests are then handed to the document's other formatters: VS
// Code's execute…Provider commands ask every provider in turn until one returns edits, and ours, asked again for
// the same document while it hands off, returns none. (On-type formatting is not chosen by the default formatter:
// it is left to the server, which answers nothing while stepped back.)

import * as vscode from 'vscode';
import type { Middleware } from 'vscode-languageclient/node';

export function formattingHandOff(inForce: () => boolean): Pick<Middleware, 'provideDocumentFormattingEdits' | 'provideDocumentRangeFormattingEdits'> {
  const handingOff = new Set<string>();
  const handOff = async (uri: vscode.Uri, ask: () => Thenable<vscode.TextEdit[] | undefined>): Promise<vscode.TextEdit[]> => {
    const key = uri.toString();
    if (handingOff.has(key)) return [];
    handingOff.add(key);
    try {
      return (await ask()) ?? [];
    } finally {
      handingOff.delete(key);
    }
  };
  return {
    provideDocumentFormattingEdits: (document, options, token, next) =>
      inForce()
        ? next(document, options, token)
        : handOff(document.uri, () =>
            vscode.commands.executeCommand<vscode.TextEdit[] | undefined>('vscode.executeFormatDocumentProvider', document.uri, options),
          ),
    provideDocumentRangeFormattingEdits: (document, range, options, token, next) =>
      inForce()
        ? next(document, range, options, token)
        : handOff(document.uri, () =>
            vscode.commands.executeCommand<vscode.TextEdit[] | undefined>('vscode.executeFormatRangeProvider', document.uri, range, options),
          ),
  };
}
