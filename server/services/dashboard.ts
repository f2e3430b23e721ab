/** The basic dashboard's data: admin server info mapped to the console contract (api-index §3). */
import type { AdminInfo } from "../contract/dashboard.ts";
import type { AppDeps } from "../deps.ts";
import { serverInfo } from "../s3/admin/info.ts";
import type { SessionData } from "../session/token.ts";
import { clientFor } from "./storage_clients.ts";

export async function adminInfo(deps: AppDeps, session: SessionData): Promise<AdminInfo> {
  const info = await serverInfo(clientFor(deps, session));
  const servers = (info.servers ?? []).map((s) => ({
    state: s.state ?? "",
    endpoint: s.endpoint ?? "",
    uptime: s.uptime ?? 0,
    version: s.version ?? "",
    commitID: s.commitID ?? "",
    poolNumber: s.poolNumber ?? 0,
    network: s.network ?? {},
    drives: (s.drives ?? []).map((d) => ({
      uuid: d.uuid ?? "",
      state: d.state ?? "",
      endpoint: d.endpoint ?? "",
      drivePath: d.path ?? "",
      rootDisk: !!d.rootDisk,
      healing: !!d.healing,
      model: d.model ?? "",
      totalSpace: d.totalspace ?? 0,
      usedSpace: d.usedspace ?? 0,
      availableSpace: d.availspace ?? 0,
    })),
  }));
  // Server cards are sorted by endpoint, case-insensitively (spec 1 Dashboard).
  servers.sort((a, b) => a.endpoint.toLowerCase().localeCompare(b.endpoint.toLowerCase()));
  return { buckets: info.buckets?.count ?? 0, objects: info.objects?.count ?? 0, usage: info.usage?.size ?? 0, servers };
}
