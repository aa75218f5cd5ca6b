// Appends one line to a run-control inbox (the only file the server writes for run control): one write(2) of the
// whole line with O_APPEND, so a reader never sees half a line and nothing already there is rewritten. The file
// must lie inside a workspace folder, through no symbolic link: its folder is resolved (realpath) and checked
// against the folders' real paths, and the file itself is opened with O_NOFOLLOW (a symlink is refused).

import * as fs from 'node:fs';
import * as path from 'node:path';
import { isWithin } from './folders';

export type AppendResult = { ok: true; bytes: number } | { ok: false; message: string };

function realOrUndefined(p: string): string | undefined {
  try {
    return fs.realpathSync(p);
  } catch {
    return undefined;
  }
}

/** Where `file` may be appended to, or why not (outside every folder, through a symlink, not a regular file). */
export function inboxRefusal(file: string, roots: readonly string[]): string | undefined {
  const absolute = path.resolve(file);
  const inside = roots.filter((root) => isWithin(absolute, path.resolve(root)));
  if (inside.length === 0) return `The inbox ${absolute} is outside the workspace folders: nothing is written there.`;
  const dir = path.dirname(absolute);
  const folder = realOrUndefined(dir);
  if (folder === undefined) return `The inbox's folder ${dir} does not exist.`;
  // Below its workspace folder, no component may be a link: the real folder is the folder's real root plus the same path.
  const direct = inside.some((root) => {
    const realRoot = realOrUndefined(root);
    return realRoot !== undefined && folder === path.join(realRoot, path.relative(path.resolve(root), dir));
  });
  if (!direct) return `The inbox's folder ${dir} is reached through a symbolic link: nothing is written through one.`;
  let stats: fs.Stats | undefined;
  try {
    stats = fs.lstatSync(absolute);
  } catch {
    return undefined; // created by the append
  }
  if (stats.isSymbolicLink()) return `The inbox ${absolute} is a symbolic link: nothing is written through one.`;
  if (!stats.isFile()) return `The inbox ${absolute} is not a regular file.`;
  return undefined;
}

/**
 * Appends `line` and a line feed in one write. A file whose last byte is not a line feed would join the new
 * request to a half line: refused instead (the host is writing, or the file is not an inbox).
 */
export function appendInboxLine(file: string, line: string, roots: readonly string[]): AppendResult {
  if (/[\r\n]/.test(line)) return { ok: false, message: 'A request is one line: it must not contain a line break.' };
  const refusal = inboxRefusal(file, roots);
  if (refusal) return { ok: false, message: refusal };
  const bytes = Buffer.from(line + '\n', 'utf8');
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDWR | fs.constants.O_APPEND | fs.constants.O_CREAT | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK, 0o644);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return {
      ok: false,
      message:
        code === 'ELOOP'
          ? `The inbox ${file} is a symbolic link: nothing is written through one.`
          : `The inbox ${file} cannot be opened (${code ?? String(error)}).`,
    };
  }
  try {
    const stats = fs.fstatSync(fd);
    if (!stats.isFile()) return { ok: false, message: `The inbox ${file} is not a regular file.` };
    if (stats.size > 0) {
      const last = Buffer.alloc(1);
      fs.readSync(fd, last, 0, 1, stats.size - 1);
      if (last[0] !== 0x0a) return { ok: false, message: `The inbox ${file} does not end with a line break: a request appended now would join its last line.` };
    }
    const written = fs.writeSync(fd, bytes);
    if (written !== bytes.length) return { ok: false, message: `Only ${written} of ${bytes.length} bytes reached the inbox ${file}.` };
    return { ok: true, bytes: written };
  } catch (error) {
    return { ok: false, message: `The inbox ${file} cannot be written (${(error as NodeJS.ErrnoException).code ?? String(error)}).` };
  } finally {
    fs.closeSync(fd);
  }
}
