// The workspace folders of a multi-root window: each has its own settings (the `resource`-scoped ones as that
// folder resolves them), and a file belongs to the innermost folder that contains it. Files outside every
// folder (a folder-less window, a loose file) take the window's settings.

import { readSettings, WorkbenchSettings } from './settings';

export interface FolderConfig {
  /** The folder's absolute path (as `uriToPath` gives it). */
  root: string;
  settings: WorkbenchSettings;
}

/** A path as compared: separators unified, no trailing separator, case folded on Windows-style paths. */
function comparable(p: string): { text: string; separator: string } {
  // `C:\…`, `c:/…` or a UNC path `\\server\share`: Windows file systems ignore case and accept both separators.
  const windows = /^[A-Za-z]:([\\/]|$)/.test(p) || /^[\\/]{2}[^\\/]/.test(p);
  const separator = windows ? '\\' : '/';
  let text = windows ? p.replace(/\//g, '\\').toLowerCase() : p;
  // Trailing separators go, except the one of a file system root (`/`, `c:\`).
  while (text.length > 1 && text.endsWith(separator) && !(windows && /^[a-z]:\\$/.test(text))) text = text.slice(0, -1);
  return { text, separator };
}

/** Whether `file` is `root` itself or lies under it (a sibling `/a/foobar` is not under `/a/foo`). */
export function isWithin(file: string, root: string): boolean {
  const f = comparable(file);
  const r = comparable(root);
  if (f.separator !== r.separator) return false;
  if (f.text === r.text) return true;
  const prefix = r.text.endsWith(r.separator) ? r.text : r.text + r.separator;
  return f.text.startsWith(prefix);
}

/** The innermost folder containing `file`, or undefined when it lies outside all of them. */
export function folderOf<F extends { root: string }>(file: string, folders: readonly F[]): F | undefined {
  let best: F | undefined;
  let bestLength = -1;
  for (const folder of folders) {
    const length = comparable(folder.root).text.length;
    if (length > bestLength && isWithin(file, folder.root)) {
      best = folder;
      bestLength = length;
    }
  }
  return best;
}

/** The root of the innermost folder containing `file` (see folderOf). */
export function rootOf(file: string, roots: readonly string[]): string | undefined {
  return folderOf(
    file,
    roots.map((root) => ({ root })),
  )?.root;
}

/** The settings that apply to `file`: its folder's, else the window's. */
export function settingsOf(file: string, folders: readonly FolderConfig[], outside: WorkbenchSettings): WorkbenchSettings {
  return folderOf(file, folders)?.settings ?? outside;
}

/**
 * The folders and the window's settings as a provider's configure() last received them (the defaults before the
 * first), and the settings of a file under them.
 */
export class FolderSettings {
  folders: readonly FolderConfig[] = [];
  outside: WorkbenchSettings = readSettings(undefined).settings;

  configure(folders: readonly FolderConfig[], outside: WorkbenchSettings): void {
    this.folders = folders;
    this.outside = outside;
  }

  of(file: string): WorkbenchSettings {
    return settingsOf(file, this.folders, this.outside);
  }
}

/** The roots after a `workspace/didChangeWorkspaceFolders` event: the removed ones gone, the added ones last, no duplicates. */
export function changedRoots(roots: readonly string[], removed: readonly string[], added: readonly string[]): string[] {
  const same = (a: string, b: string): boolean => comparable(a).text === comparable(b).text;
  const kept = roots.filter((root) => !removed.some((r) => same(r, root)));
  for (const root of added) if (!kept.some((k) => same(k, root))) kept.push(root);
  return kept;
}
