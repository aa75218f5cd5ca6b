// The VS Code client: starts the language server and renders what it reports. It parses nothing itself.

import * as path from 'node:path';
import * as vscode from 'vscode';
import { LanguageClient, LanguageClientOptions, ServerOptions, State, TransportKind } from 'vscode-languageclient/node';
import {
  HarnInitializationOptions,
  LanguageFeaturesNotification,
  LanguageFeaturesParams,
  ServerStatus,
  StatusNotification,
  ValidateArtifactFileRequest,
} from '../../server/src/protocol';
import {
  inForceDetail,
  inForceLabel,
  LANGUAGE_FEATURES_SECTION,
  LanguageFeaturesMode,
  ResolvedLanguageFeatures,
  resolveLanguageFeatures,
  UPSTREAM_EXTENSION_ID,
  WHAT_STAYS,
} from './languageFeatures';
import { registerDirectiveTree } from './directiveTree';
import { registerRunControlTree } from './runControlTree';
import { registerTrainingExport } from './trainingExport';
import { registerRunPipeline } from './runPipeline';
import { formattingHandOff } from './formattingHandOff';
import * as notify from './notify';

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
  // Untrusted folders: the extension spawns no process (Run Pipeline refuses) and writes no file, and says so.
  const trustNote = (): string => (vscode.workspace.isTrusted ? '' : ' · Restricted Mode: files are only read; no process is run and no file is written');

  // Beside upstream's extension (same `harn` language), our .harn language features step back in `auto`.
  // Installed-and-enabled is the test, not isActive: both activate on onLanguage:harn, so waiting would race.
  const resolveNow = (): ResolvedLanguageFeatures =>
    resolveLanguageFeatures(
      vscode.workspace.getConfiguration('harn').get<unknown>(LANGUAGE_FEATURES_SECTION),
      vscode.extensions.getExtension(UPSTREAM_EXTENSION_ID) !== undefined,
    );
  let languageFeatures = resolveNow();
  /** What the running server was last told (at start or by notification). */
  let told: LanguageFeaturesParams | undefined;
  const languageStatus = vscode.languages.createLanguageStatusItem('harn.languageFeatures', { language: 'harn' });
  languageStatus.name = 'Harn language features';
  languageStatus.command = { title: 'Switch', command: 'harn.chooseLanguageFeatures', tooltip: `Choose who serves .harn language features. ${WHAT_STAYS}` };
  context.subscriptions.push(languageStatus);
  const renderLanguageFeatures = (): void => {
    languageStatus.text = `Harn language features: ${inForceLabel(languageFeatures.inForce)}`;
    languageStatus.detail = inForceDetail(languageFeatures);
    languageStatus.severity = languageFeatures.invalid === undefined ? vscode.LanguageStatusSeverity.Information : vscode.LanguageStatusSeverity.Warning;
  };
  renderLanguageFeatures();

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
    middleware: { ...formattingHandOff(() => languageFeatures.enabled) },
    // A function: a restart sends the choice in force then.
    initializationOptions: (): HarnInitializationOptions => {
      told = { enabled: languageFeatures.enabled, reason: languageFeatures.reason };
      return { languageFeatures: told };
    },
  };
  client = new LanguageClient('harn', 'Harn Workbench', serverOptions, clientOptions);
  // The Directive Envelopes view asks the server only while it is visible (its requests wait for the start).
  context.subscriptions.push(registerDirectiveTree(client));
  context.subscriptions.push(registerRunControlTree(client));
  context.subscriptions.push(registerTrainingExport(() => client));
  // Run Pipeline plans in the client (the runWorkspace rules are pure and bundled here) and starts a task.
  context.subscriptions.push(registerRunPipeline(context, output));

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
        if (crashes === 1) void notify.warn('The Harn language server stopped unexpectedly and is being restarted. See the "Harn Workbench" log.');
      }
    }),
    client.onNotification(StatusNotification, (s: ServerStatus) => {
      status.severity = vscode.LanguageStatusSeverity.Information;
      const last = s.lastChecked ? ` · ${s.lastChecked} in ${s.lastCheckMs ?? 0} ms` : '';
      status.text = '$(check) Harn';
      status.detail = `Server ${s.state}${last}` + trustNote();
    }),
    vscode.commands.registerCommand('harn.showLog', () => output.show(true)),
    vscode.commands.registerCommand('harn.chooseLanguageFeatures', () => chooseLanguageFeatures(languageFeatures.mode)),
    vscode.commands.registerCommand('harn.validateArtifactFile', async (target?: vscode.Uri | string) => {
      // Big artifacts (over 50 MB) never reach the server through the editor: it reads them from disk.
      // The server's quick fix (too_large_to_scan) passes the file's URI as a string.
      const uri =
        (typeof target === 'string' ? vscode.Uri.parse(target) : target) ??
        vscode.window.activeTextEditor?.document.uri ??
        (await vscode.window.showOpenDialog({ canSelectMany: false, filters: { 'Run artifacts': ['jsonl', 'ndjson', 'json'] } }))?.[0];
      const running = client;
      if (!uri || !running) return;
      const result = await notify.progress(
        { location: vscode.ProgressLocation.Notification, title: `Harn: validating ${vscode.workspace.asRelativePath(uri)}` },
        () => running.sendRequest(ValidateArtifactFileRequest, { uri: uri.toString() }),
      );
      if (result.refused !== undefined) void notify.error(`Harn: ${result.refused}`);
      else if (!result.kind) void notify.info(`${vscode.workspace.asRelativePath(uri)} is not a Harn run artifact.`);
      else void notify.info(`Harn: ${result.lines} line(s) validated, ${result.problems} problem(s) — see the Problems panel.`);
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

  // Told by notification, never by restarting: the server re-checks the open .harn files itself.
  const tellServer = (): void => {
    const running = client;
    if (!running?.isRunning()) return; // a (re)start sends the current choice as initializationOptions
    if (told?.enabled === languageFeatures.enabled && told.reason === languageFeatures.reason) return;
    told = { enabled: languageFeatures.enabled, reason: languageFeatures.reason };
    void running.sendNotification(LanguageFeaturesNotification, told);
  };
  const reResolve = (): void => {
    const previous = languageFeatures;
    languageFeatures = resolveNow();
    if (previous.inForce !== languageFeatures.inForce || previous.reason !== languageFeatures.reason) {
      output.info(`Harn language features on .harn files: ${inForceLabel(languageFeatures.inForce)} (${languageFeatures.reason})`);
    }
    renderLanguageFeatures();
    tellServer();
  };
  context.subscriptions.push(
    vscode.extensions.onDidChange(reResolve),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(`harn.${LANGUAGE_FEATURES_SECTION}`)) reResolve();
    }),
  );
  output.info(`Harn language features on .harn files: ${inForceLabel(languageFeatures.inForce)} (${languageFeatures.reason})`);

  await client.start();
  // A change while the server was starting is sent now.
  tellServer();
  output.info(`Harn Workbench activated in ${Date.now() - activationStarted} ms`);
}

