/**
 * The live tools (spec 3 §2.6): Trace, Logs (Error Logs and, with the log-search feature, Audit Logs), Watch,
 * Heal (distributed setups only) and Diagnostic. Each page renders its frame and, for Watch and Heal, the
 * bucket list; the live part is one island that opens its stream when the user starts it.
 */
import { type Context, Hono } from "hono";
import AuditLogs from "../islands/AuditLogs.tsx";
import DiagnosticRunner from "../islands/DiagnosticRunner.tsx";
import ErrorLogs from "../islands/ErrorLogs.tsx";
import HealViewer from "../islands/HealViewer.tsx";
import TraceViewer from "../islands/TraceViewer.tsx";
import WatchViewer from "../islands/WatchViewer.tsx";
import { t } from "../islands/lib/i18n/t.ts";
import type { AppDeps } from "../server/console/deps.ts";
import type { AppEnv } from "../server/console/session/env.ts";
import { Island } from "../server/console/render/island.tsx";
import { accountInfo } from "../server/lib/s3/admin/info.ts";
import { listBuckets } from "../server/console/services/buckets.ts";
import { AUDIT_SEARCH_ACTION, auditSearchState } from "../server/console/services/tools.ts";
import { SectionLayout } from "./layout/SectionMenu.tsx";
import { PageHeader } from "./layout/Shell.tsx";
import { renderInShell } from "./page_context.tsx";
import { loadAll } from "./page_data.ts";

export function toolPages(deps: AppDeps) {
  const base = deps.render.href("/");
  /** One storage call, so a session the storage no longer accepts goes to sign-in like every page. */
  const sessionCheck = async (c: Context<AppEnv>) =>
    (await loadAll<{ account: unknown }>(deps, c.get("session")!, {
      account: [(client) => accountInfo(client), null, "Account"],
    })).error;
  const bucketNames = async (c: Context<AppEnv>) => {
    const { data, error } = await loadAll<{ buckets: string[] }>(deps, c.get("session")!, {
      buckets: [async (client) => (await listBuckets(client)).map((b) => b.name), [], "Buckets"],
    });
    return { buckets: data.buckets, error };
  };
  return new Hono<AppEnv>()
    .get("/trace", async (c) =>
      renderInShell(deps, c, {
        title: t("monitoring.trace.title"),
        error: await sessionCheck(c),
        body: (
          <>
            <PageHeader title={t("monitoring.trace.title")} />
            <Island name="TraceViewer" component={TraceViewer} props={{}} />
          </>
        ),
      }))
    .get("/logs", async (c) => {
      const error = await sessionCheck(c);
      const audit = auditSearchState(deps, c.get("access")!);
      const refusal = t("monitoring.logs.auditRefused", { action: AUDIT_SEARCH_ACTION });
      const logs = t("monitoring.logs.title");
      const errorLogs = t("monitoring.logs.errorLogs");
      const auditLogs = t("monitoring.logs.auditLogs");
      // Asked for by link without the permission: the tab says why instead of quietly showing Error Logs.
      const tab = c.req.query("tab") === "audit" && audit !== "no-service" ? "audit" : "error";
      return renderInShell(deps, c, {
        title: `${tab === "audit" ? auditLogs : errorLogs} | ${logs}`,
        error,
        body: (
          <>
            <PageHeader title={logs} />
            <SectionLayout
              label={logs}
              current={tab}
              items={[
                { id: "error", label: errorLogs, href: `${base}logs` },
                {
                  id: "audit",
                  label: auditLogs,
                  href: `${base}logs?tab=audit`,
                  disabledReason: audit === "yes"
                    ? undefined
                    : audit === "forbidden"
                    ? refusal
                    : t("monitoring.logs.auditNoService"),
                },
              ]}
            >
              <h2 className="text-lg font-bold mb-3">{tab === "audit" ? auditLogs : errorLogs}</h2>
              {tab === "error"
                ? <Island name="ErrorLogs" component={ErrorLogs} props={{}} />
                : audit === "yes"
                ? <Island name="AuditLogs" component={AuditLogs} props={{}} />
                : (
                  <p role="alert" className="alert alert-warning alert-soft" data-testid="audit-refused">
                    {refusal}
                  </p>
                )}
            </SectionLayout>
          </>
        ),
      });
    })
    .get("/watch", async (c) => {
      const { buckets, error } = await bucketNames(c);
      return renderInShell(deps, c, {
        title: t("monitoring.watch.title"),
        error,
        body: (
          <>
            <PageHeader title={t("monitoring.watch.title")} />
            <Island name="WatchViewer" component={WatchViewer} props={{ buckets }} />
          </>
        ),
      });
    })
    .get("/heal", async (c) => {
      if (!c.get("session")!.distributed) {
        return renderInShell(deps, c, {
          title: t("monitoring.heal.title"),
          error: await sessionCheck(c),
          body: (
            <>
              <PageHeader title={t("monitoring.heal.title")} />
              <p data-testid="heal-unavailable">{t("monitoring.heal.unavailable")}</p>
            </>
          ),
        });
      }
      const { buckets, error } = await bucketNames(c);
      return renderInShell(deps, c, {
        title: t("monitoring.heal.title"),
        error,
        body: (
          <>
            <PageHeader title={t("monitoring.heal.title")} />
            <Island name="HealViewer" component={HealViewer} props={{ buckets }} />
          </>
        ),
      });
    })
    .get("/health-info", async (c) =>
      renderInShell(deps, c, {
        title: t("monitoring.diagnostic.title"),
        error: await sessionCheck(c),
        body: (
          <>
            <PageHeader title={t("monitoring.diagnostic.title")} />
            <Island name="DiagnosticRunner" component={DiagnosticRunner} props={{}} />
          </>
        ),
      }));
}
