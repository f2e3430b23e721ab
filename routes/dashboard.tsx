/**
 * The dashboard (spec 1 Dashboard), for /dashboard and /metrics (the shell hides the sidebar there). With a
 * metrics source the widget dashboard shows (an island); otherwise, or with ?view=basic, the basic usage view:
 * counts, usage, the server version, drive and server status with the spec's colour rules, and trend lines
 * from the same metrics source. The basic view is rendered with its data and needs no script.
 */
import { type Context, Hono } from "hono";
import type { ReactNode } from "react";
import MetricsDashboard from "../islands/MetricsDashboard.tsx";
import { formatBytes, formatDuration, formatNumber } from "../islands/lib/format.ts";
import { Sparkline } from "../islands/ui/Sparkline.tsx";
import { decimal } from "../islands/dashboard/panel_data.ts";
import { t } from "../islands/lib/i18n/t.ts";
import { tNode } from "../islands/lib/i18n/rich.tsx";
import {
  type AdminInfo,
  type AdminInfoWithWidgets,
  CHART_PALETTE,
  type DashboardTrends,
  type ServerInfo,
} from "../server/lib/contract/dashboard.ts";
import type { AppDeps } from "../server/console/deps.ts";
import type { AppEnv } from "../server/console/session/env.ts";
import { Island } from "../server/console/render/island.tsx";
import { adminInfo, canReadMetrics } from "../server/console/services/dashboard.ts";
import { PageHeader } from "./layout/Shell.tsx";
import { renderInShell } from "./page_context.tsx";

/** online green, offline red, anything else grey. */
export const serverStateClass = (
  state: string,
) => (state === "online" ? "text-success" : state === "offline" ? "text-error" : "text-base-content/50");
/** ok green, offline red. */
export const driveStateClass = (
  state: string,
) => (state === "ok" ? "text-success" : state === "offline" ? "text-error" : "text-base-content/50");

/** Counters: red at or below half, yellow at exactly half plus one, green when all are up (spec 1 §4). */
export function counterClass(count: number, total: number): string {
  if (total > 0 && count === total) return "text-success";
  if (count <= total / 2) return "text-error";
  if (count === Math.floor(total / 2) + 1) return "text-warning";
  return "text-base-content/70";
}

function Card(
  { label, value, testId, small, trend }: {
    label: string;
    value: string;
    testId: string;
    small?: boolean;
    trend?: ReactNode;
  },
) {
  return (
    <div className="card bg-base-100 shadow-sm">
      <div className="card-body p-5">
        <div className="text-sm text-base-content/70">{label}</div>
        <div className={`${small ? "text-base wrap-anywhere" : "text-2xl"} font-bold`} data-testid={testId}>
          {value}
        </div>
        {trend}
      </div>
    </div>
  );
}

/** "the last day", "the last 3 hours", "the last minute": the window the trends cover. */
function spanText(seconds: number): string {
  if (seconds >= 86_400) return t("monitoring.dashboard.spanDay");
  const whole = Math.max(0, Math.floor(seconds));
  if (whole >= 3600) return t("monitoring.dashboard.spanHours", { count: Math.floor(whole / 3600) });
  if (whole >= 60) return t("monitoring.dashboard.spanMinutes", { count: Math.floor(whole / 60) });
  return t("monitoring.dashboard.spanSeconds", { count: whole });
}

/** A server's or drive's state in the page's language; one the storage names otherwise stays as it is. */
const stateText = (state: string) =>
  ["online", "offline", "ok"].includes(state) ? t(`monitoring.dashboard.state.${state as "ok"}`) : state;

/** A trend line with its latest value, or nothing while there are fewer than two points. */
function Trend(
  { points, color, label, testId }: {
    points: [number, number][];
    color: string;
    label: string;
    testId: string;
  },
) {
  if (points.length < 2) return null;
  return (
    <div className="mt-2" data-testid={testId}>
      <Sparkline values={points.map(([, v]) => v)} color={color} label={label} height={36} />
    </div>
  );
}

