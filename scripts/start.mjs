#!/usr/bin/env node
// `npm start`: builds and packages the extension, then opens examples/demo in an editor with it.
// - With a desktop VS Code (`code` on PATH): code --extensionDevelopmentPath=<repo> examples/demo
// - Otherwise: a real VS Code in the browser (code-server, installed by scripts/e2e/setup.mjs)
//   on 127.0.0.1 with the packaged extension installed; prints the URL and stays in the
//   foreground until Ctrl-C.
// Options: --port N (default 8080, or the next free one), --no-desktop (always use code-server).
// No shell: every child process gets an argument array.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { onPath } from './e2e/setup.mjs';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const demo = join(repoRoot, 'examples', 'demo');
const vsix = join(repoRoot, 'dist', 'harn-workbench.vsix');
const stateDir = join(repoRoot, '.cache', 'e2e', 'start');

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

async function main() {
  if (runNode([join(repoRoot, 'scripts', 'e2e', 'package.mjs')]) !== 0) process.exit(1);
  ensureDemo();

  const code = process.argv.includes('--no-desktop') ? undefined : desktopCode();
  if (code) {
    console.log(`[start] desktop VS Code: ${code} --extensionDevelopmentPath=${repoRoot} ${demo}`);
    const result = spawnSync(code, [`--extensionDevelopmentPath=${repoRoot}`, demo], { stdio: 'inherit' });
    process.exit(result.status ?? 0);
  }

  const setupStatus = runNode([join(repoRoot, 'scripts', 'e2e', 'setup.mjs')]);
  if (setupStatus !== 0) {
    console.error('[start] the in-browser VS Code (code-server) could not be set up; see above.');
    process.exit(1);
  }
  const toolchain = JSON.parse(readFileSync(join(repoRoot, '.cache', 'e2e', 'toolchain.json'), 'utf8'));

  // Kept between runs (settings, opened editors); the extension is reinstalled each time.
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
          'workbench.startupEditor': 'none',
          'workbench.secondarySideBar.defaultVisibility': 'hidden',
          'chat.disableAIFeatures': true,
          'telemetry.telemetryLevel': 'off',
          'update.mode': 'none',
          'extensions.autoCheckUpdates': false,
        },
        null,
        2,
      ) + '\n',
    );
  }
  const common = [
    toolchain.codeServerEntry,
    '--config',
    join(stateDir, 'config.yaml'),
    '--user-data-dir',
    userDataDir,
    '--extensions-dir',
    extensionsDir,
  ];
  // No extension gallery (code-server defaults to a public one that this machine cannot reach).
  const env = { ...process.env, EXTENSIONS_GALLERY: process.env.EXTENSIONS_GALLERY ?? '{}' };
  const install = spawnSync(toolchain.node, [...common, '--install-extension', vsix, '--force'], { stdio: 'inherit', env });
  if (install.status !== 0) {
    console.error('[start] installing the .vsix into code-server failed');
    process.exit(1);
  }

  const port = await pickPort();
  const child = spawn(
    toolchain.node,
    [
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
    { stdio: ['ignore', 'inherit', 'inherit'], detached: true, env },
  );
  const url = `http://127.0.0.1:${port}/?folder=${encodeURIComponent(demo)}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    const response = await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => undefined);
    if (response?.ok) break;
    if (child.exitCode !== null || Date.now() > deadline) {
      console.error('[start] code-server did not start');
      process.exit(1);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  console.log(`\n[start] Harn Workbench in VS Code (code-server ${toolchain.codeServerVersion}):\n\n    ${url}\n\n[start] Ctrl-C to stop.`);

  let stopping = false;
  const stop = (signal) => {
    if (stopping) return;
    stopping = true;
    try {
      process.kill(-child.pid, signal);
    } catch {
      // already gone
    }
    setTimeout(() => {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
      process.exit(0);
    }, 5_000).unref();
  };
  process.on('SIGINT', () => stop('SIGTERM'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  child.on('exit', (status) => process.exit(stopping ? 0 : (status ?? 0)));
}

main().catch((error) => {
  console.error(`[start] ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
