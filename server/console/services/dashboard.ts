/**
 * The dashboard's data (api-index §3): admin server info mapped to the console contract, plus the widget list
 * and its source when the session may read metrics and a source can answer.
 */
import type { AdminInfo, AdminInfoWithWidgets } from "../../lib/contract/dashboard.ts";
import type { MetricsService } from "../metrics/mod.ts";
import { serverInfo } from "../../lib/s3/admin/info.ts";
import { allows, type LiveAccess, liveAccess, type LiveAccessDeps } from "../session/live_access.ts";
import type { SessionData } from "../session/token.ts";
import { clientFor, type StorageAccess } from "../session/clients.ts";

/**
 * Metrics are for sessions whose policy allows `admin:Prometheus` (what MinIO demands of a metrics token), by
 * name or by a wildcard such as `admin:*`, unless a Deny says otherwise. The numbers come from Deck's own
 * history or Prometheus, not from a storage call made as the user, so this check is where the console
 * enforces it, against the account's current policy (server/console/session/live_access.ts).
 */
export const METRICS_ACTION = "admin:Prometheus";

export function canReadMetrics(access: LiveAccess): boolean {
  return allows(access, METRICS_ACTION);
}

/** GET /api/v1/admin/info: the basic fields, and `widgets` with their source when the session may see them. */
export async function adminInfo(
  deps: LiveAccessDeps & { metrics: MetricsService },
  session: SessionData,
): Promise<AdminInfoWithWidgets> {
  const info: AdminInfoWithWidgets = await basicInfo(deps, session);
  if (canReadMetrics(await liveAccess(deps, session)) && deps.metrics.state().ok) {
    info.widgets = deps.metrics.widgetList();
    info.metricsSource = deps.metrics.info();
  }
  return info;
}

async function basicInfo(deps: StorageAccess, session: SessionData): Promise<AdminInfo> {
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
  return {
    buckets: info.buckets?.count ?? 0,
    objects: info.objects?.count ?? 0,
    usage: info.usage?.size ?? 0,
    servers,
  };
}