function TrendCards({ trends }: { trends: DashboardTrends }) {
  const span = spanText(trends.windowSeconds);
  const latest = (points: [number, number][]) => points.at(-1)?.[1] ?? 0;
  return (
    <section
      className="grid gap-4 sm:grid-cols-2 mb-8"
      aria-label={t("monitoring.dashboard.trends", { span })}
    >
      <Card
        label={t("monitoring.dashboard.requests", { span })}
        value={`${
          latest(trends.requests) >= 10
            ? formatNumber(latest(trends.requests))
            : decimal(latest(trends.requests), 2)
        }/s`}
        testId="requests-rate"
        trend={
          <Trend
            points={trends.requests}
            color={CHART_PALETTE[0]}
            label={t("monitoring.dashboard.requestsLine", { span })}
            testId="requests-trend"
          />
        }
      />
      <Card
        label={t("monitoring.dashboard.traffic", { span })}
        value={`${formatBytes(latest(trends.traffic))}/s`}
        testId="traffic-rate"
        trend={
          <Trend
            points={trends.traffic}
            color={CHART_PALETTE[2]}
            label={t("monitoring.dashboard.trafficLine", { span })}
            testId="traffic-trend"
          />
        }
      />
    </section>
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
          <span className={`badge badge-ghost ${serverStateClass(server.state)}`}>
            {stateText(server.state)}
          </span>
        </div>
        <div className="flex flex-wrap gap-x-6 text-sm">
          <span>
            {tNode("monitoring.dashboard.serverDrives", {
              value: (
                <b className={counterClass(drivesOk, server.drives.length)}>
                  {drivesOk}/{server.drives.length}
                </b>
              ),
            })}
          </span>
          <span>
            {tNode("monitoring.dashboard.serverNetwork", {
              value: <b className={counterClass(online, peers.length)}>{online}/{peers.length}</b>,
            })}
          </span>
          <span>
            {tNode("monitoring.dashboard.serverUptime", { value: <b>{formatDuration(server.uptime)}</b> })}
          </span>
          <span>
            {tNode("monitoring.dashboard.serverVersion", { value: <b>{server.version}</b> })}
          </span>
        </div>
      </div>
    </li>
  );
}

export function BasicDashboard({ info, trends }: { info: AdminInfo; trends?: DashboardTrends | null }) {
  const drives = info.servers.flatMap((s) => s.drives);
  const usageTrend = trends
    ? (
      <Trend
        points={trends.usage}
        color={CHART_PALETTE[4]}
        label={t("monitoring.dashboard.usageLine", { span: spanText(trends.windowSeconds) })}
        testId="usage-trend"
      />
    )
    : undefined;
  return (
    <>
      <section className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4 mb-8">
        <Card
          label={t("monitoring.dashboard.buckets")}
          value={formatNumber(info.buckets)}
          testId="buckets-count"
        />
        <Card
          label={t("monitoring.dashboard.usage")}
          value={formatBytes(info.usage)}
          testId="usage"
          trend={usageTrend}
        />
        <Card
          label={t("monitoring.dashboard.objects")}
          value={formatNumber(info.objects)}
          testId="objects-count"
        />
        <Card
          label={t("monitoring.dashboard.version")}
          value={info.servers[0]?.version ?? "-"}
          testId="server-version"
          small
        />
      </section>
      {trends ? <TrendCards trends={trends} /> : null}
      <section className="mb-8">
        <h2 className="text-lg font-bold mb-3">{t("monitoring.dashboard.drivesStatus")}</h2>
        <ul className="grid gap-3 lg:grid-cols-2">
          {drives.map((drive) => (
            <li
              key={drive.endpoint + drive.uuid}
              className="card bg-base-100 shadow-sm"
              data-testid="drive-card"
            >
              <div className="card-body p-4 gap-1">
                <div className="flex items-center gap-2 font-bold wrap-anywhere">
                  <span className={driveStateClass(drive.state)} aria-hidden="true">●</span>
                  {drive.endpoint}
                  <span className={`badge badge-ghost ${driveStateClass(drive.state)}`}>
                    {stateText(drive.state)}
                  </span>
                </div>
                <div className="flex flex-wrap gap-x-6 text-sm">
                  <span>
                    {tNode("monitoring.dashboard.driveCapacity", {
                      value: <b>{formatBytes(drive.totalSpace)}</b>,
                    })}
                  </span>
                  <span>
                    {tNode("monitoring.dashboard.driveUsed", {
                      value: <b>{formatBytes(drive.usedSpace)}</b>,
                    })}
                  </span>
                  <span>
                    {tNode("monitoring.dashboard.driveAvailable", {
                      value: <b>{formatBytes(drive.availableSpace)}</b>,
                    })}
                  </span>
                </div>
              </div>
            </li>
          ))}
        </ul>
      </section>
      <section>
        <h2 className="text-lg font-bold mb-3">{t("monitoring.dashboard.serversStatus")}</h2>
        <ul className="grid gap-3 lg:grid-cols-2">
          {info.servers.map((s) => <ServerCard key={s.endpoint} server={s} />)}
        </ul>
      </section>
    </>
  );
}

