// The client's one way to show a notification, a progress title or an input box: every text goes through
// notifyText.ts (notificationText), so a file's name or a refusal quoted in it shows as the characters it is,
// never as a clickable link. Lint (eslint.config.mjs) forbids vscode.window.show{Information,Warning,Error}Message,
// withProgress and showInputBox anywhere else in client/src. Each returns what VS Code returns (the button chosen,
// the task's result, the input). Import it as a namespace: `notify.error(…)` (a catch's `error` would hide `error`).

import * as vscode from 'vscode';
import { shownInputBox, shownText } from './notifyText';

export function info<T extends string>(text: string, ...buttons: T[]): Thenable<T | undefined> {
  return vscode.window.showInformationMessage(shownText(text), ...buttons);
}

export function warn<T extends string>(text: string, ...buttons: T[]): Thenable<T | undefined> {
  return vscode.window.showWarningMessage(shownText(text), ...buttons);
}

export function error<T extends string>(text: string, ...buttons: T[]): Thenable<T | undefined> {
  return vscode.window.showErrorMessage(shownText(text), ...buttons);
}

/** A modal warning asking to go on: the button chosen, undefined when the user cancelled. */
export function confirm<T extends string>(text: string, ...buttons: T[]): Thenable<T | undefined> {
  return vscode.window.showWarningMessage(shownText(text), { modal: true }, ...buttons);
}

type Report = { message?: string; increment?: number };

/** withProgress with its title and every reported message shown as text. */
export function progress<R>(
  options: vscode.ProgressOptions,
  task: (progress: vscode.Progress<Report>, token: vscode.CancellationToken) => Thenable<R>,
): Thenable<R> {
  const shown = options.title === undefined ? options : { ...options, title: shownText(options.title) };
  return vscode.window.withProgress(shown, (reporter, token) =>
    task({ report: (value: Report) => reporter.report(value.message === undefined ? value : { ...value, message: shownText(value.message) }) }, token),
  );
}

/** showInputBox with its prompt and validation messages shown as text. */
export function inputBox(options: vscode.InputBoxOptions): Thenable<string | undefined> {
  return vscode.window.showInputBox(shownInputBox(options));
}
