// The "Run Controls" view (issue 12) and its commands: renders the server's harn/runControlTree for the run-control
// log last made active (or the last one shown), asked only while the view is visible; composes steer and interrupt
// requests through harn/runControlCompose. The client parses nothing and writes no file: the server builds, checks
// and appends each request; the items and words come from runControlTreeModel.ts; what it does as the Directive
// Envelopes view does, serverTree.ts.

import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import {
  type RunControlCommandInput,
  RunControlComposeRequest,
  type RunControlComposeResult,
  RunControlTreeChangedNotification,
  RunControlTreeRequest,
  type RunControlTreeResult,
} from '../../server/src/protocol';
import {
  childElements,
  COMMANDS,
  type ComposeTarget,
  composeTarget,
  controlTarget,
  COPY_INSTEAD,
  DELIVERY_SETTING,
  type Delivery,
  deliveredText,
  FORCE_ITEMS,
  interruptPrompt,
  itemView,
  readDelivery,
  refusalText,
  rootElements,
  type RunControlElement,
  SHOWN_CONTEXT_KEY,
  steerPrompt,
  UNTRUSTED_INBOX_MESSAGE,
  validationText,
  VIEW_ID,
} from './runControlTreeModel';
import * as notify from './notify';
import { errorText, registerServerTree, ServerTreeProvider } from './serverTree';
import { failedMessage } from './treeItemView';

class RunControlTreeProvider extends ServerTreeProvider<RunControlElement, RunControlTreeResult> {
  /** The log shown: the last file the server answered a tree for. */
  shown: vscode.Uri | undefined;
  /** A file made active since, not yet asked about: shown if the server says it is a run-control log. */
  private candidate: vscode.Uri | undefined;
  /** The candidate last found not to be a log while none is shown (its message is the view's content). */
  private notLog: vscode.Uri | undefined;

  constructor(client: LanguageClient) {
    super(client, itemView);
  }

  offer(uri: vscode.Uri): void {
    if (uri.toString() === this.shown?.toString()) return;
    this.candidate = uri;
    void vscode.commands.executeCommand('setContext', SHOWN_CONTEXT_KEY, true);
    this.invalidate();
  }

  concerns(uri: string): boolean {
    return [this.shown, this.candidate, this.notLog].some((known) => known !== undefined && known.toString() === vscode.Uri.parse(uri).toString());
  }

  private async ask(uri: vscode.Uri): Promise<RunControlTreeResult> {
    return this.client.sendRequest(RunControlTreeRequest, { uri: uri.toString() });
  }

  private setShown(uri: vscode.Uri | undefined): void {
    this.shown = uri;
    if (this.view) this.view.description = uri ? vscode.workspace.asRelativePath(uri) : undefined;
  }

  async getChildren(element?: RunControlElement): Promise<RunControlElement[]> {
    if (element) return childElements(element);
    const latest = this.newQuestion();
    try {
      const candidate = this.candidate;
      if (candidate !== undefined) {
        const answer = await this.ask(candidate);
        if (!latest()) return [];
        this.candidate = undefined;
        this.failure = undefined;
        if (answer !== null) {
          this.setShown(candidate);
          this.notLog = undefined;
          this.result = answer;
        } else if (this.shown === undefined) {
          this.notLog = candidate; // nothing shown before: say why this one is not
          this.result = null;
        }
      }
      if (this.shown !== undefined && this.result === undefined) {
        const shown = this.shown;
        const answer = await this.ask(shown);
        if (!latest() || shown !== this.shown) return [];
        this.result = answer;
        this.failure = undefined;
      }
    } catch (error) {
      if (!latest()) return [];
      this.failure = errorText(error);
    }
    if (this.failure !== undefined) return [failedMessage(this.failure)];
    return rootElements(this.result, this.notLog === undefined ? undefined : vscode.workspace.asRelativePath(this.notLog));
  }
}

/**
 * How this request goes out: the setting, except that Restricted Mode never appends (the user is told why and may
 * copy instead). Undefined: the user declined.
 */
async function chooseDelivery(): Promise<Delivery | undefined> {
  const delivery = readDelivery(vscode.workspace.getConfiguration().get<unknown>(DELIVERY_SETTING));
  if (delivery === 'clipboard' || vscode.workspace.isTrusted) return delivery;
  const pick = await notify.warn(UNTRUSTED_INBOX_MESSAGE, COPY_INSTEAD);
  return pick === COPY_INSTEAD ? 'clipboard' : undefined;
}

