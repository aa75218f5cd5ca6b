// "Harn: Run Pipeline" and "Harn: Run Pipeline With Input…": `harn run <file>` as a task with a process execution
// (an argument array, never a shell), in the directory the user said or not at all. The decisions are the
// runWorkspace domain's (planRun, bundled here: it is pure); this file asks, reads the input, and renders them.

import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { planRun, type RunPlan, type RunRequest } from '../../server/src/runWorkspace/plan';
import type { RunWorkspaceConfig } from '../../server/src/runWorkspace/rules';
import * as notify from './notify';
import { describeRun, executionFor, readRunSettings, RUN_SECTION, type RunSettingKey, UNTRUSTED_RUN_MESSAGE } from './runSettings';

export const RUN_PIPELINE_COMMAND = 'harn.runPipeline';
export const RUN_PIPELINE_WITH_INPUT_COMMAND = 'harn.runPipelineWithInput';
/** The task type (contributes.taskDefinitions). */
export const RUN_TASK_TYPE = 'harn';

/** What a command did, returned to its caller (the extension-host tests read it; a person sees the messages). */
export type RunOutcome = { started: true; plan: RunPlan; viaLauncher: boolean } | { started: false; refused: string } | { started: false; cancelled: true };

function shown(uri: vscode.Uri): string {
  return vscode.workspace.asRelativePath(uri, false);
}

export function registerRunPipeline(context: vscode.ExtensionContext, output: vscode.LogOutputChannel): vscode.Disposable {
  const launcher = context.asAbsolutePath(path.join('dist', 'runLauncher.js'));
  const run = (withInput: boolean) => async (target?: vscode.Uri, input?: vscode.Uri) => {
    const outcome = await runPipeline(
      withInput,
      target instanceof vscode.Uri ? target : undefined,
      input instanceof vscode.Uri ? input : undefined,
      launcher,
      output,
    );
    if (!outcome.started && 'refused' in outcome) {
      output.warn(outcome.refused);
      void notify.error(outcome.refused);
    }
    return outcome;
  };
  return vscode.Disposable.from(
    vscode.commands.registerCommand(RUN_PIPELINE_COMMAND, run(false)),
    vscode.commands.registerCommand(RUN_PIPELINE_WITH_INPUT_COMMAND, run(true)),
    vscode.tasks.onDidEndTaskProcess((e) => {
      const definition = e.execution.task.definition;
      if (definition.type === RUN_TASK_TYPE && typeof definition['pipeline'] === 'string') {
        output.info(`Run of ${definition['pipeline']} ended with status ${e.exitCode ?? 'unknown'}`);
      }
    }),
  );
}

/** Set at some level: VS Code answers `{}` for an object setting nobody set, which must mean "ask", not a bad value. */
function isSet(config: vscode.WorkspaceConfiguration, key: string): boolean {
  const seen = config.inspect<unknown>(key);
  return [
    seen?.globalValue,
    seen?.workspaceValue,
    seen?.workspaceFolderValue,
    seen?.globalLanguageValue,
    seen?.workspaceLanguageValue,
    seen?.workspaceFolderLanguageValue,
  ].some((v) => v !== undefined);
}

const refused = (message: string): RunOutcome => ({ started: false, refused: `Harn: ${message}` });
const cancelled: RunOutcome = { started: false, cancelled: true };

