/**
 * A tenant's pages (spec 3 §2.3b): header (name, namespace, capacity, health; Delete, Edit YAML, Refresh),
 * breadcrumb back to /tenants, the left menu Summary, Metrics, Security, Pools, Pods, License; the pod page;
 * and the management (hop) screen. Each renders with its data; interactive parts are islands.
 */
import { type Context, Hono } from "hono";
import type { ReactNode } from "react";
import PodDetail from "../islands/PodDetail.tsx";
import TenantAttachLicense from "../islands/TenantAttachLicense.tsx";
import TenantHeaderActions from "../islands/TenantHeaderActions.tsx";
import TenantHop from "../islands/TenantHop.tsx";
import TenantPods from "../islands/TenantPods.tsx";
import TenantPools from "../islands/TenantPools.tsx";
import TenantSecurity from "../islands/TenantSecurity.tsx";
import TenantSummary from "../islands/TenantSummary.tsx";
import { formatBytes, formatDate } from "../islands/lib/format.ts";
import { HealthDot } from "../islands/tenant/parts.tsx";
import { type MessageKey, t } from "../islands/lib/i18n/t.ts";
import { tNode } from "../islands/lib/i18n/rich.tsx";
import type { PodEvent, PodInfo, TenantInfo } from "../server/lib/contract/operator.ts";
import { storageClassesFromQuota } from "../server/lib/contract/operator_rules.ts";
import type { AppDeps } from "../server/console/deps.ts";
import type { AppEnv } from "../server/console/session/env.ts";
import { ApiError, toApiError } from "../server/console/http/errors.ts";
import { Island } from "../server/console/render/island.tsx";
import { resourceQuota } from "../server/console/services/operator/cluster.ts";
import { listTenantPods, podEvents, podLogs } from "../server/console/services/operator/pods.ts";
import { tenantSecurity } from "../server/console/services/operator/security.ts";
import { tenantDetails } from "../server/console/services/operator/tenants.ts";
import { operatorOf } from "../server/console/session/operator.ts";
import { renderInShell } from "./page_context.tsx";
import { SectionLayout } from "./layout/SectionMenu.tsx";

/** The left menu; labels are catalogue keys, looked up per request. */
const TABS = [
  { id: "summary", label: "operator.tenant.tabSummary" },
  { id: "metrics", label: "operator.tenant.tabMetrics" },
  { id: "security", label: "operator.tenant.tabSecurity" },
  { id: "pools", label: "operator.tenant.tabPools" },
  { id: "pods", label: "operator.tenant.tabPods" },
  { id: "license", label: "operator.tenant.tabLicense" },
] as const satisfies readonly { id: string; label: MessageKey }[];
type TabId = typeof TABS[number]["id"];

const seg = encodeURIComponent;

function TenantLayout(
  { base, info, tab, crumbs, children }: {
    base: string;
    info: TenantInfo;
    tab: TabId;
    crumbs?: ReactNode;
    children: ReactNode;
  },
) {
  const tenantBase = `${base}namespaces/${seg(info.namespace)}/tenants/${seg(info.name)}`;
  return (
    <>
      <nav className="breadcrumbs text-sm mb-2" aria-label={t("operator.word.breadcrumb")}>
        <ul>
          <li>
            <a href={`${base}tenants`}>{t("operator.tenants.title")}</a>
          </li>
          <li className="wrap-anywhere">
            {crumbs ? <a href={`${tenantBase}/summary`}>{info.name}</a> : info.name}
          </li>
          {crumbs}
        </ul>
      </nav>
      <header className="flex flex-wrap items-start justify-between gap-3 mb-6">
        <div>
          <h1 className="text-2xl font-bold wrap-anywhere flex items-center gap-2">
            <HealthDot status={info.status.health_status} />
            {info.name}
          </h1>
          <p className="text-sm text-base-content/70" data-testid="tenant-header">
            {t("operator.tenant.header", {
              namespace: info.namespace,
              capacity: formatBytes(info.total_size),
            })}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Island
            name="TenantHeaderActions"
            component={TenantHeaderActions}
            props={{ namespace: info.namespace, name: info.name, base }}
          />
          <a className="btn btn-sm" href={`${tenantBase}/${tab}`}>{t("common.action.refresh")}</a>
        </div>
      </header>
      <SectionLayout
        label={t("operator.tenant.sections")}
        current={tab}
        items={TABS.map((item) => ({ id: item.id, label: t(item.label), href: `${tenantBase}/${item.id}` }))}
      >
        {children}
      </SectionLayout>
    </>
  );
}

