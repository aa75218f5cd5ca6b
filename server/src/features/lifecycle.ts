// The end of a session: after `shutdown`, every request is refused with the LSP's InvalidRequest error (a second
// `shutdown` and a late `initialize` included) instead of being answered. `exit` then ends the process: code 0
// after `shutdown`, 1 without (vscode-languageserver's watchdog does that).

import { Connection, ErrorCodes, ResponseError } from 'vscode-languageserver';

export class ServerLifecycle {
  private shutDown = false;

  get isShutDown(): boolean {
    return this.shutDown;
  }

  /** Throws the InvalidRequest error once shutdown was requested; the JSON-RPC layer answers the request with it. */
  refuseAfterShutdown(method: string): void {
    if (this.shutDown) throw new ResponseError(ErrorCodes.InvalidRequest, `${method} refused: shutdown was requested, only exit is accepted now.`);
  }

  register(connection: Connection): void {
    connection.onShutdown(() => {
      this.refuseAfterShutdown('shutdown');
      this.shutDown = true;
    });
  }
}