async function runPipeline(
  withInput: boolean,
  target: vscode.Uri | undefined,
  inputTarget: vscode.Uri | undefined,
  launcher: string,
  output: vscode.LogOutputChannel,
): Promise<RunOutcome> {
  const title = withInput ? 'Run Pipeline With Input…' : 'Run Pipeline';
  // Checked first: in Restricted Mode no process starts, so nothing is asked either.
  if (!vscode.workspace.isTrusted) return refused(UNTRUSTED_RUN_MESSAGE.replace(/^Harn: /, ''));
  const active = vscode.window.activeTextEditor?.document;
  const pipelineUri = target ?? (active?.languageId === 'harn' ? active.uri : undefined);
  if (!pipelineUri) return refused(`${title} needs a .harn pipeline: open one, or use the explorer or editor context menu on it. Nothing was started.`);
  if (pipelineUri.scheme !== 'file') {
    return refused(`${shown(pipelineUri)} is not a file on disk (${pipelineUri.scheme}:): harn runs a saved file. Save it first. Nothing was started.`);
  }
  const name = shown(pipelineUri);
  const notRun = (why: string): RunOutcome => refused(`${name} was not run — ${why}`);
  // harn reads the file from disk: what the editor shows is what runs.
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === pipelineUri.toString());
  if (open?.isDirty && !(await open.save())) return notRun('it has unsaved changes that could not be saved.');

  const config = vscode.workspace.getConfiguration(`harn.${RUN_SECTION}`, pipelineUri);
  const read = readRunSettings((key: RunSettingKey) => (isSet(config, key) ? config.get<unknown>(key) : undefined));
  if (!read.ok) return notRun(`${read.message}. Fix the setting; nothing was started.`);
  const { settings } = read;

  let input: RunRequest['input'];
  if (withInput) {
    const inputUri =
      inputTarget ??
      (
        await vscode.window.showOpenDialog({
          title: `The input of ${name} (JSON)`,
          openLabel: 'Run With This Input',
          canSelectMany: false,
          defaultUri: vscode.Uri.file(path.dirname(pipelineUri.fsPath)),
          filters: { 'Run input (JSON)': ['json'], 'All files': ['*'] },
        })
      )?.[0];
    if (!inputUri) return cancelled;
    if (inputUri.scheme !== 'file') return notRun(`its input ${shown(inputUri)} is not a file on disk.`);
    let bytes: Uint8Array;
    try {
      bytes = await vscode.workspace.fs.readFile(inputUri);
    } catch (error) {
      return notRun(`its input ${shown(inputUri)} could not be read: ${error instanceof Error ? error.message : String(error)}`);
    }
    input = { path: inputUri.fsPath, bytes };
  }

  let workspace = settings.workspace;
  if (workspace === undefined) {
    const asked = await askDirectory(pipelineUri);
    if (asked === undefined) return cancelled;
    workspace = asked;
  }

  const request: RunRequest = {
    pipeline: pipelineUri.fsPath,
    binary: settings.binary,
    extraArgs: settings.extraArgs,
    workspace,
    reserved: settings.reserved,
    env: settings.env,
    ...(input === undefined ? {} : { input }),
  };
  const planned = planRun(request, { env: process.env, stat: (p) => fs.statSync(p) });
  if (!planned.ok) return notRun(planned.message);
  const { plan } = planned;

  const execution = executionFor(plan, { execPath: process.execPath, electron: process.versions.electron !== undefined, launcher, env: process.env });
  const folder = vscode.workspace.getWorkspaceFolder(pipelineUri);
  const definition: vscode.TaskDefinition = { type: RUN_TASK_TYPE, pipeline: pipelineUri.fsPath, ...(input ? { input: input.path } : {}) };
  const task = new vscode.Task(
    definition,
    folder ?? vscode.TaskScope.Workspace,
    `run ${path.basename(pipelineUri.fsPath)}`,
    'Harn',
    new vscode.ProcessExecution(execution.command, execution.args, { cwd: execution.cwd, ...(execution.env ? { env: execution.env } : {}) }),
    [],
  );
  task.presentationOptions = { reveal: vscode.TaskRevealKind.Always, panel: vscode.TaskPanelKind.Dedicated, clear: true, echo: true, focus: false };
  output.info(`Run ${name}: ${describeRun(plan)}${execution.viaLauncher ? ' (through dist/runLauncher.js)' : ''}`);
  await vscode.tasks.executeTask(task);
  return { started: true, plan, viaLauncher: execution.viaLauncher };
}

interface DirectoryChoice extends vscode.QuickPickItem {
  directory?: string;
}

/**
 * harn.run.workspace is unset: ask (never a default directory), then offer to save the answer to the folder's
 * settings as {"fixed": …}. Undefined: the user cancelled, nothing starts.
 */
async function askDirectory(pipeline: vscode.Uri): Promise<RunWorkspaceConfig | undefined> {
  const here = path.dirname(pipeline.fsPath);
  const folder = vscode.workspace.getWorkspaceFolder(pipeline);
  const choices: DirectoryChoice[] = [{ label: "This file's folder", description: here, directory: here }];
  if (folder) choices.push({ label: 'The workspace folder', description: folder.uri.fsPath, directory: folder.uri.fsPath });
  choices.push({ label: 'Pick a folder…', description: 'choose the directory harn runs in' });
  const picked = await vscode.window.showQuickPick(choices, {
    title: `Where should harn run ${path.basename(pipeline.fsPath)}?`,
    placeHolder: 'harn.run.workspace is not set: pick the directory the pipeline runs in',
    ignoreFocusOut: true,
  });
  if (!picked) return undefined;
  let directory = picked.directory;
  if (directory === undefined) {
    const chosen = await vscode.window.showOpenDialog({
      title: `The directory harn runs ${path.basename(pipeline.fsPath)} in`,
      canSelectFiles: false,
      canSelectFolders: true,
      canSelectMany: false,
      openLabel: 'Run Here',
      defaultUri: folder?.uri ?? vscode.Uri.file(here),
    });
    directory = chosen?.[0]?.fsPath;
    if (directory === undefined) return undefined;
  }
  const workspace: RunWorkspaceConfig = { fixed: directory };
  if (!folder) return workspace; // no folder settings to save it in
  const save = await vscode.window.showQuickPick(
    [
      {
        label: 'Run, and save this choice',
        description: `harn.run.workspace = {"fixed": ${JSON.stringify(directory)}} in ${folder.name}'s settings`,
        save: true,
      },
      { label: 'Run this time only', save: false },
    ],
    { title: `Run in ${directory}`, placeHolder: 'Save this choice for the next runs?', ignoreFocusOut: true },
  );
  if (!save) return undefined;
  if (save.save)
    await vscode.workspace.getConfiguration(`harn.${RUN_SECTION}`, folder.uri).update('workspace', workspace, vscode.ConfigurationTarget.WorkspaceFolder);
  return workspace;
}
