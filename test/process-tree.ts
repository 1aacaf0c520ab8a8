// What a running process tree holds, read from /proc (Linux): which processes a program started,
// which of them listen on a port, and whether each was started to end with its parent
// (scripts/child-process.ts: the preload scripts/exit-with-parent.mjs and the parent channel).
// For the tests that every server the project starts ends with whatever started it.
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { endWithParentArgs } from '../scripts/child-process.ts';

interface Stat {
  pid: number;
  parent: number;
  group: number;
}

/** "pid (comm) state ppid pgrp …"; comm may hold spaces, so split after the last ')'. */
function stat(pid: number): Stat | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const [, parent, group] = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { pid, parent: Number(parent), group: Number(group) };
  } catch {
    return undefined;
  }
}

function allProcesses(): Stat[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .flatMap((name) => stat(Number(name)) ?? []);
}

/** Every process below `pid` (children, their children, …), now. */
export function descendantsOf(pid: number): number[] {
  const processes = allProcesses();
  const found: number[] = [];
  const walk = (parent: number) => {
    for (const child of processes.filter((process) => process.parent === parent)) {
      found.push(child.pid);
      walk(child.pid);
    }
  };
  walk(pid);
  return found;
}

/** The processes of the process group `group` (its leader's pid), wherever they were reparented. */
export function processGroup(group: number): number[] {
  return allProcesses()
    .filter((process) => process.group === group && isAlive(process.pid))
    .map((process) => process.pid);
}

/** The command line of `pid` (its arguments joined by spaces), or undefined once it is gone. */
export function commandLine(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
  } catch {
    return undefined;
  }
}

/** Whether `pid` is still a process (a zombie not yet reaped counts as gone). */
export function isAlive(pid: number): boolean {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return text.slice(text.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

/** The TCP ports (IPv4 and IPv6) listened on, by the inode of their socket. */
function listeningSockets(): Map<number, number> {
  const sockets = new Map<number, number>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      // local_address is ADDRESS:PORT in hex; state 0A is LISTEN; the inode is the tenth field.
      if (fields[3] !== '0A') continue;
      const port = Number.parseInt(fields[1]?.split(':')[1] ?? '', 16);
      sockets.set(Number(fields[9]), port);
    }
  }
  return sockets;
}

/** The file descriptors of `pid`, each with what it points to ("socket:[inode]", a path, …). */
function descriptors(pid: number): Map<number, string> {
  const found = new Map<number, string>();
  try {
    for (const fd of readdirSync(`/proc/${pid}/fd`)) {
      try {
        found.set(Number(fd), readlinkSync(`/proc/${pid}/fd/${fd}`));
      } catch {}
    }
  } catch {}
  return found;
}

/** The ports `pid` itself listens on. */
export function listeningPorts(pid: number): number[] {
  const sockets = listeningSockets();
  const ports = new Set<number>();
  for (const target of descriptors(pid).values()) {
    const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
    const port = inode === undefined ? undefined : sockets.get(Number(inode));
    if (port !== undefined) ports.add(port);
  }
  return [...ports].sort((a, b) => a - b);
}

/** Of the processes below `pid`, those that listen on a port, each with its parent and ports. */
export function serversBelow(pid: number): { pid: number; parent: number; ports: number[] }[] {
  return descendantsOf(pid).flatMap((child) => {
    const ports = listeningPorts(child);
    const parent = stat(child)?.parent;
    return ports.length > 0 && parent !== undefined ? [{ pid: child, parent, ports }] : [];
  });
}

/**
 * How `pid` was started, as far as ending with its parent goes: whether Node's own arguments load
 * the preload (endWithParentArgs, in that order) and whether it has the parent channel (Node's
 * NODE_CHANNEL_FD in the environment it started with, naming a socket it holds).
 */
export function endsWithParent(pid: number): { preload: boolean; channel: boolean } {
  let args: string[] = [];
  let environment: string[] = [];
  try {
    args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    environment = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
  } catch {}
  // Node's own options come before the program: the preload is among them, not the program's.
  const program = args.findIndex(
    (arg, index) => index > 0 && !arg.startsWith('-') && args[index - 1] !== '--import',
  );
  const own = args.slice(1, program < 0 ? args.length : program);
  const preload = own.some((_arg, index) =>
    endWithParentArgs.every((expected, at) => own[index + at] === expected),
  );
  const fd = environment.find((entry) => entry.startsWith('NODE_CHANNEL_FD='))?.split('=')[1];
  const channel = fd !== undefined && /^socket:/.test(descriptors(pid).get(Number(fd)) ?? '');
  return { preload, channel };
}
