#!/usr/bin/env node
// `npm start`: builds and packages the extension, then opens examples/demo in an editor with it.
// - With a desktop VS Code (`code` on PATH): code --extensionDevelopmentPath=<repo> examples/demo
//   examples/demo/README.md
// - Otherwise: a real VS Code in the browser (code-server, installed by scripts/e2e/setup.mjs
//   --editor-only, which prints the Debian packages it would install and why before it does) on
//   127.0.0.1 with the packaged extension installed; prints the URL and stays in the foreground
//   until Ctrl-C. The demo's README.md opens first (workbench.startupEditor: readme).
// Options: --port N (default 8080, or the next free one), --no-desktop (always use code-server),
//   --no-apt (also HARN_WORKBENCH_NO_APT=1: never run apt-get), --state-dir DIR (code-server's user
//   data and extensions; default .cache/start, kept between runs), --vsix PATH (install that package
//   instead of building one).
// code-server runs under scripts/supervise.mjs, which ends it when this script ends, SIGKILL included;
// this script ends when the npm that started it dies (npm runs it through `sh -c`).
// No shell: every child process gets an argument array.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { onPath } from './e2e/setup.mjs';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const demo = join(repoRoot, 'examples', 'demo');

function argValue(name) {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

function runNode(args) {
  const result = spawnSync(process.execPath, args, { cwd: repoRoot, stdio: 'inherit' });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

// A desktop VS Code: `code` on PATH that is not the remote CLI of a code-server or remote terminal.
function desktopCode() {
  const code = onPath('code');
  if (!code) return undefined;
  const real = realpathSync(code);
  if (real.includes('remote-cli') || real.includes('code-server')) return undefined;
  return code;
}

function portFree(port) {
  return new Promise((resolvePort) => {
    const server = createServer();
    server.once('error', () => resolvePort(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolvePort(true)));
  });
}

async function pickPort() {
  const wanted = Number(argValue('--port') ?? process.env.PORT ?? 8080);
  for (let port = wanted; port < wanted + 50; port++) if (await portFree(port)) return port;
  throw new Error(`no free port in ${wanted}..${wanted + 49}`);
}

function ensureDemo() {
  mkdirSync(demo, { recursive: true });
  const files = readdirSync(demo, { recursive: true }).map(String);
  if (!files.some((file) => file.endsWith('.harn'))) {
    writeFileSync(join(demo, 'hello.harn'), 'pipeline main(task) {\n  log("hello ${task}")\n}\n');
  }
}

/** The pid of a process's parent, from /proc (Linux); undefined elsewhere or when it is gone. */
function parentOf(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
}

function commandLine(pid) {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
  } catch {
    return '';
  }
}

/**
 * The processes whose death ends this script: its parent and, when npm started it (npm runs a script
 * through `sh -c`, and that shell outlives a SIGKILL of npm), every ancestor up to npm itself.
 */
function watchedAncestors() {
  const chain = [process.ppid];
  if (!process.env.npm_lifecycle_event || process.platform !== 'linux') return chain;
  let pid = process.ppid;
  for (let depth = 0; depth < 4 && pid > 1; depth++) {
    if (/^npm\b|npm-cli\.js/.test(commandLine(pid))) return chain;
    const parent = parentOf(pid);
    if (parent === undefined || parent <= 1) break;
    chain.push(parent);
    pid = parent;
  }
  return [process.ppid];
}

/**
 * The first watched ancestor that is gone, or undefined. On Linux by the parent links in /proc (a dead
 * process's children are re-parented at once, even while nobody has reaped it); elsewhere by kill(pid, 0).
 */
function goneAncestor(chain) {
  if (process.platform === 'linux') {
    let child = process.pid;
    for (const pid of chain) {
      if (parentOf(child) !== pid) return pid;
      child = pid;
    }
    return undefined;
  }
  try {
    process.kill(chain[0], 0);
    return undefined;
  } catch (error) {
    return error instanceof Error && 'code' in error && error.code === 'EPERM' ? undefined : chain[0];
  }
}

async function main() {
  // --vsix PATH: a package built before (the e2e test of this script passes the one it built).
  const given = argValue('--vsix');
  const vsix = given ? resolve(given) : join(repoRoot, 'dist', 'harn-workbench.vsix');
  if (!given && runNode([join(repoRoot, 'scripts', 'e2e', 'package.mjs')]) !== 0) process.exit(1);
  if (!existsSync(vsix)) {
    console.error(`[start] no ${vsix}`);
    process.exit(1);
  }
  ensureDemo();

  const code = process.argv.includes('--no-desktop') ? undefined : desktopCode();
  const readme = join(demo, 'README.md');
  if (code) {
    const args = [`--extensionDevelopmentPath=${repoRoot}`, demo, ...(existsSync(readme) ? [readme] : [])];
    console.log(`[start] desktop VS Code: ${code} ${args.join(' ')}`);
    const result = spawnSync(code, args, { stdio: 'inherit' });
    process.exit(result.status ?? 0);
  }

  const setupArgs = ['--editor-only', ...(process.argv.includes('--no-apt') ? ['--no-apt'] : [])];
  const setupStatus = runNode([join(repoRoot, 'scripts', 'e2e', 'setup.mjs'), ...setupArgs]);
  if (setupStatus !== 0) {
    console.error('[start] the in-browser VS Code (code-server) could not be set up; see above.');
    process.exit(1);
  }
  const toolchain = JSON.parse(readFileSync(join(repoRoot, '.cache', 'e2e', 'toolchain.json'), 'utf8'));

  // Kept between runs (settings, opened editors); the extension is reinstalled each time.
  const stateDir = resolve(argValue('--state-dir') ?? join(repoRoot, '.cache', 'start'));
  const userDataDir = join(stateDir, 'user-data');
  const extensionsDir = join(stateDir, 'extensions');
  mkdirSync(join(userDataDir, 'User'), { recursive: true });
  mkdirSync(extensionsDir, { recursive: true });
  const settings = join(userDataDir, 'User', 'settings.json');
  if (!existsSync(settings)) {
    writeFileSync(
      settings,
      JSON.stringify(
        {
          // The demo's README.md, in the Markdown preview, when no editor is restored.
          'workbench.startupEditor': 'readme',
          'workbench.secondarySideBar.defaultVisibility': 'hidden',
          'chat.disableAIFeatures': true,
          'telemetry.telemetryLevel': 'off',
          'update.mode': 'none',
          'extensions.autoCheckUpdates': false,
          // examples/demo sits inside this repository: no "open the parent repository?" prompt.
          'git.openRepositoryInParentFolders': 'never',
        },
        null,
        2,
      ) + '\n',
    );
  }
  const common = [toolchain.codeServerEntry, '--config', join(stateDir, 'config.yaml'), '--user-data-dir', userDataDir, '--extensions-dir', extensionsDir];
  // No extension gallery (code-server defaults to a public one that this machine cannot reach).
  const env = { ...process.env, EXTENSIONS_GALLERY: process.env.EXTENSIONS_GALLERY ?? '{}' };
  const install = spawnSync(toolchain.node, [...common, '--install-extension', vsix, '--force'], { stdio: 'inherit', env });
  if (install.status !== 0) {
    console.error('[start] installing the .vsix into code-server failed');
    process.exit(1);
  }

  const port = await pickPort();
  // Detached: out of the terminal's process group, so that it outlives this script long enough to
  // end code-server however this script ends (see scripts/supervise.mjs).
  const supervisor = spawn(
    process.execPath,
    [
      join(repoRoot, 'scripts', 'supervise.mjs'),
      '--',
      toolchain.node,
      ...common,
      '--auth',
      'none',
      '--bind-addr',
      `127.0.0.1:${port}`,
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-workspace-trust',
      '--disable-getting-started-override',
      demo,
    ],
    { stdio: ['pipe', 'inherit', 'inherit', 'pipe'], detached: true, env },
  );
  let codeServerGroup;
  supervisor.stdio[3]?.on('data', (chunk) => {
    const pid = Number(String(chunk).trim().split('\n')[0]);
    if (pid > 0) codeServerGroup = pid;
  });
  // Whatever way the supervisor ends, nothing of code-server's may outlive it.
  const killCodeServer = () => {
    if (codeServerGroup === undefined) return;
    try {
      process.kill(-codeServerGroup, 'SIGKILL');
    } catch {
      // already gone
    }
  };

  let stopping = false;
  let exitStatus = 0;
  const stop = (why, status = 0) => {
    if (stopping) return;
    stopping = true;
    exitStatus = status;
    console.log(`\n[start] stopping code-server (${why})`);
    // Closing the pipe tells the supervisor to stop code-server (SIGTERM, then SIGKILL after 5 s).
    supervisor.stdin?.end();
    setTimeout(() => {
      killCodeServer();
      process.exit(exitStatus);
    }, 8_000).unref();
  };
  supervisor.on('exit', (status, signal) => {
    killCodeServer();
    if (!stopping) console.error(`[start] code-server stopped (${signal ?? `exit ${status}`})`);
    process.exit(stopping ? exitStatus : (status ?? 1));
  });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => stop(signal));
  const ancestors = watchedAncestors();
  setInterval(() => {
    const gone = goneAncestor(ancestors);
    if (gone !== undefined) stop(`process ${gone}, which started this one, is gone`);
  }, 500).unref();

  const url = `http://127.0.0.1:${port}/?folder=${encodeURIComponent(demo)}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    const response = await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => undefined);
    if (response?.ok) break;
    if (stopping) return;
    if (supervisor.exitCode !== null || Date.now() > deadline) {
      console.error('[start] code-server did not start');
      stop('it did not start', 1);
      return;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  console.log(
    `\n[start] Harn Workbench in VS Code (code-server ${toolchain.codeServerVersion}):\n\n    ${url}\n\n` +
      `[start] examples/demo/README.md opens first and says what to try. Ctrl-C to stop.`,
  );
}

main().catch((error) => {
  console.error(`[start] ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
