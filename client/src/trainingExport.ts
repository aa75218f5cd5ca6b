// "Harn: Export Training Example": the server projects the run record (as written on disk) and answers with the
// example's text or the refusal; the client only asks, confirms an overwrite, writes the file and shows the outcome.

import * as vscode from 'vscode';
import { LanguageClient } from 'vscode-languageclient/node';
import { ExportTrainingExampleRequest, ExportTrainingExampleResult } from '../../server/src/protocol';
import * as notify from './notify';

export const EXPORT_TRAINING_EXAMPLE_COMMAND = 'harn.exportTrainingExample';
export const UNTRUSTED_EXPORT_MESSAGE =
  'Harn: exporting a training example writes a file beside the run record, and Harn Workbench writes no file in Restricted Mode. Trust the folder to export.';

type Refusal = Extract<ExportTrainingExampleResult, { ok: false }>;

/** The file's name as the user knows it (workspace-relative when it is in the workspace). */
function shown(uri: vscode.Uri): string {
  return vscode.workspace.asRelativePath(uri, false);
}

export function registerTrainingExport(client: () => LanguageClient | undefined): vscode.Disposable {
  return vscode.commands.registerCommand(EXPORT_TRAINING_EXAMPLE_COMMAND, async (target?: vscode.Uri) => {
    const uri = target instanceof vscode.Uri ? target : vscode.window.activeTextEditor?.document.uri;
    const running = client();
    if (!uri) {
      void notify.error('Harn: Export Training Example needs a run record: open one, or use the explorer context menu on it.');
      return;
    }
    if (!running) return;
    // Checked first: in Restricted Mode nothing is written, so nothing is projected either.
    if (!vscode.workspace.isTrusted) {
      void notify.error(UNTRUSTED_EXPORT_MESSAGE);
      return;
    }
    const result = await notify.progress({ location: vscode.ProgressLocation.Window, title: `Harn: projecting ${shown(uri)}` }, () =>
      running.sendRequest(ExportTrainingExampleRequest, { uri: uri.toString() }),
    );
    if (!result.ok) return showRefusal(uri, result);
    const written = vscode.Uri.parse(result.target);
    const name = written.path.slice(written.path.lastIndexOf('/') + 1);
    if (result.exists) {
      const overwrite = await notify.confirm(`${shown(written)} already exists. Overwrite it with the training example of ${shown(uri)}?`, 'Overwrite');
      if (overwrite !== 'Overwrite') return;
    }
    await vscode.workspace.fs.writeFile(written, new TextEncoder().encode(result.text));
    const open = await notify.info(`Wrote ${name} (${result.messages} messages)`, 'Open');
    if (open === 'Open') await vscode.window.showTextDocument(written);
  });
}

async function showRefusal(uri: vscode.Uri, refusal: Refusal): Promise<void> {
  const where = refusal.open;
  const action = where === undefined ? undefined : where.uri === uri.toString() ? 'Open Run Record' : 'Open Row';
  // The file's name and the refusal (which may quote the record): notify shows them literally, never as a link.
  const text = `Harn: ${shown(uri)} cannot be exported as a training example — ${refusal.kind}: ${refusal.message}`;
  const picked = action === undefined ? await notify.error(text) : await notify.error(text, action);
  if (picked === undefined || where === undefined) return;
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.parse(where.uri));
  const line = Math.min(where.line, Math.max(doc.lineCount - 1, 0));
  const selection = new vscode.Selection(line, 0, line, doc.lineAt(line).text.length);
  await vscode.window.showTextDocument(doc, { selection, preview: false });
}
