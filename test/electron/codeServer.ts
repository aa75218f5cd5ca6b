// `npm run test:electron -- --code-server`: the same mocha bundle (dist/electron/index.js) run in
// code-server's extension host instead of a desktop VS Code's, for machines without one (this one).
// code-server 4.139.1 is VS Code 1.139.1's server: its remote extension host is the Node extension
// host a desktop VS Code runs, minus Electron. The test run is asked for the way @vscode/test-web does
// it: the workbench URL's `payload` names extensionDevelopmentPath and extensionTestsPath (a built
// workbench honours it only with the server option enable-smoke-test-driver), and the workbench
// reports the test output and exit code through window.codeAutomationLog / codeAutomationExit,
// which playwright exposes to the page. Only loopback requests leave the page.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { ensureToolchain } from '../e2e/harness';

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const SETTINGS = {
  'workbench.startupEditor': 'none',
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'security.workspace.trust.enabled': false,
  'git.enabled': false,
  'files.autoSave': 'off',
  'chat.disableAIFeatures': true,
};

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface CodeServerRun {
  /** The extension host's exit code: 0 when every test passed. */
  code: number;
  /** The tail of code-server's own output, for a failure message. */
  serverLog: string;
}

/** Runs the bundled suite in code-server opened on `workspace`; `root` holds its user data. */
export async function runInCodeServer(options: {
  repoRoot: string;
  workspace: string;
  root: string;
  extensionTestsPath: string;
  timeoutMs: number;
}): Promise<CodeServerRun> {
  const found = ensureToolchain();
  if (!found.ok) throw new Error(`the code-server toolchain is unavailable: ${found.reason}`);
  const toolchain = found.toolchain;
  const { repoRoot, workspace, root, extensionTestsPath, timeoutMs } = options;

  const userData = join(root, 'user-data');
  mkdirSync(join(userData, 'User'), { recursive: true });
  writeFileSync(join(userData, 'User', 'settings.json'), JSON.stringify(SETTINGS, null, 2));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    XDG_CONFIG_HOME: join(root, 'xdg-config'),
    XDG_DATA_HOME: join(root, 'xdg-data'),
    XDG_CACHE_HOME: join(root, 'xdg-cache'),
    EXTENSIONS_GALLERY: '{}',
  };
  delete env.NODE_OPTIONS;
  delete env.VSCODE_IPC_HOOK_CLI;
  delete env.ELECTRON_RUN_AS_NODE;

  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  let serverLog = '';
  let server: ChildProcess | undefined;
  let browser: Browser | undefined;
  try {
    server = spawn(
      toolchain.node,
      [
        toolchain.codeServerEntry,
        '--user-data-dir',
        userData,
        '--extensions-dir',
        join(root, 'extensions'),
        '--auth',
        'none',
        '--bind-addr',
        `127.0.0.1:${port}`,
        '--disable-telemetry',
        '--disable-update-check',
        '--disable-workspace-trust',
        '--disable-getting-started-override',
        '--vscode-option',
        'enable-smoke-test-driver',
        workspace,
      ],
      // Its own process group, ended as a whole below.
      { detached: true, stdio: ['ignore', 'pipe', 'pipe'], env },
    );
    const append = (chunk: Buffer): void => {
      serverLog = (serverLog + chunk.toString()).slice(-20_000);
    };
    server.stdout?.on('data', append);
    server.stderr?.on('data', append);

    const started = Date.now();
    for (;;) {
      if (server.exitCode !== null) throw new Error(`code-server exited with ${server.exitCode}:\n${serverLog}`);
      const response = await fetch(`${base}/healthz`).catch(() => undefined);
      if (response?.ok) break;
      if (Date.now() - started > 60_000) throw new Error(`code-server did not answer ${base}/healthz within 60 s:\n${serverLog}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }

    browser = await chromium.launch({ executablePath: toolchain.chromium, headless: true, args: CHROMIUM_ARGS });
    const context = await browser.newContext();
    await context.route(/^https?:/, (route) =>
      /^https?:\/\/(127\.0\.0\.1|localhost)(:\d+)?\//.test(route.request().url()) ? route.continue() : route.abort('blockedbyclient'),
    );
    const page = await context.newPage();
    let exited: (code: number) => void = () => undefined;
    const exitCode = new Promise<number>((resolve) => {
      exited = resolve;
    });
    await page.exposeFunction('codeAutomationLog', (_type: string, args: unknown) => {
      const parts: unknown[] = Array.isArray(args) ? args : [args];
      console.log(...parts);
    });
    await page.exposeFunction('codeAutomationExit', (code: number) => exited(code));

    const authority = `127.0.0.1:${port}`;
    const remote = (path: string): string => `vscode-remote://${authority}${path.split('\\').join('/')}`;
    const payload = [
      ['extensionDevelopmentPath', remote(repoRoot)],
      ['extensionTestsPath', remote(extensionTestsPath)],
    ];
    await page.goto(`${base}/?folder=${encodeURIComponent(workspace)}&payload=${encodeURIComponent(JSON.stringify(payload))}`);
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`the extension host did not finish the tests within ${timeoutMs / 1000} s:\n${serverLog}`)), timeoutMs);
    });
    try {
      return { code: await Promise.race([exitCode, timedOut]), serverLog };
    } finally {
      clearTimeout(timer);
    }
  } finally {
    await browser?.close().catch(() => undefined);
    if (server?.pid !== undefined && server.exitCode === null) {
      try {
        process.kill(-server.pid, 'SIGTERM');
      } catch {
        // already gone
      }
    }
  }
}
