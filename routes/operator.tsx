/**
 * Operator mode's pages (spec 3 §2.2, §2.3): the tenants list and the Create New Tenant wizard. Tenant
 * detail pages are in tenant_detail.tsx, storage in storage.tsx.
 */
import { Hono } from "hono";
import { capitalize } from "../islands/lib/messages.ts";
import { t } from "../islands/lib/i18n/t.ts";
import TenantsList from "../islands/TenantsList.tsx";
import TenantWizard from "../islands/TenantWizard.tsx";
import type { TenantList } from "../server/lib/contract/operator.ts";
import type { AppDeps } from "../server/console/deps.ts";
import type { AppEnv } from "../server/console/session/env.ts";
import { toApiError } from "../server/console/http/errors.ts";
import { Island } from "../server/console/render/island.tsx";
import { operatorOf } from "../server/console/session/operator.ts";
import { listTenants } from "../server/console/services/operator/tenant_list.ts";
import { PageHeader } from "./layout/Shell.tsx";
import { renderInShell } from "./page_context.tsx";

export function operatorPages(deps: AppDeps) {
  const base = deps.render.href("/");
  return new Hono<AppEnv>()
    .get("/tenants", async (c) => {
      const { op, token } = operatorOf(c, deps);
      let list: TenantList = { tenants: [], total: 0 };
      let error: unknown;
      try {
        list = await listTenants(op, token);
      } catch (e) {
        error = e;
      }
      const status = error === undefined ? 0 : toApiError(error).status;
      return renderInShell(deps, c, {
        title: t("operator.tenants.title"),
        error,
        body: (
          <>
            <PageHeader title={t("operator.tenants.title")} />
            <Island
              name="TenantsList"
              component={TenantsList}
              props={{
                tenants: list.tenants,
                limited: list.limited,
                unavailable: status === 403
                  ? t("operator.tenants.refused")
                  : error === undefined
                  ? undefined
                  : capitalize(toApiError(error).message),
                base,
                deleted: c.req.query("deleted"),
              }}
            />
          </>
        ),
      });
    })
    .get("/tenants/add", (c) => {
      operatorOf(c, deps);
      return renderInShell(deps, c, {
        title: t("operator.tenants.createTitle"),
        body: (
          <>
            <nav className="breadcrumbs text-sm mb-2" aria-label={t("operator.word.breadcrumb")}>
              <ul>
                <li>
                  <a href={`${base}tenants`}>{t("operator.tenants.title")}</a>
                </li>
                <li>{t("operator.tenants.createTitle")}</li>
              </ul>
            </nav>
            <PageHeader title={t("operator.tenants.createTitle")} />
            <Island name="TenantWizard" component={TenantWizard} props={{ base }} />
          </>
        ),
      });
    });
}
