/**
 * The end of the process that launched `serve`. `npx skillmount serve` runs the server as a
 * grandchild (npm exec, then `sh -c`, then node), `pnpm exec` as a child of pnpm, a shell as its
 * child: killing the process a supervisor, a CI job or `timeout` started (npx, with SIGKILL, which
 * nobody can pass on) leaves the others running, re-parented, holding the port. No event tells a
 * process that an ancestor ended, so the chain is read once at start and looked at every second.
 *
 * The chain: this process and its parent, then each ancestor and its parent while both are in
 * this process's process group (what a terminal or a task runner started as one job: npx, the
 * shell npm exec starts, pnpm). An ancestor ends; its child is re-parented (to pid 1 or a subreaper): the
 * child's parent id changes. On Linux, each link's parent id is read from /proc; elsewhere, this
 * process's own (process.ppid) and, for each link, whether the parent still exists.
 *
 * Not used: stdin (serve does not read it; it may be a terminal that outlives the launcher, or
 * /dev/null, at its end from the start) and an IPC channel (there is one only when a Node.js
 * parent forks serve, and the chain covers that parent too).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** How often the chain is looked at: the server notices its launcher's end within this long. */
const LAUNCHER_CHECK_MS = 1000;

/** `pid`'s parent was `ppid` when the server started. */
interface Link {
  pid: number;
  ppid: number;
}

/** A process's parent and process group, or undefined when it does not exist or cannot be read. */
type Lookup = (pid: number) => { ppid: number; pgid: number } | undefined;

/**
 * Call `gone(pid)` once, with the pid of the launcher that ended, when a process of the chain that
 * started this one ends. Nothing is watched when this process was started by pid 1 (systemd, a
 * container's init): a supervisor that stays is no launcher to outlive. Returns a function that
 * stops watching. The interval is unref'd: it never keeps the process alive.
 */
export function watchLauncher(gone: (pid: number) => void): () => void {
  const links = launchChain();
  if (links.length === 0) return () => undefined;
  const timer = setInterval(() => {
    const broken = links.find((link) => !holds(link));
    if (broken === undefined) return;
    clearInterval(timer);
    gone(broken.ppid);
  }, LAUNCHER_CHECK_MS);
  timer.unref();
  return () => clearInterval(timer);
}

/** The links from this process up through its process group, nearest first. */
function launchChain(): Link[] {
  const parent = process.ppid;
  if (parent <= 1) return [];
  const links: Link[] = [{ pid: process.pid, ppid: parent }];
  const lookup = processLookup();
  const group = lookup(process.pid)?.pgid;
  if (group === undefined) return links;
  for (let pid = parent; ; ) {
    const row = lookup(pid);
    if (row === undefined || row.pgid !== group || row.ppid <= 1 || links.some((link) => link.pid === pid)) break;
    // The parent must be of this job too: a shell that started the job in the background may end
    // and leave it running (nohup, a job that outlives its terminal on purpose).
    if (lookup(row.ppid)?.pgid !== group) break;
    links.push({ pid, ppid: row.ppid });
    pid = row.ppid;
  }
  return links;
}

/** True while `link.pid` still has the parent it had at start. */
function holds(link: Link): boolean {
  const ppid = link.pid === process.pid ? process.ppid : procStat(link.pid)?.ppid;
  if (ppid !== undefined) return ppid === link.ppid && (process.platform !== 'win32' || alive(ppid));
  // No /proc: the parent must still exist (a re-parented process keeps no trace of its old parent here).
  return process.platform !== 'linux' && alive(link.ppid);
}

/** /proc on Linux; elsewhere one `ps` listing (none on Windows: the chain is this process and its parent). */
function processLookup(): Lookup {
  if (process.platform === 'linux') return procStat;
  const ps = spawnSync('ps', ['-A', '-o', 'pid=', '-o', 'ppid=', '-o', 'pgid='], { encoding: 'utf8' });
  const table = new Map<number, { ppid: number; pgid: number }>();
  if (ps.status === 0 && typeof ps.stdout === 'string') {
    for (const line of ps.stdout.split('\n')) {
      const [pid, ppid, pgid] = line.trim().split(/\s+/).map(Number);
      if (Number.isInteger(pid) && Number.isInteger(ppid) && Number.isInteger(pgid)) table.set(pid!, { ppid: ppid!, pgid: pgid! });
    }
  }
  return (pid) => table.get(pid);
}

/** `/proc/<pid>/stat`: the fields after the command name (which may hold spaces and parentheses) are state, ppid, pgrp. */
function procStat(pid: number): { ppid: number; pgid: number } | undefined {
  if (process.platform !== 'linux') return undefined;
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  const [, ppid, pgid] = text
    .slice(text.lastIndexOf(')') + 2)
    .split(' ')
    .map(Number);
  return Number.isInteger(ppid) && Number.isInteger(pgid) ? { ppid: ppid!, pgid: pgid! } : undefined;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
