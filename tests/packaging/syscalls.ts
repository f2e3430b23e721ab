/**
 * Reading a unit's system call filter as systemd applies it (`systemd-analyze syscall-filter` expands the
 * groups) and what a process did as strace recorded it: the calls it made, the socket families it opened,
 * and the files it created or wrote.
 */
import { run } from "./helpers.ts";

const groups = new Map<string, string[]>();

/** The calls of a group such as `@system-service`, with its nested groups expanded. */
async function groupCalls(group: string): Promise<string[]> {
  const known = groups.get(group);
  if (known) return known;
  const listed = await run("systemd-analyze", ["syscall-filter", group]);
  if (listed.code !== 0) throw new Error(`systemd-analyze syscall-filter ${group}: ${listed.stderr}`);
  const calls: string[] = [];
  for (const match of listed.stdout.matchAll(/^ {4}(@?[a-z0-9_-]+)$/gm)) {
    calls.push(...(match[1].startsWith("@") ? await groupCalls(match[1]) : [match[1]]));
  }
  groups.set(group, calls);
  return calls;
}

/** The calls a unit's SystemCallFilter= lines allow: every allowed call that no `~` line denies. */
export async function allowedCalls(unit: string): Promise<Set<string>> {
  const allowed = new Set<string>();
  const denied = new Set<string>();
  for (const [, value] of unit.matchAll(/^SystemCallFilter=(.*)$/gm)) {
    const deny = value.startsWith("~");
    for (const item of value.replace(/^~/, "").split(/\s+/).filter(Boolean)) {
      const calls = item.startsWith("@") ? await groupCalls(item) : [item];
      for (const call of calls) (deny ? denied : allowed).add(call);
    }
  }
  return new Set([...allowed].filter((call) => !denied.has(call)));
}

export interface Traced {
  calls: Set<string>;
  families: Set<string>;
  /** Files opened for writing, created, renamed or removed, with whether the call succeeded. */
  writes: { call: string; path: string; ok: boolean }[];
}

const WRITING =
  /^(openat|open|creat|mkdir|mkdirat|rename|renameat|renameat2|unlink|unlinkat|rmdir|truncate)$/;

/**
 * Parses `strace -f -o` output from the first call matching `from` on (the calls of a launcher such as
 * setpriv before it executes the program are not the program's), joining the halves of interrupted calls.
 */
export function parseStrace(text: string, from: RegExp): Traced {
  const traced: Traced = { calls: new Set(), families: new Set(), writes: [] };
  const pending = new Map<string, string>();
  const lines = text.split("\n");
  const start = lines.findIndex((line) => from.test(line));
  if (start < 0) throw new Error(`strace recorded no call matching ${from}`);
  for (const raw of lines.slice(start)) {
    const head = /^(\d+)\s+(.*)$/.exec(raw);
    if (!head) continue;
    const [, pid, rest] = head;
    let line = rest;
    if (line.endsWith("<unfinished ...>")) {
      pending.set(pid, line.slice(0, -"<unfinished ...>".length));
      continue;
    }
    const resumed = /^<\.\.\. [a-z0-9_]+ resumed>(.*)$/.exec(line);
    if (resumed) {
      line = (pending.get(pid) ?? "") + resumed[1];
      pending.delete(pid);
    }
    const call = /^([a-z0-9_]+)\((.*)\)\s+=\s+(-?\d+|\?)/.exec(line);
    if (!call) continue;
    const [, name, args, result] = call;
    traced.calls.add(name);
    if (name === "socket") traced.families.add(args.split(",")[0].trim());
    if (!WRITING.test(name)) continue;
    if (/^open/.test(name) && !/O_WRONLY|O_RDWR|O_CREAT|O_TRUNC/.test(args)) continue;
    for (const path of args.matchAll(/"((?:\\.|[^"\\])*)"/g)) {
      traced.writes.push({ call: name, path: path[1], ok: result !== "?" && Number(result) >= 0 });
    }
  }
  return traced;
}
