/**
 * The basic usage dashboard (spec 1 Dashboard, basic view), for /dashboard and /metrics: counts, usage,
 * the server version, and drive and server status with the spec's colour rules. Rendered with its data;
 * it needs no script.
 */
import { type Context, Hono } from "hono";
import { formatBytes, formatDuration, formatNumber } from "../islands/lib/format.ts";
import type { AdminInfo, ServerInfo } from "../server/contract/dashboard.ts";
import type { AppDeps, AppEnv } from "../server/deps.ts";
import { adminInfo } from "../server/services/dashboard.ts";
import { PageHeader } from "./layout/Shell.tsx";
import { renderInShell } from "./page_context.tsx";

/** online green, offline red, anything else grey. */
export const serverStateClass = (state: string) => (state === "online" ? "text-success" : state === "offline" ? "text-error" : "text-base-content/50");
/** ok green, offline red. */
export const driveStateClass = (state: string) => (state === "ok" ? "text-success" : state === "offline" ? "text-error" : "text-base-content/50");

/** Counters: red at or below half, yellow at exactly half plus one, green when all are up (spec 1 §4). */
export function counterClass(count: number, total: number): string {
  if (total > 0 && count === total) return "text-success";
  if (count <= total / 2) return "text-error";
  if (count === Math.floor(total / 2) + 1) return "text-warning";
  return "text-base-content/70";
}

function Card({ label, value, testId, small }: { label: string; value: string; testId: string; small?: boolean }) {
  return (
    <div className="card bg-base-100 shadow-sm">
      <div className="card-body p-5">
        <div className="text-sm text-base-content/70">{label}</div>
        <div className={`${small ? "text-base break-all" : "text-2xl"} font-bold`} data-testid={testId}>{value}</div>
      </div>
    </div>
  );
}

function ServerCard({ server }: { server: ServerInfo }) {
  const drivesOk = server.drives.filter((d) => d.state === "ok").length;
  const peers = Object.values(server.network);
  const online = peers.filter((p) => p === "online").length;
  return (
    <li className="card bg-base-100 shadow-sm" data-testid="server-card">
      <div className="card-body p-4 gap-1">
        <div className="flex items-center gap-2 font-bold">
          <span className={`${serverStateClass(server.state)}`} aria-hidden="true">●</span>
          <span>{server.endpoint}</span>
          <span className={`badge badge-ghost ${serverStateClass(server.state)}`}>{server.state}</span>
        </div>
        <div className="flex flex-wrap gap-x-6 text-sm">
          <span>Drives: <b className={counterClass(drivesOk, server.drives.length)}>{drivesOk}/{server.drives.length}</b></span>
          <span>Network: <b className={counterClass(online, peers.length)}>{online}/{peers.length}</b></span>
          <span>Uptime: <b>{formatDuration(server.uptime)}</b></span>
          <span>Version: <b>{server.version}</b></span>
        </div>
      </div>
    </li>
  );
}

export function BasicDashboard({ info }: { info: AdminInfo }) {
  const drives = info.servers.flatMap((s) => s.drives);
  return (
    <>
      <section className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4 mb-8">
        <Card label="Number of Buckets" value={formatNumber(info.buckets)} testId="buckets-count" />
        <Card label="Usage" value={formatBytes(info.usage)} testId="usage" />
        <Card label="Total Objects" value={formatNumber(info.objects)} testId="objects-count" />
        <Card label="Version" value={info.servers[0]?.version ?? "-"} testId="server-version" small />
      </section>
      <section className="mb-8">
        <h2 className="text-lg font-bold mb-3">Drives Status</h2>
        <ul className="grid gap-3 lg:grid-cols-2">
          {drives.map((drive) => (
            <li key={drive.endpoint + drive.uuid} className="card bg-base-100 shadow-sm" data-testid="drive-card">
              <div className="card-body p-4 gap-1">
                <div className="flex items-center gap-2 font-bold break-all">
                  <span className={driveStateClass(drive.state)} aria-hidden="true">●</span>
                  {drive.endpoint}
                  <span className={`badge badge-ghost ${driveStateClass(drive.state)}`}>{drive.state}</span>
                </div>
                <div className="flex flex-wrap gap-x-6 text-sm">
                  <span>Capacity: <b>{formatBytes(drive.totalSpace)}</b></span>
                  <span>Used: <b>{formatBytes(drive.usedSpace)}</b></span>
                  <span>Available: <b>{formatBytes(drive.availableSpace)}</b></span>
                </div>
              </div>
            </li>
          ))}
        </ul>
      </section>
      <section>
        <h2 className="text-lg font-bold mb-3">Servers Status</h2>
        <ul className="grid gap-3 lg:grid-cols-2">{info.servers.map((s) => <ServerCard key={s.endpoint} server={s} />)}</ul>
      </section>
    </>
  );
}

const EMPTY: AdminInfo = { buckets: 0, objects: 0, usage: 0, servers: [] };

export function dashboardPages(deps: AppDeps) {
  const page = async (c: Context<AppEnv>) => {
    let info = EMPTY;
    let error: unknown;
    try {
      info = await adminInfo(deps, c.get("session")!);
    } catch (e) {
      error = e;
    }
    return renderInShell(deps, c, {
      title: "Dashboard",
      error,
      body: (
        <>
          <PageHeader title="Dashboard" />
          <BasicDashboard info={info} />
        </>
      ),
    });
  };
  return new Hono<AppEnv>().get("/dashboard", page).get("/metrics", page);
}
