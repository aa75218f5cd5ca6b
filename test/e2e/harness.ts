// End-to-end harness: a real VS Code (code-server 4.139.1 = VS Code 1.139.1) with the packaged
// extension installed, opened on a temporary copy of a fixture workspace in Debian's chromium,
// driven headless through playwright-core. Everything it starts, teardown() ends.
//
// Waits are DOM conditions with timeouts, never fixed sleeps.
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';

export const repoRoot = resolve(__dirname, '..', '..');
export const screenshotDir = join(repoRoot, '.e2e-screenshots');
export const vsixPath = join(repoRoot, 'dist', 'harn-workbench.vsix');
const toolchainFile = join(repoRoot, '.cache', 'e2e', 'toolchain.json');

// Flags for chromium running as root in a container without a GPU or network.
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

// User settings that keep the workbench quiet and predictable: no chat side bar, no welcome page.
const USER_SETTINGS = {
  'workbench.startupEditor': 'none',
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'workbench.tips.enabled': false,
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'chat.disableAIFeatures': true,
  'chat.commandCenter.enabled': false,
  'extensions.ignoreRecommendations': true,
  'extensions.autoUpdate': false,
  'extensions.autoCheckUpdates': false,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'security.workspace.trust.enabled': false,
  'git.enabled': false,
  'editor.minimap.enabled': false,
  // Inlay hints (our parameter names) are rendered inside a line's text, which the scenarios read and click on.
  'editor.inlayHints.enabled': 'off',
  // One tree item per folder, so openFileFromExplorer can click its way down a path.
  'explorer.compactFolders': false,
  'editor.hover.delay': 100,
  'files.autoSave': 'off',
};

export interface Toolchain {
  node: string;
  codeServerEntry: string;
  chromium: string;
  codeServerVersion: string;
}

export type ToolchainResult = { ok: true; toolchain: Toolchain } | { ok: false; reason: string };

/**
 * Runs scripts/e2e/setup.mjs (about a second once cached). Exit 3 means the toolchain cannot be
 * installed on this machine (missing Debian packages and not root): the caller skips with the
 * reason. Any other failure throws, so a broken install fails the suite instead of hiding.
 */
export function ensureToolchain(): ToolchainResult {
  // Its progress goes to our stderr (a first install takes minutes); its errors are kept.
  const result = spawnSync(process.execPath, [join(repoRoot, 'scripts', 'e2e', 'setup.mjs')], {
    cwd: repoRoot,
    encoding: 'utf8',
    stdio: ['ignore', 2, 'pipe'],
  });
  if (result.stderr) process.stderr.write(result.stderr);
  if (result.status === 3) {
    const reason = result.stderr.trim().split('\n').pop() ?? 'e2e toolchain unavailable';
    return { ok: false, reason: reason.replace(/^\[e2e setup\] /, '') };
  }
  if (result.status !== 0) {
    throw new Error(`scripts/e2e/setup.mjs failed (exit ${result.status}):\n${result.stderr}`);
  }
  return { ok: true, toolchain: JSON.parse(readFileSync(toolchainFile, 'utf8')) as Toolchain };
}

/**
 * Builds and packages the extension (scripts/e2e/package.mjs) and returns the .vsix path.
 * HARN_E2E_VSIX=path tests an already packaged .vsix instead.
 */
export function packageExtension(): string {
  const given = process.env.HARN_E2E_VSIX;
  if (given) {
    if (!existsSync(given)) throw new Error(`HARN_E2E_VSIX=${given} does not exist`);
    return resolve(given);
  }
  const result = spawnSync(process.execPath, [join(repoRoot, 'scripts', 'e2e', 'package.mjs')], {
    cwd: repoRoot,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (result.status !== 0 || !existsSync(vsixPath)) {
    throw new Error(`packaging the extension failed (exit ${result.status}):\n${result.stdout}\n${result.stderr}`);
  }
  return vsixPath;
}

/**
 * Packages a stand-in for another extension as a .vsix in a temporary folder (returned with it, for the
 * caller to remove): `publisher.name` as its id, registering `language` for `.<language>` files, and a
 * hover provider on it whose text is `hoverMarker`, so that a test has something to wait for in a hover
 * that should hold nothing of ours. With `formatMarker`, also a document formatter that inserts that line at the
 * top (to see whose formatter ran). No dependencies; vsce runs without a network.
 */
export function packageStandInExtension(options: { publisher: string; name: string; language: string; hoverMarker: string; formatMarker?: string }): {
  vsix: string;
  dir: string;
} {
  const dir = mkdtempSync(join(tmpdir(), 'harn-e2e-stand-in-'));
  const manifest = {
    name: options.name,
    publisher: options.publisher,
    displayName: `Stand-in for ${options.publisher}.${options.name} (Harn Workbench tests)`,
    description: 'A test double: registers the language and a marker hover, nothing else.',
    version: '0.0.1',
    license: 'MIT',
    engines: { vscode: '^1.100.0' },
    main: './extension.js',
    activationEvents: [`onLanguage:${options.language}`],
    contributes: { languages: [{ id: options.language, extensions: [`.${options.language}`] }] },
  };
  writeFileSync(join(dir, 'package.json'), JSON.stringify(manifest, null, 2));
  writeFileSync(join(dir, 'README.md'), `# ${manifest.displayName}\n\n${manifest.description}\n`);
  writeFileSync(join(dir, 'LICENSE'), 'MIT\n');
  writeFileSync(
    join(dir, 'extension.js'),
    [
      "const vscode = require('vscode');",
      'exports.activate = (context) => {',
      `  context.subscriptions.push(vscode.languages.registerHoverProvider(${JSON.stringify(options.language)}, { provideHover: () => new vscode.Hover(${JSON.stringify(options.hoverMarker)}) }));`,
      ...(options.formatMarker === undefined
        ? []
        : [
            `  context.subscriptions.push(vscode.languages.registerDocumentFormattingEditProvider(${JSON.stringify(options.language)}, { provideDocumentFormattingEdits: () => [vscode.TextEdit.insert(new vscode.Position(0, 0), ${JSON.stringify(`${options.formatMarker}\n`)})] }));`,
          ]),
      '};',
      'exports.deactivate = () => undefined;',
      '',
    ].join('\n'),
  );
  const vsix = join(dir, `${options.publisher}.${options.name}.vsix`);
  const vsce = join(repoRoot, 'node_modules', '@vscode', 'vsce', 'vsce');
  const result = spawnSync(process.execPath, [vsce, 'package', '--no-dependencies', '--allow-missing-repository', '-o', vsix], {
    cwd: dir,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 120_000,
  });
  if (result.status !== 0 || !existsSync(vsix)) {
    throw new Error(`packaging the stand-in ${options.publisher}.${options.name} failed (exit ${result.status}):\n${result.stdout}\n${result.stderr}`);
  }
  return { vsix, dir };
}

function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolvePort(port));
    });
  });
}