const EMPTY: AdminInfo = { buckets: 0, objects: 0, usage: 0, servers: [] };

/** Where the numbers come from, and the switch between the two views. */
function SourceNote(
  { text, problem, switchTo }: {
    text: string | null;
    problem?: string;
    switchTo: { href: string; label: string } | null;
  },
) {
  if (!text && !problem && !switchTo) return null;
  return (
    <p className="text-sm mb-4 flex flex-wrap gap-x-4 gap-y-1 items-center" data-testid="metrics-source">
      {text
        ? <span className="opacity-80">{t("monitoring.dashboard.metricsSource", { source: text })}</span>
        : null}
      {problem
        ? <span className="text-warning-content bg-warning/30 rounded px-2" role="status">{problem}</span>
        : null}
      {switchTo ? <a className="link link-primary" href={switchTo.href}>{switchTo.label}</a> : null}
    </p>
  );
}

export function dashboardPages(deps: AppDeps) {
  const page = async (c: Context<AppEnv>) => {
    const session = c.get("session")!;
    let info: AdminInfoWithWidgets = EMPTY;
    let error: unknown;
    try {
      info = await adminInfo(deps, session);
    } catch (e) {
      error = e;
    }
    const metricsAllowed = canReadMetrics(c.get("access")!);
    const state = metricsAllowed ? deps.metrics.state() : null;
    const widgets = info.widgets && c.req.query("view") !== "basic" ? info.widgets : null;
    const here = deps.render.href(c.req.path);
    if (widgets) {
      return renderInShell(deps, c, {
        title: t("monitoring.dashboard.title"),
        error,
        body: (
          <>
            <PageHeader title={t("monitoring.dashboard.title")} />
            <SourceNote
              text={info.metricsSource?.description ?? null}
              problem={state?.problem}
              switchTo={{ href: `${here}?view=basic`, label: t("monitoring.dashboard.basicView") }}
            />
            <Island name="MetricsDashboard" component={MetricsDashboard} props={{ widgets }} />
          </>
        ),
      });
    }
    const trends = state?.ok ? await deps.metrics.trends() : null;
    return renderInShell(deps, c, {
      title: t("monitoring.dashboard.title"),
      error,
      body: (
        <>
          <PageHeader title={t("monitoring.dashboard.title")} />
          <SourceNote
            text={trends ? deps.metrics.info().description : null}
            problem={state && !state.ok ? state.problem : undefined}
            switchTo={info.widgets ? { href: here, label: t("monitoring.dashboard.widgetView") } : null}
          />
          <BasicDashboard info={info} trends={trends} />
        </>
      ),
    });
  };
  return new Hono<AppEnv>().get("/dashboard", page).get("/metrics", page);
}