/** License tab: the tenant's licence, else 'Attach License' when the console has a subscription, else 'Activate Product'. */
function LicenseTab(
  { info, base, hasSubscription }: { info: TenantInfo; base: string; hasSubscription: boolean },
) {
  const licence = info.subnet_license;
  if (!licence) {
    return (
      <div className="card bg-base-100 shadow-sm">
        <div className="card-body">
          <p>{tNode("operator.license.agpl", { licence: <span translate="no">GNU AGPL v3</span> })}</p>
          {hasSubscription
            ? (
              <>
                <p className="text-sm text-base-content/70">
                  {t("operator.license.hasSubscription")}
                </p>
                <div>
                  <Island
                    name="TenantAttachLicense"
                    component={TenantAttachLicense}
                    props={{ namespace: info.namespace, name: info.name }}
                  />
                </div>
              </>
            )
            : (
              <div>
                <a className="btn btn-primary btn-sm" href={`${base}license`}>
                  {t("operator.license.activate")}
                </a>
              </div>
            )}
        </div>
      </div>
    );
  }
  return (
    <div className="card bg-base-100 shadow-sm">
      <dl className="card-body grid grid-cols-2 gap-2" data-testid="tenant-license">
        <dt className="font-bold">{t("operator.license.organization")}</dt>
        <dd>{licence.organization}</dd>
        <dt className="font-bold">{t("operator.license.capacity")}</dt>
        <dd>{formatBytes((licence.storage_capacity ?? 0) * 1099511627776)}</dd>
        <dt className="font-bold">{t("operator.license.expiry")}</dt>
        <dd>{formatDate(licence.expires_at)}</dd>
        <dt className="font-bold">{t("operator.license.plan")}</dt>
        <dd>{licence.plan}</dd>
        <dt className="font-bold">{t("operator.license.requester")}</dt>
        <dd>{licence.email}</dd>
      </dl>
    </div>
  );
}