const MODE_CHOICES: { mode: LanguageFeaturesMode; label: string; detail: string }[] = [
  {
    mode: 'auto',
    label: 'auto',
    detail: `Harn Workbench's .harn language features unless upstream's extension (${UPSTREAM_EXTENSION_ID}) is installed`,
  },
  { mode: 'on', label: 'on', detail: "Harn Workbench's .harn language features, even beside upstream's extension" },
  { mode: 'off', label: 'off', detail: 'No .harn language features from Harn Workbench (boundary and artifact checks stay)' },
];

/** A quick pick writing harn.languageFeatures where it is set now: the workspace if it is set there, else the user settings. */
async function chooseLanguageFeatures(current: LanguageFeaturesMode): Promise<void> {
  const picked = await vscode.window.showQuickPick(
    MODE_CHOICES.map((c) => ({ ...c, description: c.mode === current ? 'in use' : undefined })),
    { title: 'Harn language features on .harn files', placeHolder: `harn.languageFeatures is ${current}` },
  );
  if (!picked || picked.mode === current) return;
  const config = vscode.workspace.getConfiguration('harn');
  const inspected = config.inspect<unknown>(LANGUAGE_FEATURES_SECTION);
  const inWorkspace = inspected?.workspaceValue !== undefined && vscode.workspace.workspaceFolders !== undefined;
  if (inWorkspace && !vscode.workspace.isTrusted) {
    // Restricted Mode: no file in the folder is written (a user setting would not win over the folder's).
    void notify.warn(
      "harn.languageFeatures is set in this workspace's settings; in Restricted Mode Harn Workbench writes no file in the folder. Change it there, or trust the folder.",
    );
    return;
  }
  await config.update(LANGUAGE_FEATURES_SECTION, picked.mode, inWorkspace ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global);
}

export async function deactivate(): Promise<void> {
  await client?.stop();
}
