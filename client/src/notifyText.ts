// The text the client hands VS Code's notifications, progress titles and input boxes, made safe in one place.
// VS Code reads `[label](command:…)` in a notification's message, a progress notification's title and message,
// and an input box's prompt and validation message as a link (server/src/text/notification.ts says how), and a
// file's name or a server's refusal quoted in them is untrusted. Our own wording never holds a link, so all of it
// passes through notificationText. notify.ts, the only caller of those VS Code functions in client/src (lint
// enforces it), applies these; this file is vscode-free (types only) and unit-tested.

import type { InputBoxOptions, InputBoxValidationMessage } from 'vscode';
import { notificationText } from '../../server/src/text/notification';

/** A notification's message, a progress title or message: as shown. */
export function shownText(text: string): string {
  return notificationText(text);
}

/** What an input box's validateInput may answer. */
export type Validation = string | InputBoxValidationMessage | undefined | null;

/** A validateInput answer as shown: its message escaped, its severity kept; no message stays none. */
export function shownValidation(answer: Validation): Validation {
  if (typeof answer === 'string') return notificationText(answer);
  if (answer) return { ...answer, message: notificationText(answer.message) };
  return answer;
}

function isThenable(value: unknown): value is Thenable<Validation> {
  return typeof (value as { then?: unknown } | null | undefined)?.then === 'function';
}

/**
 * An input box's options as shown: the prompt escaped, and every answer of validateInput (a synchronous one stays
 * synchronous); everything else as given.
 */
export function shownInputBox(options: InputBoxOptions): InputBoxOptions {
  const shown: InputBoxOptions = { ...options };
  if (options.prompt !== undefined) shown.prompt = notificationText(options.prompt);
  if (options.validateInput !== undefined) {
    shown.validateInput = (value: string) => {
      const answer = options.validateInput?.(value);
      return isThenable(answer) ? Promise.resolve(answer).then(shownValidation) : shownValidation(answer);
    };
  }
  return shown;
}
