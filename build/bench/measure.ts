/** Small measuring helpers shared by the benchmark scripts (run by `deno task bench`, never by tests). */
export { freePort } from "../../tests/storage_process.ts";

export function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** CPU time a process has used, in ms (Linux /proc; utime + stime in clock ticks of 10 ms). */
export function cpuMs(pid: number): number {
  const fields = Deno.readTextFileSync(`/proc/${pid}/stat`).split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** CPU time of a process's threads named `worker-*` (its worker threads: delivery, replication sends), in ms. */
export function workerThreadsCpuMs(pid: number): number {
  let total = 0;
  for (const task of Deno.readDirSync(`/proc/${pid}/task`)) {
    const stat = Deno.readTextFileSync(`/proc/${pid}/task/${task.name}/stat`);
    if (!/\(worker-\d+\)/.test(stat)) continue;
    const fields = stat.split(") ")[1].split(" ");
    total += (Number(fields[11]) + Number(fields[12])) * 10;
  }
  return total;
}

/**
 * CPU time of a process's threads in ms, by role: `main` (the thread the process started on), `workers`
 * (threads named `worker-*`: Deno workers, such as the embedded storage's), `v8` (V8's helper threads:
 * garbage collection, compilation) and `other` (I/O threads); `total` is the whole process, threads that
 * already ended included.
 */
export function threadsCpuMs(
  pid: number,
): { main: number; workers: number; v8: number; other: number; total: number } {
  const byRole = { main: 0, workers: 0, v8: 0, other: 0, total: cpuMs(pid) };
  for (const task of Deno.readDirSync(`/proc/${pid}/task`)) {
    let stat: string;
    try {
      stat = Deno.readTextFileSync(`/proc/${pid}/task/${task.name}/stat`);
    } catch {
      continue; // the thread ended meanwhile
    }
    const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ms = (Number(fields[11]) + Number(fields[12])) * 10;
    const role = task.name === String(pid)
      ? "main"
      : name.startsWith("worker-")
      ? "workers"
      : name.startsWith("V8 ")
      ? "v8"
      : "other";
    byRole[role] += ms;
  }
  return byRole;
}

/**
 * Waits until a process has used no CPU for `windowMs` (start-up work or deliveries finished); CPU time is
 * counted in 10 ms ticks, so the window is what is measured, not a guess at how long the work takes.
 */
export async function untilIdle(pid: number, windowMs = 300, timeoutMs = 60_000): Promise<void> {
  const started = performance.now();
  let last = cpuMs(pid);
  while (performance.now() - started < timeoutMs) {
    await new Promise((resolve) => setTimeout(resolve, windowMs));
    const now = cpuMs(pid);
    if (now === last) return;
    last = now;
  }
  throw new Error(`process ${pid} was still busy after ${timeoutMs} ms`);
}

/** The machine's 1-minute load average (reported beside results that other processes can disturb). */
export function loadAverage(): number {
  return Number(Deno.readTextFileSync("/proc/loadavg").split(" ")[0]);
}

const MiB = 1024 * 1024;

/** `size` bytes of a repeating pattern (byte i is i × stride), streamed in 1 MiB chunks without allocating them. */
export function pattern(size: number, stride = 1): ReadableStream<Uint8Array> {
  const chunk = new Uint8Array(MiB).map((_, i) => (i * stride) & 0xff);
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= size) return controller.close();
      const n = Math.min(MiB, size - sent);
      sent += n;
      controller.enqueue(n === MiB ? chunk : chunk.subarray(0, n));
    },
  });
}

/** Reads a body to its end; the bytes read. */
export async function drain(stream: ReadableStream<Uint8Array> | null): Promise<number> {
  let n = 0;
  if (stream) { for await (const c of stream) n += c.length; }
  return n;
}

/** Resident set size of a process in bytes (Linux /proc). */
export async function rssOf(pid: number): Promise<number> {
  const status = await Deno.readTextFile(`/proc/${pid}/status`);
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
}

/** Polls a URL until it answers 200; returns milliseconds since `started`. */
export async function firstOk(url: string, started: number, timeoutMs = 30_000): Promise<number> {
  while (performance.now() - started < timeoutMs) {
    try {
      const res = await fetch(url);
      await res.body?.cancel();
      if (res.status === 200) return performance.now() - started;
    } catch { /* not listening yet */ }
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`${url} never answered 200`);
}

/** One benchmark result line: the metric, Deck's value, the baseline's, and the goal as text. */
export interface BenchResult {
  name: string;
  deck: number;
  baseline: number;
  unit: string;
  /** deck/baseline or baseline/deck, whichever the goal reads. */
  ratio: number;
  goal: string;
  pass: boolean;
  baselineName: string;
}

export function emit(result: BenchResult): void {
  console.log(JSON.stringify({ bench: result }));
}

export interface Latency {
  p50: number;
  p99: number;
}

/** Runs `work` `samples` times one after another (after `warmup` untimed runs); its latency in ms. */
export async function timed(samples: number, work: () => Promise<unknown>, warmup = 0): Promise<Latency> {
  for (let i = 0; i < warmup; i++) await work();
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const t = performance.now();
    await work();
    times.push(performance.now() - t);
  }
  return { p50: percentile(times, 50), p99: percentile(times, 99) };
}

/** Runs `work(0 … count-1)`, `size` at a time (seeding many users, buckets, tenants). */
export async function inBatches(
  count: number,
  size: number,
  work: (i: number) => Promise<unknown>,
): Promise<void> {
  for (let i = 0; i < count; i += size) {
    await Promise.all(Array.from({ length: Math.min(size, count - i) }, (_, j) => work(i + j)));
  }
}

/** Two reported rows, "<subject> p50 (<scale>)" and "… p99 …", each against the baseline's same percentile. */
export function emitLatency(
  subject: string,
  scale: string,
  deck: Latency,
  baseline: Latency,
  baselineName: string,
): void {
  for (const p of ["p50", "p99"] as const) {
    emit({
      name: `${subject} ${p} (${scale})`,
      deck: deck[p],
      baseline: baseline[p],
      unit: "ms",
      ratio: deck[p] / baseline[p],
      goal: "(reported)",
      pass: true,
      baselineName: p === "p50" ? baselineName : `${baselineName}, p99`,
    });
  }
}
