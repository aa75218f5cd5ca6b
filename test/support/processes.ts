// Processes seen through /proc (Linux), for the tests that check that nothing outlives `npm start`.

import { readdirSync, readFileSync } from 'node:fs';

/** pid, parent pid, process group and state (R, S, Z, ...) of a process, or undefined when it is gone. */
export function procStat(pid: number): { pid: number; ppid: number; pgrp: number; state: string } | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // `pid (comm) state ppid pgrp ...`; comm may hold spaces and parentheses, so cut at the last `)`.
  const [state = '', ppid = '', pgrp = ''] = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { pid, ppid: Number(ppid), pgrp: Number(pgrp), state };
}

/** Whether the process exists and is not a zombie (dead, waiting to be reaped). */
export function running(pid: number): boolean {
  const stat = procStat(pid);
  if (stat) return stat.state !== 'Z';
  if (process.platform === 'linux') return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function allStats(): NonNullable<ReturnType<typeof procStat>>[] {
  const out: NonNullable<ReturnType<typeof procStat>>[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = procStat(Number(name));
    if (stat) out.push(stat);
  }
  return out;
}

/** Every living descendant of `pid` (children, their children, ...). */
export function descendants(pid: number): number[] {
  const stats = allStats();
  const found: number[] = [];
  const queue = [pid];
  for (let parent = queue.shift(); parent !== undefined; parent = queue.shift()) {
    for (const stat of stats) {
      if (stat.ppid === parent && stat.state !== 'Z') {
        found.push(stat.pid);
        queue.push(stat.pid);
      }
    }
  }
  return found;
}

export function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
  } catch {
    return '';
  }
}

/** Waits until none of `pids` runs; returns the ms it took, or throws after `timeoutMs` naming the survivors. */
export async function waitAllGone(pids: number[], timeoutMs: number): Promise<number> {
  const started = Date.now();
  for (;;) {
    const left = pids.filter(running);
    if (!left.length) return Date.now() - started;
    if (Date.now() - started > timeoutMs) {
      throw new Error(`still running after ${timeoutMs} ms: ${left.map((pid) => `${pid} ${commandLine(pid).slice(0, 160)}`).join('; ')}`);
    }
    await new Promise((resolveWait) => setTimeout(resolveWait, 50));
  }
}
