/**
 * What the operating system says about this process, for the node and process metrics. On Linux everything
 * comes from /proc/self (stat, status, io, limits, fd), read fresh at each scrape; elsewhere only what Deno
 * itself knows (resident memory). A value the system does not give is left out, never reported as 0.
 */

export interface ProcessStats {
  /** User + system CPU time, seconds. */
  cpuSeconds?: number;
  residentBytes: number;
  virtualBytes?: number;
  openFds?: number;
  maxFds?: number;
  /** OS threads of the process (the runtime's closest equivalent of MinIO's go-routine count). */
  threads?: number;
  /** /proc/self/io: syscr, syscw, rchar, wchar, read_bytes, write_bytes. */
  io?: { syscr: number; syscw: number; rchar: number; wchar: number; readBytes: number; writeBytes: number };
}

/** Linux reports CPU time in clock ticks; USER_HZ is 100 on every mainstream architecture. */
const TICKS_PER_SECOND = 100;

const readOrNull = (path: string) => Deno.readTextFile(path).catch(() => null);

function field(text: string, name: string): number | undefined {
  const match = new RegExp(`^${name}:?\\s+(\\d+)`, "m").exec(text);
  return match ? Number(match[1]) : undefined;
}

async function countFds(): Promise<number | undefined> {
  try {
    let count = 0;
    for await (const _ of Deno.readDir("/proc/self/fd")) count++;
    return count - 1; // the directory handle used to list it
  } catch {
    return undefined;
  }
}

export async function readProcessStats(): Promise<ProcessStats> {
  const [stat, status, io, limits, openFds] = await Promise.all([
    readOrNull("/proc/self/stat"),
    readOrNull("/proc/self/status"),
    readOrNull("/proc/self/io"),
    readOrNull("/proc/self/limits"),
    countFds(),
  ]);
  const stats: ProcessStats = { residentBytes: Deno.memoryUsage().rss, openFds };
  if (stat) {
    // Fields after the parenthesised command name (which may itself contain spaces): utime is field 14, stime 15.
    const rest = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const utime = Number(rest[11]);
    const stime = Number(rest[12]);
    if (Number.isFinite(utime) && Number.isFinite(stime)) {
      stats.cpuSeconds = (utime + stime) / TICKS_PER_SECOND;
    }
  }
  if (status) {
    const rss = field(status, "VmRSS");
    if (rss !== undefined) stats.residentBytes = rss * 1024;
    const vm = field(status, "VmSize");
    if (vm !== undefined) stats.virtualBytes = vm * 1024;
    stats.threads = field(status, "Threads");
  }
  if (io) {
    const get = (name: string) => field(io, name) ?? 0;
    stats.io = {
      syscr: get("syscr"),
      syscw: get("syscw"),
      rchar: get("rchar"),
      wchar: get("wchar"),
      readBytes: get("read_bytes"),
      writeBytes: get("write_bytes"),
    };
  }
  if (limits) {
    const match = /^Max open files\s+(\d+|unlimited)/m.exec(limits);
    if (match && match[1] !== "unlimited") stats.maxFds = Number(match[1]);
  }
  return stats;
}