export function registerRunControlTree(client: LanguageClient): vscode.Disposable {
  const provider = new RunControlTreeProvider(client);
  const { selected, disposable } = registerServerTree(client, {
    viewId: VIEW_ID,
    provider,
    commands: COMMANDS,
    follow: (uri) => provider.offer(uri),
    changed: RunControlTreeChangedNotification,
    onChanged: (uri) => {
      if (provider.concerns(uri)) provider.invalidate();
    },
  });

  /** Sends a compose request and tells the user what happened; true when it went out. */
  const send = async (
    target: { uri: string; runId: string },
    command: RunControlCommandInput,
    delivery: Delivery,
    retryOf?: string,
    retried = retryOf !== undefined,
  ): Promise<boolean> => {
    let result: RunControlComposeResult;
    try {
      result = await client.sendRequest(RunControlComposeRequest, { uri: target.uri, runId: target.runId, command, deliver: delivery, retryOf });
    } catch (error) {
      void notify.error(`Not sent: the Harn language server did not answer (${errorText(error)}).`);
      return false;
    }
    if (!result.ok) {
      void notify.error(refusalText(result));
      return false;
    }
    if (delivery === 'clipboard') await vscode.env.clipboard.writeText(result.line);
    void notify.info(deliveredText(result, delivery, retried));
    provider.invalidate();
    return true;
  };

  /** validateInput: the server's check of the request this text would make (same schema, same limits). */
  const checker =
    (target: ComposeTarget, command: (text: string) => RunControlCommandInput) =>
    async (text: string): Promise<string | undefined> => {
      try {
        const result = await client.sendRequest(RunControlComposeRequest, {
          uri: target.uri,
          runId: target.run.runId,
          command: command(text),
          deliver: 'check',
        });
        return validationText(result);
      } catch (error) {
        return `The Harn language server did not answer: ${errorText(error)}`;
      }
    };

  return vscode.Disposable.from(
    disposable,
    vscode.commands.registerCommand(COMMANDS.steer, async (element?: RunControlElement) => {
      const target = composeTarget(selected(element), 'Steer…');
      if ('unavailable' in target) {
        void notify.info(target.unavailable);
        return;
      }
      const delivery = await chooseDelivery();
      if (delivery === undefined) return;
      const steer = (input: string): RunControlCommandInput => ({ kind: 'steer', input });
      const input = await notify.inputBox({ ...steerPrompt(target), ignoreFocusOut: true, validateInput: checker(target, steer) });
      if (input === undefined) return;
      await send({ uri: target.uri, runId: target.run.runId }, steer(input), delivery);
    }),
    vscode.commands.registerCommand(COMMANDS.interrupt, async (element?: RunControlElement) => {
      const target = composeTarget(selected(element), 'Interrupt…');
      if ('unavailable' in target) {
        void notify.info(target.unavailable);
        return;
      }
      const delivery = await chooseDelivery();
      if (delivery === undefined) return;
      const interrupt = (reason: string, force = false): RunControlCommandInput => ({ kind: 'interrupt', reason: reason === '' ? undefined : reason, force });
      const reason = await notify.inputBox({ ...interruptPrompt(target), ignoreFocusOut: true, validateInput: checker(target, interrupt) });
      if (reason === undefined) return;
      const force = await vscode.window.showQuickPick(
        FORCE_ITEMS.map((item) => ({ ...item })),
        { title: interruptPrompt(target).title, placeHolder: 'Force the interrupt?', ignoreFocusOut: true },
      );
      if (force === undefined) return;
      await send({ uri: target.uri, runId: target.run.runId }, interrupt(reason, force.force), delivery);
    }),
    vscode.commands.registerCommand(COMMANDS.retry, async (element?: RunControlElement) => {
      const target = controlTarget(selected(element), 'Retry');
      if ('unavailable' in target) {
        void notify.info(target.unavailable);
        return;
      }
      const delivery = await chooseDelivery();
      if (delivery === undefined) return;
      // The server re-sends the earlier request's exact bytes; the command given here is ignored.
      await send({ uri: target.uri, runId: target.run.runId }, { kind: 'steer', input: '' }, delivery, target.control.requestId);
    }),
    vscode.commands.registerCommand(COMMANDS.copyRequest, async (element?: RunControlElement) => {
      const target = controlTarget(selected(element), 'Copy Request');
      if ('unavailable' in target) {
        void notify.info(target.unavailable);
        return;
      }
      await send({ uri: target.uri, runId: target.run.runId }, { kind: 'steer', input: '' }, 'clipboard', target.control.requestId, false);
    }),
  );
}