export async function waitFor<T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined> | T | undefined): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: string | undefined;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      lastError = String(error);
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${lastError ? `: ${lastError}` : ''}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

function findFiles(dir: string, match: (name: string) => boolean, out: string[] = []): string[] {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return out;
  }
  for (const name of entries) {
    const path = join(dir, name);
    let isDir: boolean;
    try {
      isDir = statSync(path).isDirectory();
    } catch {
      continue;
    }
    if (isDir) findFiles(path, match, out);
    else if (match(name)) out.push(path);
  }
  return out;
}

/** Epoch ms of a VS Code log line, "2026-11-30 02:01:50.409 [info] ..." in local time. */
export function logTimestamp(line: string): number {
  const m = /^(\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)\.(\d{3})/.exec(line);
  if (!m) return NaN;
  // Every group takes part in a match; an absent one (never) would make the time NaN.
  const [, y = NaN, mo = NaN, d = NaN, h = NaN, mi = NaN, sec = NaN, ms = NaN] = m.map(Number);
  return new Date(y, mo - 1, d, h, mi, sec, ms).getTime();
}

/**
 * An element as evaluateAll hands it to its callback, which runs in the page. The project compiles
 * without the DOM library: these are the few members the callbacks here read.
 */
interface PageElement {
  readonly textContent: string | null;
  readonly innerText: string;
  readonly style: { readonly top: string };
  getAttribute(name: string): string | null;
  querySelector(selector: string): PageElement | null;
  getBoundingClientRect(): { x: number; y: number; width: number; height: number };
}