export function tenantDetailPages(deps: AppDeps) {
  const base = deps.render.href("/");
  const path = "/namespaces/:namespace/tenants/:tenant";

  async function tabBody(
    c: Context<AppEnv>,
    info: TenantInfo,
    tab: TabId,
  ): Promise<{ body: ReactNode; error?: unknown }> {
    const { op, token } = operatorOf(c, deps);
    const { namespace, name } = info;
    switch (tab) {
      case "summary":
        return { body: <Island name="TenantSummary" component={TenantSummary} props={{ info, base }} /> };
      case "metrics":
        return {
          body: (
            <iframe
              src={`${base}api/proxy/${seg(namespace)}/${seg(name)}/metrics`}
              title={t("operator.tenant.metricsTitle")}
              className="w-full h-[70vh] border border-base-300 rounded-box bg-base-100"
            >
              {t("operator.tenant.metricsFallback")}
            </iframe>
          ),
        };
      case "security": {
        try {
          const security = await tenantSecurity(op, token, namespace, name);
          return {
            body: (
              <Island
                name="TenantSecurity"
                component={TenantSecurity}
                props={{ namespace, name, security }}
              />
            ),
          };
        } catch (error) {
          return { body: null, error };
        }
      }
      case "pools": {
        let storageClasses: string[] = [];
        try {
          storageClasses = storageClassesFromQuota(
            (await resourceQuota(op, token, namespace, `${namespace}-storagequota`)).elements,
          ).map((e) => e.name);
        } catch (error) {
          deps.log.info("tenant pools: no storage quota", { error: toApiError(error).detail }); // spec 3 §8: only logged
        }
        return {
          body: (
            <Island
              name="TenantPools"
              component={TenantPools}
              props={{ namespace, name, pools: info.pools, storageClasses }}
            />
          ),
        };
      }
      case "pods": {
        let pods: PodInfo[] = [];
        let error: unknown;
        try {
          pods = await listTenantPods(op, token, namespace, name);
        } catch (e) {
          const cause = toApiError(e);
          error = new ApiError(cause.status, t("operator.tenant.podsError"), {
            detail: cause.detail || cause.message,
          });
        }
        return {
          body: (
            <Island
              name="TenantPods"
              component={TenantPods}
              props={{ namespace, name, pods, base, now: Math.floor(Date.now() / 1000) }}
            />
          ),
          error,
        };
      }
      default:
        return {
          body: <LicenseTab info={info} base={base} hasSubscription={!!(await deps.license.read()).info} />,
        };
    }
  }

  return new Hono<AppEnv>()
    .get(
      path,
      (c) =>
        c.redirect(
          `${base}namespaces/${seg(c.req.param("namespace"))}/tenants/${seg(c.req.param("tenant"))}/summary`,
          302,
        ),
    )
    .get(`${path}/hop`, async (c) => {
      const { op, token } = operatorOf(c, deps);
      const namespace = c.req.param("namespace");
      const name = c.req.param("tenant");
      const info = await tenantDetails(op, token, namespace, name);
      const tenantHref = `${base}namespaces/${seg(namespace)}/tenants/${seg(name)}/summary`;
      return renderInShell(deps, c, {
        title: t("operator.tenant.managementTitle", { name: info.name }),
        body: (
          <>
            <nav className="breadcrumbs text-sm mb-2" aria-label={t("operator.word.breadcrumb")}>
              <ul>
                <li>
                  <a href={`${base}tenants`}>{t("operator.tenants.title")}</a>
                </li>
                <li>
                  <a href={tenantHref}>{info.name}</a>
                </li>
                <li>{t("operator.tenant.management")}</li>
              </ul>
            </nav>
            <Island
              name="TenantHop"
              component={TenantHop}
              props={{ src: `${base}api/proxy/${seg(namespace)}/${seg(name)}/?cp=y`, tenantHref }}
            />
          </>
        ),
      });
    })
    .get(`${path}/pods/:pod`, async (c) => {
      const { op, token } = operatorOf(c, deps);
      const namespace = c.req.param("namespace");
      const pod = c.req.param("pod");
      const info = await tenantDetails(op, token, namespace, c.req.param("tenant"));
      let events: PodEvent[] = [];
      let logs = "";
      let logsError = "";
      let error: unknown;
      try {
        events = await podEvents(op, token, namespace, pod);
      } catch (e) {
        error = e;
      }
      try {
        logs = await podLogs(op, token, namespace, pod);
      } catch (e) {
        logsError = toApiError(e).detail || toApiError(e).message;
      }
      const podsHref = `${base}namespaces/${seg(namespace)}/tenants/${seg(info.name)}/pods`;
      return renderInShell(deps, c, {
        title: pod,
        error,
        body: (
          <TenantLayout
            base={base}
            info={info}
            tab="pods"
            crumbs={
              <>
                <li>
                  <a href={podsHref}>{t("operator.tenant.tabPods")}</a>
                </li>
                <li className="wrap-anywhere">{pod}</li>
              </>
            }
          >
            <h2 className="text-xl font-bold mb-3 wrap-anywhere">
              {t("operator.tenant.podHeading", { pod })}
            </h2>
            <Island name="PodDetail" component={PodDetail} props={{ events, logs, logsError }} />
          </TenantLayout>
        ),
      });
    })
    .get(`${path}/:tab{summary|metrics|security|pools|pods|license}`, async (c) => {
      const { op, token } = operatorOf(c, deps);
      const tab = c.req.param("tab") as TabId;
      const info = await tenantDetails(
        op,
        token,
        c.req.param("namespace"),
        c.req.param("tenant"),
        tab === "license" ? deps.license : undefined,
      );
      const { body, error } = await tabBody(c, info, tab);
      return renderInShell(deps, c, {
        title: t("operator.tenant.pageTitle", {
          name: info.name,
          tab: t(TABS.find((item) => item.id === tab)!.label),
        }),
        error,
        body: <TenantLayout base={base} info={info} tab={tab}>{body}</TenantLayout>,
      });
    });
}
