// Runs test/electron/suite (the scenarios of test/e2e/editor.test.ts, asserted through the `vscode`
// API) inside a desktop VS Code's extension host with @vscode/test-electron.
//
//   npm run test:electron                    (also the last suite of `npm test`)
//   HARN_VSCODE_EXECUTABLE=/path/to/code npm run test:electron
//   npm run test:electron -- --download[=VERSION]   (opt-in: download VS Code into .cache/vscode-test)
//   npm run test:electron -- --code-server   (opt-in: the same suite in code-server's extension host,
//                                             with the e2e toolchain; see test/electron/codeServer.ts)
//
// Which VS Code, in this order:
//   1. HARN_VSCODE_EXECUTABLE: the path of a desktop VS Code's executable (Linux: the `code` binary of
//      an extracted archive or /usr/share/code/code; macOS: .../Visual Studio Code.app/Contents/MacOS/Code
//      (or Electron); Windows: Code.exe). Set but missing is an error, not a skip.
//   2. A download @vscode/test-electron cached before under .cache/vscode-test/ (its layout:
//      vscode-<platform>-<version>/ with an is-complete marker); the newest version is used.
//   3. With --download (or HARN_VSCODE_DOWNLOAD=stable|<version>): @vscode/test-electron downloads one
//      into .cache/vscode-test/ first. Never without being asked: downloads are refused on some networks.
// With none of these it prints one SKIP line saying why and exits 0. The suite is bundled
// (scripts/build-electron.mjs) either way, so a suite that no longer bundles fails here too.
//
// VS Code is opened on a temporary copy of examples/demo with the e2e fixtures (test/electron/workspace.ts),
// with --disable-extensions (built-in extensions stay: rust, json) and --disable-workspace-trust, and a
// user-data and extensions folder of its own under that temporary folder, removed afterwards.
// On Linux it needs a display: under CI use `xvfb-run -a npm run test:electron`.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { downloadAndUnzipVSCode, runTests } from '@vscode/test-electron';
import { downloadDirToExecutablePath, insidersDownloadDirToExecutablePath, systemDefaultPlatform } from '@vscode/test-electron/out/util';
import { prepareWorkspace, repoRoot } from './workspace';

const ENV_EXECUTABLE = 'HARN_VSCODE_EXECUTABLE';
const ENV_DOWNLOAD = 'HARN_VSCODE_DOWNLOAD';
const cachePath = join(repoRoot, '.cache', 'vscode-test');

function log(line: string): void {
  console.log(`[electron] ${line}`);
}

function fail(message: string): never {
  console.error(`FAIL electron: ${message}`);
  process.exit(1);
}

/** Runs `node <args>` in the repository (no shell); stops the run when it fails. */
function node(args: string[], what: string): void {
  const result = spawnSync(process.execPath, args, { cwd: repoRoot, stdio: 'inherit' });
  if (result.error) fail(`${what}: ${result.error.message}`);
  if (result.status !== 0) fail(`${what} exited with ${result.status ?? result.signal}`);
}