export interface Problem {
  severity: 'error' | 'warning' | 'info' | 'unknown';
  text: string;
}

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export class Editor {
  readonly timings: Record<string, number> = {};
  /** Requests the page made to anything but loopback (refused). */
  readonly blockedRequests: string[] = [];
  private step = 0;
  private codeServer: ChildProcess | undefined;
  private codeServerLog = '';
  private browser: Browser | undefined;
  private pageOrUndefined: Page | undefined;
  private readonly tempRoot: string;
  readonly userDataDir: string;
  readonly extensionsDir: string;
  readonly workspace: string;
  port = 0;

  constructor(
    private readonly toolchain: Toolchain,
    private name: string,
  ) {
    this.tempRoot = mkdtempSync(join(tmpdir(), 'harn-e2e-'));
    this.userDataDir = join(this.tempRoot, 'user-data');
    this.extensionsDir = join(this.tempRoot, 'extensions');
    this.workspace = join(this.tempRoot, 'workspace');
    mkdirSync(join(this.userDataDir, 'User'), { recursive: true });
    mkdirSync(this.extensionsDir, { recursive: true });
    const settings = process.env.HARN_E2E_TRACE ? { ...USER_SETTINGS, 'harn.trace.server': 'messages' } : USER_SETTINGS;
    writeFileSync(join(this.userDataDir, 'User', 'settings.json'), JSON.stringify(settings, null, 2));
    this.clearScreenshots();
    // If the test process ends early, code-server (in its own process group) goes with it.
    process.once('exit', () => this.killCodeServer());
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      process.once(signal, () => {
        this.killCodeServer();
        process.exit(128 + (signal === 'SIGINT' ? 2 : 15));
      });
    }
  }

  /** Screenshots of this run replace the previous run's for the same scenario. */
  private clearScreenshots(): void {
    mkdirSync(screenshotDir, { recursive: true });
    for (const file of readdirSync(screenshotDir)) {
      if (file.startsWith(`${this.name}-`)) rmSync(join(screenshotDir, file), { force: true });
    }
  }

  /**
   * Starts naming screenshots after another scenario (several scenarios can share one editor):
   * .e2e-screenshots/<name>-01-<step>.png, ...
   */
  beginScenario(name: string): void {
    this.name = name;
    this.step = 0;
    this.clearScreenshots();
  }

  get page(): Page {
    if (!this.pageOrUndefined) throw new Error('the editor is not open');
    return this.pageOrUndefined;
  }

  private codeServerArgs(): string[] {
    return [
      this.toolchain.codeServerEntry,
      '--config',
      join(this.tempRoot, 'config.yaml'),
      '--user-data-dir',
      this.userDataDir,
      '--extensions-dir',
      this.extensionsDir,
    ];
  }

  private timed(name: string, started: number): void {
    this.timings[name] = Math.round(performance.now() - started);
  }

  /**
   * Installs the .vsix, starts code-server on a free loopback port and opens a copy of the
   * fixture; `overlay` (a folder) is copied over it, adding or replacing files.
   */
  async open(fixture: string, vsix: string, overlay?: string): Promise<void> {
    cpSync(fixture, this.workspace, { recursive: true });
    if (overlay) cpSync(overlay, this.workspace, { recursive: true });

    let started = performance.now();
    this.installExtension(vsix);
    this.timed('installExtensionMs', started);

    started = performance.now();
    this.port = await freePort();
    this.codeServer = spawn(
      this.toolchain.node,
      [
        ...this.codeServerArgs(),
        '--auth',
        'none',
        '--bind-addr',
        `127.0.0.1:${this.port}`,
        '--disable-telemetry',
        '--disable-update-check',
        '--disable-workspace-trust',
        '--disable-getting-started-override',
        // HARN_E2E_TRACE=1: every LSP message in the extension's log (with HARN_E2E_KEEP=1 to read it).
        ...(process.env.HARN_E2E_TRACE ? ['--log', 'trace'] : []),
        this.workspace,
      ],
      // Its own process group, so teardown ends code-server and everything it started.
      { detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: this.childEnv() },
    );
    const append = (chunk: Buffer) => {
      this.codeServerLog += chunk.toString();
      if (this.codeServerLog.length > 200_000) this.codeServerLog = this.codeServerLog.slice(-100_000);
    };
    this.codeServer.stdout?.on('data', append);
    this.codeServer.stderr?.on('data', append);
    const base = `http://127.0.0.1:${this.port}`;
    await waitFor('code-server to answer /healthz', 60_000, async () => {
      if (this.codeServer?.exitCode !== null) throw new Error(`code-server exited:\n${this.codeServerLog}`);
      const response = await fetch(`${base}/healthz`).catch(() => undefined);
      return response?.ok ? true : undefined;
    });
    this.timed('codeServerStartMs', started);

    started = performance.now();
    this.browser = await chromium.launch({ executablePath: this.toolchain.chromium, headless: true, args: CHROMIUM_ARGS });
    const context = await this.browser.newContext({ viewport: { width: 1440, height: 900 } });
    // Only loopback: anything else the page asks for is refused and recorded.
    await context.route(/^https?:/, async (route) => {
      const url = route.request().url();
      if (/^https?:\/\/(127\.0\.0\.1|localhost)(:\d+)?\//.test(url)) return route.continue();
      this.blockedRequests.push(url);
      return route.abort('blockedbyclient');
    });
    this.pageOrUndefined = await context.newPage();
    await this.page.goto(`${base}/?folder=${encodeURIComponent(this.workspace)}`);
    await this.page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    await this.page.locator('.explorer-folders-view .monaco-list-row').first().waitFor({ timeout: 60_000 });
    this.timed('workbenchReadyMs', started);
    // The remote extension host starts a few seconds after the workbench shows; opening a file
    // before it is up measures its start-up, not the extension's. Wait for it (its log file).
    await this.waitForLogLine(/Extension host with pid \d+ started/, 'remoteexthost', 60_000);
    this.timed('extensionHostReadyMs', started);
  }

  /** Installs a .vsix into this editor's extensions folder (before open(), which installs ours, for another one beside it). */
  installExtension(vsix: string): void {
    const install = spawnSync(this.toolchain.node, [...this.codeServerArgs(), '--install-extension', vsix], {
      encoding: 'utf8',
      env: this.childEnv(),
      timeout: 120_000,
    });
    if (install.status !== 0) {
      throw new Error(`code-server --install-extension ${vsix} failed (exit ${install.status}):\n${install.stdout}\n${install.stderr}`);
    }
  }

  private childEnv(): NodeJS.ProcessEnv {
    const env: NodeJS.ProcessEnv = { ...process.env };
    // Keep code-server's own files out of the user's home.
    env.XDG_CONFIG_HOME = join(this.tempRoot, 'xdg-config');
    env.XDG_DATA_HOME = join(this.tempRoot, 'xdg-data');
    env.XDG_CACHE_HOME = join(this.tempRoot, 'xdg-cache');
    // No extension gallery (code-server defaults to a public one): nothing leaves the machine.
    env.EXTENSIONS_GALLERY = '{}';
    delete env.NODE_OPTIONS;
    delete env.VSCODE_IPC_HOOK_CLI;
    return env;
  }

  /** Saves .e2e-screenshots/<scenario>-<NN>-<step>.png and returns its path. */
  async screenshot(step: string): Promise<string> {
    this.step++;
    const file = join(screenshotDir, `${this.name}-${String(this.step).padStart(2, '0')}-${step}.png`);
    await this.page.screenshot({ path: file });
    return file;
  }

  /**
   * Opens a file by clicking its explorer tree item (keyboard shortcuts can land in the Chat
   * panel) and returns the wall-clock time (epoch ms) of the click. `path` may name folders
   * ("pipelines/triage.harn"): each is expanded by clicking it first, and each segment is looked
   * up among the children of the one before it (two folders may both be called `src`).
   */
  async openFileFromExplorer(path: string): Promise<number> {
    const item = await this.revealExplorerItem(path);
    const clickedAt = Date.now();
    await item.click();
    const segments = path.split('/').filter(Boolean);
    await this.waitForActiveTab(segments[segments.length - 1] ?? path, 30_000);
    await this.page.locator('.editor-instance .monaco-editor .view-lines').first().waitFor({ timeout: 30_000 });
    return clickedAt;
  }

  /**
   * The explorer row of `path`, its folders expanded by clicking each; each segment is looked up among the
   * children of the one before it (two folders may both be called `src`).
   */
  async revealExplorerItem(path: string, timeoutMs = 30_000): Promise<Locator> {
    const segments = path.split('/').filter(Boolean);
    const tree = this.page.locator('.explorer-folders-view');
    let parent: { index: number; level: number } | undefined;
    let item: Locator | undefined;
    for (const [i, segment] of segments.entries()) {
      const parentRow = item;
      const found: { index: number; level: number } = await waitFor(`the explorer item ${segments.slice(0, i + 1).join('/')}`, timeoutMs, async () => {
        // A folder expanded while the tree was re-rendering (file events on a loaded machine) can end up closed
        // again: open it once more rather than wait for children that will not come.
        // Only while the row at that index is still the folder (the tree may have shifted).
        if (
          parentRow &&
          (await parentRow.getAttribute('aria-label').catch(() => null)) === segments[i - 1] &&
          (await parentRow.getAttribute('aria-expanded').catch(() => null)) === 'false'
        )
          await parentRow.click().catch(() => undefined);
        const rows = await tree
          .getByRole('treeitem', { name: segment, exact: true })
          .evaluateAll((nodes: PageElement[]) =>
            nodes.map((node) => ({ index: Number(node.getAttribute('data-index')), level: Number(node.getAttribute('aria-level')) })),
          );
        const above = parent;
        const candidates = above
          ? rows.filter((r) => r.index > above.index && r.level === above.level + 1)
          : rows.filter((r) => r.level === Math.min(...rows.map((x) => x.level)));
        return candidates.sort((a, b) => a.index - b.index)[0];
      });
      const row = tree.locator(`.monaco-list-row[role="treeitem"][data-index="${found.index}"]`);
      await row.scrollIntoViewIfNeeded();
      if (i < segments.length - 1 && (await row.getAttribute('aria-expanded')) !== 'true') {
        await row.click();
        await waitFor(`the folder ${segment} to expand`, timeoutMs, async () => ((await row.getAttribute('aria-expanded')) === 'true' ? true : undefined));
      }
      parent = found;
      item = row;
    }
    if (item === undefined) throw new Error(`revealExplorerItem needs a path, got ${JSON.stringify(path)}`);
    return item;
  }

  /** Waits for the first error squiggle in the active editor and returns its locator. */
  async waitForSquiggle(kind: 'error' | 'warning' | 'info' = 'error', timeoutMs = 60_000): Promise<Locator> {
    const squiggle = this.page.locator(`.editor-instance .monaco-editor .squiggly-${kind}`).first();
    await squiggle.waitFor({ state: 'attached', timeout: timeoutMs });
    return squiggle;
  }

  /** Screen boxes of every squiggle of a kind in the visible editor. */
  async squiggleBoxes(kind: 'error' | 'warning' | 'info' = 'error'): Promise<Box[]> {
    return this.page.locator(`.editor-instance .monaco-editor .squiggly-${kind}`).evaluateAll((nodes: PageElement[]) =>
      nodes.map((node) => {
        const r = node.getBoundingClientRect();
        return { x: r.x, y: r.y, width: r.width, height: r.height };
      }),
    );
  }

  /**
   * The screen box of one character of the visible editor text: the `occurrence`-th match of
   * `lineText` among the rendered lines, then `column` (0-based) inside it. Monaco renders spaces
   * as no-break spaces, one character each, so offsets agree with the source line.
   */
  async charBox(lineText: string, column: number): Promise<Box> {
    const box = await this.page.evaluate(
      ({ lineText, column }) => {
        // The project compiles without the DOM library: name the few browser APIs used here.
        interface Rect {
          x: number;
          y: number;
          width: number;
          height: number;
        }
        interface DomNode {
          textContent: string | null;
        }
        interface Browser {
          document: {
            querySelectorAll(selector: string): ArrayLike<DomNode>;
            createTreeWalker(root: DomNode, whatToShow: number): { nextNode(): DomNode | null };
            createRange(): { setStart(node: DomNode, offset: number): void; setEnd(node: DomNode, offset: number): void; getBoundingClientRect(): Rect };
          };
        }
        const SHOW_TEXT = 4;
        const { document } = globalThis as unknown as Browser;
        const lines = Array.from(document.querySelectorAll('.editor-instance .monaco-editor .view-lines .view-line'));
        for (const line of lines) {
          const text = (line.textContent ?? '').replace(/\u00a0/g, ' ');
          const start = text.indexOf(lineText);
          if (start < 0) continue;
          let offset = start + column;
          const walker = document.createTreeWalker(line, SHOW_TEXT);
          for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            const length = node.textContent?.length ?? 0;
            if (offset < length) {
              const range = document.createRange();
              range.setStart(node, offset);
              range.setEnd(node, offset + 1);
              const r = range.getBoundingClientRect();
              return { x: r.x, y: r.y, width: r.width, height: r.height };
            }
            offset -= length;
          }
        }
        return undefined;
      },
      { lineText, column },
    );
    if (!box) throw new Error(`no rendered line contains ${JSON.stringify(lineText)}`);
    return box;
  }

  /**
   * Clicks a character of the visible editor text (see charBox): `before` puts the caret just
   * before it, `on` clicks its middle. Waits until the editor has keyboard focus.
   */
  async clickText(lineText: string, column: number, where: 'before' | 'on' = 'on'): Promise<Box> {
    const box = await this.charBox(lineText, column);
    const x = where === 'before' ? box.x + 1 : box.x + box.width / 2;
    await this.page.mouse.click(x, box.y + box.height / 2);
    await this.page.locator('.editor-instance .monaco-editor.focused').first().waitFor({ timeout: 10_000 });
    return box;
  }

  /** The rendered lines of the active editor, top to bottom (only the lines in view). */
  async visibleLines(): Promise<string[]> {
    const lines = await this.page
      .locator('.editor-instance .monaco-editor .view-lines .view-line')
      .evaluateAll((nodes: PageElement[]) =>
        nodes.map((node) => ({ top: parseFloat(node.style.top) || 0, text: (node.textContent ?? '').replace(/\u00a0/g, ' ') })),
      );
    return lines.sort((a, b) => a.top - b.top).map((l) => l.text);
  }

  /** Waits until a rendered line of the active editor satisfies `accept`; returns every rendered line. */
  async waitForLine(what: string, accept: (line: string) => boolean, timeoutMs = 15_000): Promise<string[]> {
    let last: string[] = [];
    try {
      return await waitFor(what, timeoutMs, async () => {
        last = await this.visibleLines();
        return last.some(accept) ? last : undefined;
      });
    } catch (error) {
      throw new Error(`${String(error)}\nrendered lines:\n${last.join('\n')}`, { cause: error });
    }
  }

  /** The file name on the active editor tab. */
  async activeTabName(): Promise<string> {
    const tab = this.page.locator('.tabs-container .tab.active').first();
    await tab.waitFor({ timeout: 10_000 });
    return (await tab.getAttribute('data-resource-name')) ?? (await tab.locator('.label-name').first().innerText()).trim();
  }

  /** Waits for the active tab to be `name` (e.g. after Go to Definition). */
  async waitForActiveTab(name: string, timeoutMs = 15_000): Promise<void> {
    let last = '';
    try {
      await waitFor(`the active editor tab to be ${name}`, timeoutMs, async () => {
        last = await this.activeTabName().catch(() => '');
        return last === name ? true : undefined;
      });
    } catch (error) {
      throw new Error(`${String(error)} (the active tab is ${JSON.stringify(last)})`, { cause: error });
    }
  }

  /** The caret position from the status bar item "Ln 22, Col 8" (1-based, as shown). */
  async cursorPosition(): Promise<{ line: number; column: number; text: string }> {
    const text = (await this.page.locator('#status\\.editor\\.selection').first().innerText()).trim();
    const m = /Ln (\d+), Col (\d+)/.exec(text);
    return { line: m ? Number(m[1]) : NaN, column: m ? Number(m[2]) : NaN, text };
  }

  /** Waits until the status bar shows the caret on `line` (1-based). */
  async waitForCursorLine(line: number, timeoutMs = 10_000): Promise<{ line: number; column: number; text: string }> {
    let last = { line: NaN, column: NaN, text: '' };
    try {
      return await waitFor(`the caret on line ${line}`, timeoutMs, async () => {
        last = await this.cursorPosition().catch(() => last);
        return last.line === line ? last : undefined;
      });
    } catch (error) {
      throw new Error(`${String(error)} (the status bar shows ${JSON.stringify(last.text)})`, { cause: error });
    }
  }

  /**
   * Waits for the suggest widget of the active editor and returns its row labels (at least one).
   * It opens by itself on a trigger character; `trigger` presses Ctrl+Space first.
   */
  async suggestions(trigger = false, timeoutMs = 15_000): Promise<string[]> {
    if (trigger) await this.page.keyboard.press('Control+Space');
    const widget = this.page.locator('.editor-instance .monaco-editor .suggest-widget.visible');
    await widget.waitFor({ state: 'visible', timeout: timeoutMs });
    return waitFor('rows in the suggest widget', timeoutMs, async () => {
      const labels = await widget.locator('.monaco-list-row').evaluateAll((nodes: PageElement[]) =>
        nodes.map((node) => {
          const name = node.querySelector('.label-name');
          return (name?.textContent ?? node.getAttribute('aria-label') ?? '').trim();
        }),
      );
      return labels.length ? labels : undefined;
    });
  }

  /** Opens the Quick Fix menu at the caret (Ctrl+.) and returns the titles of its items. */
  async openCodeActions(timeoutMs = 15_000): Promise<string[]> {
    await this.page.keyboard.press('Control+Period');
    const rows = this.page.locator('.action-widget .monaco-list-row');
    await rows.first().waitFor({ state: 'visible', timeout: timeoutMs });
    return rows.evaluateAll((nodes: PageElement[]) =>
      nodes.map((node) => (node.getAttribute('aria-label') || node.textContent || '').replace(/\s+/g, ' ').trim()),
    );
  }

  /** Clicks the item of the open Quick Fix menu whose title matches, and waits for the menu to close. */
  async pickCodeAction(title: RegExp, timeoutMs = 15_000): Promise<void> {
    const row = this.page.locator('.action-widget .monaco-list-row').filter({ hasText: title }).first();
    await row.waitFor({ state: 'visible', timeout: timeoutMs });
    await row.click();
    await this.page.locator('.action-widget .monaco-list-row').first().waitFor({ state: 'hidden', timeout: timeoutMs });
  }

  /**
   * Finds `text` in the active editor with the Find widget (Ctrl+F), which selects and reveals the
   * first match after the caret, then closes the widget. Returns the widget's count ("1 of 1").
   */
  async findInEditor(text: string, timeoutMs = 10_000): Promise<string> {
    await this.page.keyboard.press('Control+F');
    const widget = this.page.locator('.editor-instance .find-widget.visible');
    await widget.waitFor({ state: 'visible', timeout: timeoutMs });
    const input = widget.locator('.find-part .input, .find-part textarea').first();
    await input.fill(text);
    const count = widget.locator('.matchesCount');
    const shown = await waitFor(`the Find widget to count matches of ${text}`, timeoutMs, async () => {
      const value = (await count.innerText()).trim();
      return /\d+ of \d+|No results/i.test(value) ? value : undefined;
    });
    await input.press('Enter');
    await this.page.keyboard.press('Escape');
    await widget.waitFor({ state: 'hidden', timeout: timeoutMs });
    return shown;
  }

  /** Hovers the first rendered occurrence of `text` and returns the hover widget's text. */
  async hoverAt(text: string, timeoutMs = 30_000): Promise<string> {
    const box = await this.charBox(text, Math.floor(text.length / 2));
    await this.page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    const hover = this.page.locator('.monaco-hover:not(.hidden) .monaco-hover-content').first();
    await hover.waitFor({ state: 'visible', timeout: timeoutMs });
    return (await hover.innerText()).trim();
  }

  /** Opens the Problems panel (through the status bar, not a shortcut) if it is not shown. */
  async showProblems(timeoutMs = 30_000): Promise<Locator> {
    const panel = this.page.locator('.markers-panel');
    if (!(await panel.isVisible())) {
      await this.page.locator('#status\\.problems').click();
      await panel.waitFor({ state: 'visible', timeout: timeoutMs });
    }
    return panel;
  }

  /** Types a filter in the Problems panel's filter box (text, or comma-separated globs such as `**\/runs/x/**`). */
  async filterProblems(filter: string): Promise<void> {
    await this.showProblems();
    const input = this.page.locator('.viewpane-filter input').first();
    await input.fill(filter);
    await input.press('Enter');
  }

  /**
   * Waits until the Problems panel's rows satisfy `accept` (e.g. a row appears, or one is gone)
   * and returns them. The panel is opened first if needed; its tree shows every file expanded.
   */
  async waitForProblems(what: string, accept: (rows: Problem[]) => boolean, timeoutMs = 30_000): Promise<Problem[]> {
    const panel = await this.showProblems(timeoutMs);
    let last: Problem[] = [];
    try {
      return await waitFor(what, timeoutMs, async () => {
        last = await this.problemRows(panel);
        return accept(last) ? last : undefined;
      });
    } catch (error) {
      throw new Error(`${String(error)}\nProblems panel rows: ${JSON.stringify(last, null, 1)}`, { cause: error });
    }
  }

  private async problemRows(panel: Locator): Promise<Problem[]> {
    const raw = await panel.locator('.monaco-list-row').evaluateAll((nodes: PageElement[]) =>
      nodes.map((node) => ({
        label: node.getAttribute('aria-label') ?? '',
        text: node.innerText,
        error: !!node.querySelector('.codicon-error'),
        warning: !!node.querySelector('.codicon-warning'),
        info: !!node.querySelector('.codicon-info'),
      })),
    );
    return raw.map((row) => ({
      severity: row.error ? 'error' : row.warning ? 'warning' : row.info ? 'info' : 'unknown',
      text: `${row.label} ${row.text}`.replace(/\s+/g, ' ').trim(),
    }));
  }

  /** Opens the Problems panel (through the status bar, not a shortcut) and reads its rows. */
  async readProblems(expectAtLeast = 1, timeoutMs = 30_000): Promise<Problem[]> {
    const panel = this.page.locator('.markers-panel');
    if (!(await panel.isVisible())) {
      await this.page.locator('#status\\.problems').click();
      await panel.waitFor({ state: 'visible', timeout: timeoutMs });
    }
    const rows = panel.locator('.monaco-list-row');
    await waitFor(`${expectAtLeast} row(s) in the Problems panel`, timeoutMs, async () => ((await rows.count()) >= expectAtLeast ? true : undefined));
    const raw = await rows.evaluateAll((nodes: PageElement[]) =>
      nodes.map((node) => ({
        label: node.getAttribute('aria-label') ?? '',
        text: node.innerText,
        error: !!node.querySelector('.codicon-error'),
        warning: !!node.querySelector('.codicon-warning'),
        info: !!node.querySelector('.codicon-info'),
      })),
    );
    return raw.map((row) => ({
      severity: row.error ? 'error' : row.warning ? 'warning' : row.info ? 'info' : 'unknown',
      text: `${row.label} ${row.text}`.replace(/\s+/g, ' ').trim(),
    }));
  }

  /** Expands the Outline view in the explorer side bar and returns its item names. */
  async readOutline(expectAtLeast = 1, timeoutMs = 30_000): Promise<string[]> {
    const header = this.page
      .locator('.pane-header')
      .filter({ hasText: /^\s*outline/i })
      .first();
    await header.waitFor({ state: 'visible', timeout: timeoutMs });
    if ((await header.getAttribute('aria-expanded')) !== 'true') await header.click();
    const rows = this.page.locator('.outline-pane .monaco-list-row, .pane-body .outline-element').first();
    await rows.waitFor({ state: 'visible', timeout: timeoutMs });
    return waitFor(`${expectAtLeast} item(s) in the Outline view`, timeoutMs, async () => {
      const names = await this.page
        .locator('.outline-pane .monaco-list-row .outline-element .monaco-highlighted-label')
        .evaluateAll((nodes: PageElement[]) => nodes.map((node) => (node.textContent ?? '').trim()));
      const unique = names.filter((name, i) => name && names.indexOf(name) === i);
      return unique.length >= expectAtLeast ? unique : undefined;
    });
  }

  /**
   * Waits until a log file under the user-data folder whose name contains `fileName` has a line
   * matching `pattern`, and returns the line with its timestamp (epoch ms). The extension's log
   * output channel is written to ".../exthost1/<extension id>/Harn Workbench.log"; the extension
   * host's own log is "remoteexthost.log".
   */
  async waitForLogLine(pattern: RegExp, fileName = 'Harn Workbench', timeoutMs = 60_000): Promise<{ line: string; at: number }> {
    return waitFor(`a "${fileName}" log line matching ${pattern}`, timeoutMs, () => {
      for (const file of findFiles(join(this.userDataDir, 'logs'), (name) => name.includes(fileName))) {
        const line = readFileSync(file, 'utf8')
          .split('\n')
          .find((l) => pattern.test(l));
        if (line) return { line, at: logTimestamp(line) };
      }
      return undefined;
    });
  }

  /** Every line of the log files named like `fileName` that matches `pattern`, oldest first. */
  logLines(pattern: RegExp, fileName = 'Harn Workbench'): { line: string; at: number }[] {
    return findFiles(join(this.userDataDir, 'logs'), (name) => name.includes(fileName))
      .flatMap((file) => readFileSync(file, 'utf8').split('\n'))
      .filter((l) => pattern.test(l))
      .map((line) => ({ line, at: logTimestamp(line) }))
      .sort((a, b) => a.at - b.at);
  }

  /** Waits until at least `count` log lines match `pattern`; returns them all. */
  async waitForLogLines(pattern: RegExp, count: number, fileName = 'Harn Workbench', timeoutMs = 30_000): Promise<{ line: string; at: number }[]> {
    return waitFor(`${count} "${fileName}" log line(s) matching ${pattern}`, timeoutMs, () => {
      const lines = this.logLines(pattern, fileName);
      return lines.length >= count ? lines : undefined;
    });
  }

  /**
   * Process ids of the Harn language servers of this editor: node processes running the installed
   * extension's dist/server.js (children of code-server's extension host).
   */
  serverPids(): number[] {
    const marker = join(this.extensionsDir, 'harn-workbench.harn-workbench-');
    return execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' })
      .split('\n')
      .filter((line) => line.includes(marker) && line.includes(join('dist', 'server.js')))
      .map((line) => Number(line.trim().split(/\s+/)[0]))
      .filter((pid) => Number.isInteger(pid) && pid > 0);
  }

  /** Waits for exactly one language server process other than `previous` and returns its pid. */
  async waitForNewServerPid(previous: number | undefined, timeoutMs = 30_000): Promise<number> {
    let last: number[] = [];
    try {
      return await waitFor('a new Harn language server process', timeoutMs, () => {
        last = this.serverPids();
        return last.length === 1 && last[0] !== previous ? last[0] : undefined;
      });
    } catch (error) {
      throw new Error(`${String(error)} (server pids now: ${JSON.stringify(last)}, before: ${previous})`, { cause: error });
    }
  }

  /**
   * Runs a command from the Command Palette (F1), picking the row whose label is `title` exactly,
   * as a person would. The editor (not a panel) should have focus first. `opensQuickPick`: the command shows a
   * quick pick of its own, so the widget stays: wait for the palette's `>` text to go instead of the widget.
   */
  async runCommand(title: string, timeoutMs = 10_000, opensQuickPick = false): Promise<void> {
    await this.page.keyboard.press('F1');
    const widget = this.page.locator('.quick-input-widget');
    const input = widget.locator('input').first();
    await input.waitFor({ state: 'visible', timeout: timeoutMs });
    await input.fill(`>${title}`);
    const row = widget.locator(`.quick-input-list .monaco-list-row[aria-label="${title.replace(/"/g, '\\"')}"]`).first();
    await row.waitFor({ state: 'visible', timeout: timeoutMs });
    await row.click();
    if (opensQuickPick) {
      await waitFor(`the quick pick of ${title}`, timeoutMs, async () => (!(await input.inputValue()).startsWith('>') ? true : undefined));
      return;
    }
    await input.waitFor({ state: 'hidden', timeout: timeoutMs });
  }

  /** The texts of the notification toasts on screen. */
  async notificationToasts(): Promise<string[]> {
    return this.page
      .locator('.notifications-toasts .notification-toast')
      .evaluateAll((nodes: PageElement[]) => nodes.map((node) => node.innerText.replace(/\s+/g, ' ').trim()));
  }

  /**
   * Every notification of this window (the Notification Center, which keeps the toasts that
   * have hidden). Opens the center through the status bar bell and closes it again.
   */
  async notificationCenter(timeoutMs = 10_000): Promise<string[]> {
    const center = this.page.locator('.notifications-center');
    const wasVisible = await center.isVisible();
    if (!wasVisible) {
      await this.page.locator('#status\\.notifications').click();
      await center.waitFor({ state: 'visible', timeout: timeoutMs });
    }
    const items = await center
      .locator('.notification-list-item')
      .evaluateAll((nodes: PageElement[]) => nodes.map((node) => node.innerText.replace(/\s+/g, ' ').trim()));
    return items;
  }

  /** Closes the Notification Center if it is open. */
  async closeNotificationCenter(timeoutMs = 10_000): Promise<void> {
    const center = this.page.locator('.notifications-center');
    if (!(await center.isVisible())) return;
    await this.page.locator('#status\\.notifications').click();
    await center.waitFor({ state: 'hidden', timeout: timeoutMs });
  }

  /**
   * Opens the language status hover (the `{}` item next to the language name in the status bar)
   * and returns its text, one line per item. The hover stays open; Escape closes it.
   */
  async languageStatus(timeoutMs = 10_000): Promise<string> {
    const item = this.page.locator('#status\\.languageStatus');
    await item.waitFor({ state: 'visible', timeout: timeoutMs });
    await item.click();
    const hover = this.page.locator('.monaco-hover:not(.hidden):has(.hover-language-status)').first();
    await hover.waitFor({ state: 'visible', timeout: timeoutMs });
    return waitFor('the language status hover text', timeoutMs, async () => {
      const text = (await hover.innerText({ timeout: 1_000 })).trim();
      return text ? text : undefined;
    });
  }

  /** The accessible label of the language status item (its items' text), without opening it. */
  async languageStatusLabel(): Promise<string> {
    return (await this.page.locator('#status\\.languageStatus').getAttribute('aria-label')) ?? '';
  }

  /** The channel selected in the Output panel and the panel's text (the visible part). */
  async outputPanel(timeoutMs = 10_000): Promise<{ channel: string; text: string }> {
    const select = this.page.locator('.panel select.monaco-select-box[aria-label="Switch Output"]').first();
    await select.waitFor({ state: 'attached', timeout: timeoutMs });
    const channel = await select.evaluate((node) => {
      const s = node as unknown as { selectedIndex: number; options: ArrayLike<{ text: string }> };
      return s.options[s.selectedIndex]?.text ?? '';
    });
    const view = this.page.locator('.panel .output-view .view-lines').first();
    await view.waitFor({ state: 'visible', timeout: timeoutMs });
    const text = await view.evaluate((node) => {
      const lines = Array.from(
        (node as unknown as { querySelectorAll(s: string): ArrayLike<{ textContent: string | null; style: { top: string } }> }).querySelectorAll('.view-line'),
      );
      return lines
        .map((l) => ({ top: parseFloat(l.style.top) || 0, text: (l.textContent ?? '').replace(/\u00a0/g, ' ') }))
        .sort((a, b) => a.top - b.top)
        .map((l) => l.text)
        .join('\n');
    });
    return { channel, text };
  }

  /**
   * Hovers the first rendered occurrence of `text` until the hover widget's text satisfies
   * `accept` (moving the mouse away and back between tries: a hover asked for before the server
   * has read the document shows nothing until the mouse moves again). Returns the hover text.
   */
  async hoverUntil(text: string, accept: (hover: string) => boolean, timeoutMs = 30_000): Promise<string> {
    const hover = this.page.locator('.monaco-hover:not(.hidden) .monaco-hover-content').first();
    let last = '';
    try {
      return await waitFor(`a hover over ${JSON.stringify(text)} that satisfies the test`, timeoutMs, async () => {
        const box = await this.charBox(text, Math.floor(text.length / 2));
        await this.page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
        try {
          await hover.waitFor({ state: 'visible', timeout: 3_000 });
          last = (await hover.innerText()).trim();
        } catch {
          last = '';
        }
        if (accept(last)) return last;
        await this.page.mouse.move(5, 5);
        await this.page.keyboard.press('Escape');
        return undefined;
      });
    } catch (error) {
      throw new Error(`${String(error)}\nlast hover text: ${JSON.stringify(last)}`, { cause: error });
    }
  }

  /** The names shown in the Outline view right now (it is expanded first if needed); [] when empty. */
  async outlineNow(timeoutMs = 10_000): Promise<{ names: string[]; message: string }> {
    const header = this.page
      .locator('.pane-header')
      .filter({ hasText: /^\s*outline/i })
      .first();
    await header.waitFor({ state: 'visible', timeout: timeoutMs });
    if ((await header.getAttribute('aria-expanded')) !== 'true') await header.click();
    const names = await this.page
      .locator('.outline-pane .monaco-list-row .outline-element .monaco-highlighted-label')
      .evaluateAll((nodes: PageElement[]) => nodes.map((node) => (node.textContent ?? '').trim()).filter(Boolean));
    const message = (
      await this.page
        .locator('.outline-pane .outline-message')
        .allInnerTexts()
        .catch(() => [])
    )
      .join(' ')
      .trim();
    return { names, message };
  }

  /** Collapses the Outline view if it is expanded. */
  async collapseOutline(timeoutMs = 10_000): Promise<void> {
    const header = this.page
      .locator('.pane-header')
      .filter({ hasText: /^\s*outline/i })
      .first();
    await header.waitFor({ state: 'visible', timeout: timeoutMs });
    if ((await header.getAttribute('aria-expanded')) === 'true') await header.click();
  }

  /** The text of the extension's log channel files, for failure messages. */
  extensionLog(): string {
    return findFiles(join(this.userDataDir, 'logs'), (name) => name.includes('Harn Workbench'))
      .map((file) => `--- ${file}\n${readFileSync(file, 'utf8')}`)
      .join('\n');
  }

  /** code-server's own output, for failure messages. */
  serverLog(): string {
    return this.codeServerLog;
  }

  private killCodeServer(): void {
    const child = this.codeServer;
    if (!child?.pid || child.exitCode !== null || child.signalCode !== null) return;
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }

  /** Always ends the browser and code-server (its whole process group) and removes temp files. */
  async teardown(): Promise<void> {
    await this.browser?.close().catch(() => undefined);
    this.browser = undefined;
    const child = this.codeServer;
    if (child?.pid && child.exitCode === null && child.signalCode === null) {
      const pid = child.pid;
      const exited = new Promise<void>((r) => child.once('exit', () => r()));
      this.killCodeServer();
      const timer = setTimeout(() => {
        try {
          process.kill(-pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }, 5_000);
      await exited;
      clearTimeout(timer);
      // Children that ignored SIGTERM (extension host, language server) go with the group.
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    this.codeServer = undefined;
    if (!process.env.HARN_E2E_KEEP) rmSync(this.tempRoot, { recursive: true, force: true });
  }
}
