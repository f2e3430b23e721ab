/**
 * The health-info report (minio-protocol §3.16) in madmin's v3 shape (health.go), about this one node:
 * - sys: CPUs, the data drive's partition, OS, memory, this process, network interfaces, the system checks
 *   madmin makes (kernel audit, updatedb), services (SELinux), kernel settings and the product identity
 *   (host_facts.ts); `kubernetes` is empty (not run by Kubernetes);
 * - minio: the server configuration with every secret redacted, and the server's info (as ServerInfo, with
 *   the drive's short write/read check and its throughput).
 * The request's data-type flags choose the sections (madmin v3 sends each as true or false; a request with
 * none gets them all). Collected in two steps, the quick facts and then the drive check, so a report reaches
 * the client even when the deadline cuts the drive check short. `anonymize` hides the host name, machine id
 * and serial numbers.
 */
import { formatConfig } from "../config/server_config.ts";
import type { AdminContext } from "./context.ts";
import { subsystem } from "../config/subsystems.ts";
import { drive, serverInfoDocument } from "./info.ts";
import {
  cpuFacts,
  memoryFacts,
  networkFacts,
  osFacts,
  partitionFacts,
  processFacts,
  productFacts,
  systemConfig,
  systemErrors,
  systemServices,
} from "./host_facts.ts";

/** Bytes written and read back by the drive check: enough to see a sick disk, quick on a healthy one. */
const DRIVE_CHECK_BYTES = 4 * 1024 * 1024;

/** madmin's health data types (HealthDataTypesMap). */
export const HEALTH_DATA_TYPES = [
  "minioinfo",
  "minioconfig",
  "syscpu",
  "sysdrivehw",
  "sysosinfo",
  "sysmem",
  "sysnet",
  "sysprocess",
  "syserrors",
  "sysservices",
  "sysconfig",
] as const;
export type HealthDataType = typeof HEALTH_DATA_TYPES[number];

/** The types a request asks for: those set to true, or all when it names none. */
export function requestedTypes(query: URLSearchParams): Set<HealthDataType> {
  const named = HEALTH_DATA_TYPES.filter((type) => query.has(type));
  if (named.length === 0) return new Set(HEALTH_DATA_TYPES);
  return new Set(named.filter((type) => query.get(type) === "true"));
}

/** The configuration as get-config-kv prints it, with secret keys and credentials inside URLs masked. */
export function redactedConfig(ctx: AdminContext): string {
  const tree = structuredClone(ctx.config.tree);
  for (const [name, targets] of Object.entries(tree)) {
    const def = subsystem(name);
    for (const values of Object.values(targets)) {
      for (const [key, value] of Object.entries(values)) {
        if (def?.keys.find((k) => k.key === key)?.secret || /password|secret|token|key$/.test(key)) {
          values[key] = "*REDACTED*";
        } else {values[key] = value.replace(/\/\/[^/@\s]+@/g, "//*REDACTED*@").replace(
            /([?&](token|auth|password|secret)[^=]*=)[^&\s]*/gi,
            "$1*REDACTED*",
          );}
      }
    }
  }
  return formatConfig(tree);
}

async function driveCheck(ctx: AdminContext, signal: AbortSignal) {
  const dir = `${ctx.store.dataDir}/.deck/tmp`;
  const path = `${dir}/healthinfo-${crypto.randomUUID()}`;
  const data = crypto.getRandomValues(new Uint8Array(64 * 1024));
  const result = { writethroughput: 0, readthroughput: 0, error: "" };
  try {
    await Deno.mkdir(dir, { recursive: true });
    let started = performance.now();
    const file = await Deno.open(path, { write: true, create: true, mode: 0o600 });
    try {
      for (let written = 0; written < DRIVE_CHECK_BYTES && !signal.aborted; written += data.length) {
        await file.write(data);
      }
      await file.syncData();
    } finally {
      file.close();
    }
    result.writethroughput = Math.round(DRIVE_CHECK_BYTES / ((performance.now() - started) / 1000));
    started = performance.now();
    const back = await Deno.readFile(path, { signal });
    result.readthroughput = Math.round(back.length / ((performance.now() - started) / 1000));
    if (back.length !== DRIVE_CHECK_BYTES || back.subarray(0, data.length).some((b, i) => b !== data[i])) {
      result.error = "the data read back differs from what was written";
    }
  } catch (error) {
    result.error = signal.aborted
      ? "the deadline passed before the drive check finished"
      : `drive check failed: ${error instanceof Error ? error.message : error}`;
  } finally {
    await Deno.remove(path).catch(() => {});
  }
  return result;
}

const isDocker = () => Deno.stat("/.dockerenv").then(() => true, () => false);

/** Yields the report twice: quick facts first, then with the drive check; stops early when `signal` aborts. */
export async function* healthReports(
  ctx: AdminContext,
  signal: AbortSignal,
  options: { anonymize: boolean; types: Set<HealthDataType> },
): AsyncGenerator<unknown> {
  const addr = ctx.url.host;
  const wants = (type: HealthDataType) => options.types.has(type);
  const space = await ctx.store.diskSpace();
  const sys: Record<string, unknown> = { kubernetes: {} };
  if (wants("syscpu")) sys.cpus = [await cpuFacts(addr)];
  if (wants("sysdrivehw")) sys.partitions = [await partitionFacts(addr, ctx.store.dataDir, space)];
  if (wants("sysosinfo")) sys.osinfo = [await osFacts(addr, options.anonymize)];
  if (wants("sysmem")) sys.meminfo = [await memoryFacts(addr)];
  if (wants("sysprocess")) sys.procinfo = [await processFacts(addr)];
  if (wants("sysnet")) sys.netinfo = await networkFacts(addr);
  if (wants("syserrors")) sys.errors = [await systemErrors(addr)];
  if (wants("sysservices")) sys.services = [await systemServices(addr)];
  if (wants("sysconfig")) sys.config = [await systemConfig(addr)];
  if (wants("sysosinfo")) sys.productinfo = [await productFacts(addr, options.anonymize)];
  const minio: Record<string, unknown> = {};
  if (wants("minioconfig")) minio.config = { config: redactedConfig(ctx) };
  const server = wants("minioinfo") ? await serverFacts(ctx) : null;
  if (server) minio.info = server.info;
  const report = { version: "3", timestamp: new Date(ctx.now()).toISOString(), sys, minio };
  yield report;
  if (signal.aborted || !server) return;
  const check = await driveCheck(ctx, signal);
  Object.assign(server.drive, {
    writethroughput: check.writethroughput,
    readthroughput: check.readthroughput,
  }, check.error ? { state: "faulty" } : {});
  if (check.error) minio.error = `drive ${ctx.store.dataDir}: ${check.error}`;
  report.timestamp = new Date(ctx.now()).toISOString();
  yield report;
}

/** minio.info: ServerInfo's document plus what health adds (runtime, TLS, container), with the drive the check fills in. */
async function serverFacts(ctx: AdminContext) {
  const disk: Record<string, unknown> = await drive(ctx);
  const info = await serverInfoDocument(ctx, disk);
  Object.assign(info.servers[0], {
    num_cpu: navigator.hardwareConcurrency,
    runtime_version: `deno ${Deno.version.deno}`,
  });
  return {
    info: {
      ...info,
      tls: { tls_enabled: ctx.url.protocol === "https:" },
      is_kubernetes: false,
      is_docker: await isDocker(),
    },
    drive: disk,
  };
}