function compareVersions(a: string, b: string): number {
  const x = a.split('.').map(Number);
  const y = b.split('.').map(Number);
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** The newest complete VS Code that @vscode/test-electron downloaded into .cache/vscode-test before. */
function cachedExecutable(): string | undefined {
  let names: string[];
  try {
    names = readdirSync(cachePath);
  } catch {
    return undefined;
  }
  const prefix = `vscode-${systemDefaultPlatform}-`;
  const complete = (name: string): boolean => existsSync(join(cachePath, name, 'is-complete'));
  const stable = names
    .filter((n) => n.startsWith(prefix) && /^\d+(\.\d+)*$/.test(n.slice(prefix.length)) && complete(n))
    .sort((a, b) => compareVersions(b.slice(prefix.length), a.slice(prefix.length)));
  const candidates = [
    ...stable.flatMap((n) => withMacAppExecutable(downloadDirToExecutablePath(join(cachePath, n), systemDefaultPlatform), 'Code')),
    ...names
      .filter((n) => n === `${prefix}insiders` && complete(n))
      .flatMap((n) => withMacAppExecutable(insidersDownloadDirToExecutablePath(join(cachePath, n), systemDefaultPlatform), 'Code - Insiders')),
  ];
  return candidates.find((path) => existsSync(path));
}

/**
 * @vscode/test-electron 2.5.x (pinned: it supports Node 20; 3.x wants Node 22) names a macOS download's
 * executable `…/Contents/MacOS/Electron`; newer VS Code builds call it `Code` (3.x reads Info.plist).
 * Both are tried, in that order.
 */
function withMacAppExecutable(path: string, appExecutable: string): string[] {
  return path.endsWith(join('Contents', 'MacOS', 'Electron')) ? [path, join(dirname(path), appExecutable)] : [path];
}

/** `--download`, `--download=1.100.0` or HARN_VSCODE_DOWNLOAD: the version to download, if asked for. */
function requestedDownload(): string | undefined {
  const flag = process.argv.slice(2).find((a) => a === '--download' || a.startsWith('--download='));
  if (flag) return flag.includes('=') ? flag.slice('--download='.length) || 'stable' : 'stable';
  const env = process.env[ENV_DOWNLOAD];
  return env ? env : undefined;
}

async function resolveExecutable(): Promise<{ path: string; from: string } | { skip: string }> {
  const fromEnv = process.env[ENV_EXECUTABLE];
  if (fromEnv) {
    const path = resolve(fromEnv);
    if (!existsSync(path)) fail(`${ENV_EXECUTABLE}=${fromEnv} does not exist`);
    return { path, from: ENV_EXECUTABLE };
  }
  const cached = cachedExecutable();
  if (cached) return { path: cached, from: `the cached download in ${cachePath}` };
  const version = requestedDownload();
  if (version) {
    log(`downloading VS Code ${version} into ${cachePath} (asked for with --download / ${ENV_DOWNLOAD})`);
    try {
      return { path: await downloadAndUnzipVSCode({ version, cachePath, extensionDevelopmentPath: repoRoot }), from: `a download of VS Code ${version}` };
    } catch (error) {
      fail(`could not download VS Code ${version}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return {
    skip:
      `no desktop VS Code (set ${ENV_EXECUTABLE} to a VS Code binary, or run \`npm run test:electron -- --download\` ` +
      `where @vscode/test-electron can download one; none is cached in ${cachePath})`,
  };
}

/** --code-server: the suite in code-server's (VS Code 1.139.1's) extension host, driven by headless chromium. */
async function runInCodeServerHost(extensionTestsPath: string): Promise<void> {
  node([join(repoRoot, 'esbuild.mjs')], 'building the extension');
  const { runInCodeServer } = await import('./codeServer');
  const { root, workspace } = prepareWorkspace();
  log(`code-server's extension host (not Electron), workspace: ${workspace}`);
  let code = 1;
  try {
    const run = await runInCodeServer({ repoRoot, workspace, root, extensionTestsPath, timeoutMs: 300_000 });
    code = run.code;
    if (code === 0) log('passed');
    else console.error(`FAIL electron (code-server): the extension host exited with ${code}\n--- code-server (tail):\n${run.serverLog.slice(-3000)}`);
  } catch (error) {
    console.error(`FAIL electron (code-server): ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  process.exit(code === 0 ? 0 : 1);
}

async function main(): Promise<void> {
  // Bundled first, whether or not VS Code is here: the suite must keep building.
  node([join(repoRoot, 'scripts', 'build-electron.mjs')], 'bundling the electron suite');
  const extensionTestsPath = join(repoRoot, 'dist', 'electron', 'index.js');
  if (process.argv.slice(2).includes('--code-server')) return runInCodeServerHost(extensionTestsPath);

  const found = await resolveExecutable();
  if ('skip' in found) {
    console.log(`SKIP electron: ${found.skip}`);
    // Keep the suite honest where no desktop VS Code exists: with the e2e toolchain installed (npm test
    // installs it), run the same mocha suite in code-server's extension host instead.
    if (existsSync(join(repoRoot, '.cache', 'e2e', 'toolchain.json'))) {
      log("running the same mocha suite in code-server's extension host instead (VS Code 1.139.1, not Electron)");
      return runInCodeServerHost(extensionTestsPath);
    }
    return;
  }
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
    fail(`VS Code (${found.path}) needs a display and neither DISPLAY nor WAYLAND_DISPLAY is set: run under \`xvfb-run -a npm run test:electron\``);
  }
  log(`VS Code: ${found.path} (from ${found.from})`);

  // The extension as VS Code loads it from --extensionDevelopmentPath: package.json's main, dist/client.js and dist/server.js.
  node([join(repoRoot, 'esbuild.mjs')], 'building the extension');

  const { root, workspace } = prepareWorkspace();
  log(`workspace: ${workspace}`);
  let code = 0;
  try {
    await runTests({
      vscodeExecutablePath: found.path,
      extensionDevelopmentPath: repoRoot,
      extensionTestsPath,
      launchArgs: [
        workspace,
        '--disable-extensions',
        '--disable-workspace-trust',
        `--user-data-dir=${join(root, 'user-data')}`,
        `--extensions-dir=${join(root, 'extensions')}`,
      ],
      // Inherited from a VS Code terminal it would make the binary run as plain Node.
      extensionTestsEnv: { ELECTRON_RUN_AS_NODE: undefined },
    });
    log('passed');
  } catch (error) {
    console.error(`FAIL electron: ${error instanceof Error ? error.message : String(error)}`);
    code = 1;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  process.exit(code);
}

main().catch((error: unknown) => fail(error instanceof Error ? (error.stack ?? error.message) : String(error)));
