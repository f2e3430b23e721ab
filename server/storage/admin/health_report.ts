/**
 * The health-info report (minio-protocol §3.16) in madmin's v3 shape, about this one node: CPU, memory, OS,
 * process, the data drive with its space and a short write/read check, and the server configuration with
 * every secret redacted. Collected in two steps (the quick facts, then the drive check) so a report reaches
 * the client even when the deadline cuts the drive check short.
 */
import { formatConfig } from "./server_config.ts";
import type { AdminContext } from "./context.ts";
import { subsystem } from "./subsystems.ts";
import { EMBEDDED_VERSION } from "./info.ts";

/** Bytes written and read back by the drive check: enough to see a sick disk, quick on a healthy one. */
const DRIVE_CHECK_BYTES = 4 * 1024 * 1024;

const readText = (path: string) => Deno.readTextFile(path).catch(() => "");

async function cpus(node: string) {
  const info = await readText("/proc/cpuinfo");
  const field = (name: string) => new RegExp(`^${name}\\s*:\\s*(.*)$`, "m").exec(info)?.[1] ?? "";
  return [{
    node,
    cpus: [{
      vendor_id: field("vendor_id"),
      family: field("cpu family"),
      model: field("model"),
      model_name: field("model name"),
      mhz: Number(field("cpu MHz")) || 0,
      cache_size: Number.parseInt(field("cache size")) || 0,
      flags: field("flags").split(" ").filter(Boolean).slice(0, 40),
      cores: navigator.hardwareConcurrency,
    }],
  }];
}

function memory(node: string) {
  const m = Deno.systemMemoryInfo();
  return [{ node, total: m.total, used: m.total - m.available, free: m.free, available: m.available, buffers: m.buffers, cache: m.cached, swap_space_total: m.swapTotal, swap_space_free: m.swapFree }];
}

async function osInfo(node: string, anonymize: boolean) {
  const release = await readText("/etc/os-release");
  return [{
    node,
    info: {
      hostname: anonymize ? "server1" : Deno.hostname(),
      uptime: Deno.osUptime(),
      os: Deno.build.os,
      platform: /^PRETTY_NAME="?([^"\n]*)"?$/m.exec(release)?.[1] ?? "",
      kernelArch: Deno.build.arch,
      kernelVersion: Deno.osRelease(),
    },
  }];
}

function process(node: string) {
  const memory = Deno.memoryUsage();
  return [{ node, pid: Deno.pid, ppid: Deno.ppid, runtime: `deno ${Deno.version.deno}`, mem_info: { rss: memory.rss, heap_total: memory.heapTotal, heap_used: memory.heapUsed }, num_threads: 0 }];
}

/** The configuration as get-config-kv prints it, with secret keys and credentials inside URLs masked. */
export function redactedConfig(ctx: AdminContext): string {
  const tree = structuredClone(ctx.config.tree);
  for (const [name, targets] of Object.entries(tree)) {
    const def = subsystem(name);
    for (const values of Object.values(targets)) {
      for (const [key, value] of Object.entries(values)) {
        if (def?.keys.find((k) => k.key === key)?.secret || /password|secret|token|key$/.test(key)) values[key] = "*REDACTED*";
        else values[key] = value.replace(/\/\/[^/@\s]+@/g, "//*REDACTED*@").replace(/([?&](token|auth|password|secret)[^=]*=)[^&\s]*/gi, "$1*REDACTED*");
      }
    }
  }
  return formatConfig(tree);
}

async function driveCheck(ctx: AdminContext, signal: AbortSignal) {
  const dir = `${ctx.store.dataDir}/.deck/tmp`;
  const path = `${dir}/healthinfo-${crypto.randomUUID()}`;
  const data = crypto.getRandomValues(new Uint8Array(64 * 1024));
  const space = await ctx.store.diskSpace();
  const drive = { path: ctx.store.dataDir, totalspace: space.total, usedspace: space.used, availspace: space.free, write_throughput: 0, read_throughput: 0, error: "" };
  try {
    await Deno.mkdir(dir, { recursive: true });
    let started = performance.now();
    const file = await Deno.open(path, { write: true, create: true, mode: 0o600 });
    try {
      for (let written = 0; written < DRIVE_CHECK_BYTES && !signal.aborted; written += data.length) await file.write(data);
      await file.syncData();
    } finally {
      file.close();
    }
    drive.write_throughput = Math.round(DRIVE_CHECK_BYTES / ((performance.now() - started) / 1000));
    started = performance.now();
    const back = await Deno.readFile(path, { signal });
    drive.read_throughput = Math.round(back.length / ((performance.now() - started) / 1000));
    if (back.length !== DRIVE_CHECK_BYTES || back.subarray(0, data.length).some((b, i) => b !== data[i])) drive.error = "the data read back differs from what was written";
  } catch (error) {
    drive.error = signal.aborted ? "the deadline passed before the drive check finished" : `drive check failed: ${error instanceof Error ? error.message : error}`;
  } finally {
    await Deno.remove(path).catch(() => {});
  }
  return drive;
}

/** Yields the report twice: quick facts first, then with the drive check; stops early when `signal` aborts. */
export async function* healthReports(ctx: AdminContext, signal: AbortSignal, anonymize: boolean): AsyncGenerator<unknown> {
  const node = ctx.url.host;
  const usage = await ctx.store.usage();
  const report = {
    version: "3",
    error: "",
    timestamp: new Date(ctx.now()).toISOString(),
    sys: {
      cpus: await cpus(node),
      partitions: [] as unknown[],
      osinfo: await osInfo(node, anonymize),
      meminfo: memory(node),
      procinfo: process(node),
      errors: [],
      services: [],
      config: [],
    },
    minio: {
      error: "",
      config: { config: redactedConfig(ctx) },
      info: {
        mode: "online",
        deploymentID: ctx.store.deploymentId,
        region: ctx.config.region(),
        buckets: { count: usage.buckets },
        objects: { count: usage.objects },
        usage: { size: usage.size },
        servers: [{ state: "online", endpoint: node, uptime: Math.floor((ctx.now() - ctx.startedAt) / 1000), version: EMBEDDED_VERSION, drives: [] as unknown[] }],
      },
    },
  };
  yield report;
  if (signal.aborted) return;
  const drive = await driveCheck(ctx, signal);
  report.sys.partitions = [{ node, partitions: [{ device: drive.path, mountpoint: drive.path, total: drive.totalspace, free: drive.availspace, error: drive.error }] }];
  report.minio.info.servers[0].drives = [{ endpoint: drive.path, state: drive.error ? "faulty" : "ok", ...drive }];
  report.timestamp = new Date(ctx.now()).toISOString();
  yield report;
}
