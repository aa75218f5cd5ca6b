// The VS Code client: starts the language server and renders what it reports. It parses nothing itself.

import * as path from 'node:path';
import * as vscode from 'vscode';
import { LanguageClient, LanguageClientOptions, ServerOptions, State, TransportKind } from 'vscode-languageclient/node';
import { ServerStatus, StatusNotification, ValidateArtifactFileRequest } from '../../server/src/protocol';

let client: LanguageClient | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const activationStarted = Date.now();
  const output = vscode.window.createOutputChannel('Harn Workbench', { log: true });
  context.subscriptions.push(output);

  const status = vscode.languages.createLanguageStatusItem('harn.status', [
    { language: 'harn' },
    { pattern: '**/*.{jsonl,ndjson}' },
    { pattern: '**/{run.json,*.run.json,loud_boundaries.toml}' },
  ]);
  status.name = 'Harn Workbench';
  status.text = '$(sync~spin) Harn: starting';
  status.command = { title: 'Show log', command: 'harn.showLog' };
  context.subscriptions.push(status);
  // Untrusted folders: the extension never spawns a process or writes a file anyway, and says so.
  const trustNote = (): string => (vscode.workspace.isTrusted ? '' : ' · Restricted Mode: files are only read; no process is run and no file is written');

  const serverModule = context.asAbsolutePath(path.join('dist', 'server.js'));
  const serverOptions: ServerOptions = {
    run: { module: serverModule, transport: TransportKind.ipc },
    debug: { module: serverModule, transport: TransportKind.ipc, options: { execArgv: ['--nolazy', '--inspect=6009'] } },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: 'file', language: 'harn' },
      { scheme: 'untitled', language: 'harn' },
      // The loud-boundary gate reads the registry and Rust sources (hover on ids, fixes on unsaved text).
      { scheme: 'file', language: 'rust' },
      { scheme: 'file', pattern: '**/*.toml' },
      // Run artifacts: transcripts, event logs and other JSONL; run records are JSON (the server checks `_type`).
      { scheme: 'file', pattern: '**/*.{jsonl,ndjson}' },
      { scheme: 'file', language: 'json' },
    ],
    synchronize: {
      // Saved, created, deleted and renamed files re-run the gate for just those files.
      fileEvents: [
        vscode.workspace.createFileSystemWatcher('**/*.{harn,rs,toml,jsonl,ndjson,json}'),
        vscode.workspace.createFileSystemWatcher('**/.gitignore'),
        // Deleting a folder reports only the folder: watch deletions of everything.
        vscode.workspace.createFileSystemWatcher('**/*', true, true, false),
      ],
    },
    outputChannel: output,
    traceOutputChannel: output,
  };
  client = new LanguageClient('harn', 'Harn Workbench', serverOptions, clientOptions);

  let crashes = 0;
  let restarting = false;
  context.subscriptions.push(
    client.onDidChangeState((e) => {
      // A restart asked for by the user passes through Stopped too: that is not a crash.
      if (e.newState === State.Stopped && e.oldState === State.Running && !restarting) {
        crashes++;
        status.severity = vscode.LanguageStatusSeverity.Warning;
        status.text = '$(warning) Harn: server stopped';
        // Say it once; the client restarts the server on its own after a crash.
        if (crashes === 1)
          void vscode.window.showWarningMessage('The Harn language server stopped unexpectedly and is being restarted. See the "Harn Workbench" log.');
      }
    }),
    client.onNotification(StatusNotification, (s: ServerStatus) => {
      status.severity = vscode.LanguageStatusSeverity.Information;
      const last = s.lastChecked ? ` · ${s.lastChecked} in ${s.lastCheckMs ?? 0} ms` : '';
      status.text = '$(check) Harn';
      status.detail = `Server ${s.state}${last}` + trustNote();
    }),
    vscode.commands.registerCommand('harn.showLog', () => output.show(true)),
    vscode.commands.registerCommand('harn.validateArtifactFile', async (target?: vscode.Uri | string) => {
      // Big artifacts (over 50 MB) never reach the server through the editor: it reads them from disk.
      // The server's quick fix (too_large_to_scan) passes the file's URI as a string.
      const uri =
        (typeof target === 'string' ? vscode.Uri.parse(target) : target) ??
        vscode.window.activeTextEditor?.document.uri ??
        (await vscode.window.showOpenDialog({ canSelectMany: false, filters: { 'Run artifacts': ['jsonl', 'ndjson', 'json'] } }))?.[0];
      const running = client;
      if (!uri || !running) return;
      const result = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: `Harn: validating ${vscode.workspace.asRelativePath(uri)}` },
        () => running.sendRequest(ValidateArtifactFileRequest, { uri: uri.toString() }),
      );
      if (result.refused !== undefined) void vscode.window.showErrorMessage(`Harn: ${result.refused}`);
      else if (!result.kind) void vscode.window.showInformationMessage(`${vscode.workspace.asRelativePath(uri)} is not a Harn run artifact.`);
      else void vscode.window.showInformationMessage(`Harn: ${result.lines} line(s) validated, ${result.problems} problem(s) — see the Problems panel.`);
    }),
    vscode.commands.registerCommand('harn.restartServer', async () => {
      output.info('Restarting the Harn language server');
      restarting = true;
      try {
        await client?.restart();
      } finally {
        restarting = false;
      }
    }),
  );

  status.detail = trustNote();
  context.subscriptions.push(
    vscode.workspace.onDidGrantWorkspaceTrust(() => {
      status.detail = (status.detail ?? '').replace(/ · Restricted Mode:.*$/, '');
    }),
  );

  await client.start();
  output.info(`Harn Workbench activated in ${Date.now() - activationStarted} ms`);
}

export async function deactivate(): Promise<void> {
  await client?.stop();
}
