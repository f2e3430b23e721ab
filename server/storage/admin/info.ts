/** Server info, storage info, data usage and account info (minio-protocol §3.3). */
import { CANNED_POLICIES } from "../../lib/policy/actions.ts";
import type { AdminContext } from "./context.ts";
import { json, requireAction } from "./context.ts";

export const EMBEDDED_VERSION = "DECK-EMBEDDED.2026-11-22";

export async function drive(ctx: AdminContext) {
  const space = await ctx.store.diskSpace();
  return {
    endpoint: ctx.store.dataDir,
    rootDisk: true,
    path: ctx.store.dataDir,
    healing: false,
    scanning: false,
    state: "ok",
    uuid: ctx.store.deploymentId,
    model: "",
    totalspace: space.total,
    usedspace: space.used,
    availspace: space.free,
    pool_index: 0,
    set_index: 0,
    disk_index: 0,
  };
}

/** madmin backend type: 1 = FS (single drive), 2 = Erasure. */
function backendInfo(ctx: AdminContext, online: number) {
  return {
    Type: ctx.reportedBackend === "fs" ? 1 : 2,
    GatewayOnline: false,
    OnlineDisks: { "": online },
    OfflineDisks: { "": 0 },
    StandardSCData: [1],
    StandardSCParities: [0],
    RRSCData: [1],
    RRSCParities: [0],
    TotalSets: [1],
    DrivesPerSet: [1],
    StandardSCParity: 0,
    RRSCParity: 0,
  };
}

export async function serverInfo(ctx: AdminContext): Promise<Response> {
  requireAction(ctx, "admin:ServerInfo");
  return json(await serverInfoDocument(ctx, await drive(ctx)));
}

/**
 * ServerInfo's document (madmin InfoMessage) about this one node, with `disk` as its drive: the health report
 * (health_report.ts) sends the same document as its minio.info, with the drive its check fills in.
 */
export async function serverInfoDocument(ctx: AdminContext, disk: Record<string, unknown>) {
  const usage = await ctx.store.usage();
  const endpoint = ctx.url.host;
  const memory = Deno.memoryUsage();
  return {
    mode: "online",
    domain: [],
    region: ctx.config.region(),
    sqsARN: ctx.config.notificationArns(),
    deploymentID: ctx.store.deploymentId,
    buckets: { count: usage.buckets },
    objects: { count: usage.objects },
    versions: { count: usage.versions },
    deletemarkers: { count: usage.deleteMarkers },
    usage: { size: usage.size },
    services: { ldap: {}, notifications: await ctx.notificationStatus() },
    // The embedded server supports versioning, locking, quota, replication and lifecycle configuration,
    // so it reports itself as an erasure-coded single node and the console shows those features.
    backend: {
      backendType: ctx.reportedBackend === "fs" ? "FS" : "Erasure",
      onlineDisks: 1,
      offlineDisks: 0,
      standardSCParity: 0,
      rrSCParity: 0,
      totalSets: [1],
      totalDrivesPerSet: [1],
    },
    servers: [{
      state: "online",
      endpoint,
      scheme: ctx.url.protocol.replace(":", ""),
      uptime: Math.floor((ctx.now() - ctx.startedAt) / 1000),
      version: EMBEDDED_VERSION,
      commitID: "",
      network: { [endpoint]: "online" },
      drives: [disk],
      poolNumber: 1,
      poolNumbers: [1],
      mem_stats: {
        Alloc: memory.heapUsed,
        TotalAlloc: 0,
        Mallocs: 0,
        Frees: 0,
        HeapAlloc: memory.heapUsed,
        Sys: memory.rss,
      },
      edition: "",
    }],
  };
}

export async function storageInfo(ctx: AdminContext): Promise<Response> {
  requireAction(ctx, "admin:StorageInfo");
  return json({ Disks: [await drive(ctx)], Backend: backendInfo(ctx, 1) });
}

export async function dataUsageInfo(ctx: AdminContext): Promise<Response> {
  requireAction(ctx, "admin:DataUsageInfo");
  const usage = await ctx.store.usage();
  const space = await ctx.store.diskSpace();
  const perBucket: Record<string, unknown> = {};
  for (const [name, b] of Object.entries(usage.perBucket)) {
    perBucket[name] = {
      size: b.size,
      objectsCount: b.objects,
      versionsCount: b.versions,
      deleteMarkersCount: b.deleteMarkers,
    };
  }
  return json({
    lastUpdate: new Date(ctx.now()).toISOString(),
    objectsCount: usage.objects,
    objectsTotalSize: usage.size,
    bucketsCount: usage.buckets,
    bucketsUsageInfo: perBucket,
    bucketsSizes: Object.fromEntries(Object.entries(usage.perBucket).map(([n, b]) => [n, b.size])),
    capacity: space.total,
    freeCapacity: space.free,
    usedCapacity: space.used,
  });
}

/** The caller's effective policy as one document (the console builds its menu from it). */
function effectivePolicy(ctx: AdminContext): unknown {
  const restriction = ctx.authority.restrictionOf(ctx.credential);
  if (restriction) return toDocument(restriction.policy.Statement);
  const federated = ctx.authority.federatedPolicies(ctx.credential);
  if (federated) return toDocument(federated.flatMap((p) => p.policy.Statement));
  if (ctx.authority.isRoot(ctx.credential.parentUser)) return CANNED_POLICIES.consoleAdmin;
  return toDocument(ctx.authority.policiesOf(ctx.credential.parentUser).flatMap((p) => p.policy.Statement));
}

function toDocument(statements: unknown[]): unknown {
  return { Version: "2012-10-17", Statement: statements.map((s) => JSON.parse(JSON.stringify(s))) };
}

export async function accountInfo(ctx: AdminContext): Promise<Response> {
  const usage = await ctx.store.usage();
  const buckets = [];
  for (const name of await ctx.store.listBucketNames()) {
    const can = (action: string) => ctx.authority.isAllowed(ctx.credential, action, name, "", {});
    const read = can("s3:ListBucket") || can("s3:GetObject");
    const write = can("s3:PutObject");
    if (!read && !write && !can("s3:GetBucketLocation")) continue;
    const b = usage.perBucket[name];
    const details = await ctx.store.bucketDetails(name);
    buckets.push({
      name,
      size: b?.size ?? 0,
      objects: b?.objects ?? 0,
      created: b?.created ?? "",
      access: { read, write },
      details,
    });
  }
  return json({
    AccountName: ctx.credential.parentUser,
    Server: backendInfo(ctx, 1),
    Policy: effectivePolicy(ctx),
    Buckets: buckets,
  });
}
