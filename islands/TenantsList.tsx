/**
 * /tenants (spec 3 §2.2): 'Search Tenants', refresh, 'Create Tenant', and the table Name (with the health
 * colour), Namespace, Capacity, # of Pools, State; view opens the tenant, delete asks for its typed name.
 * A token that may list tenants only in some namespaces is told which; one that may list none, that too.
 */
import { useEffect, useState } from "react";
import type { TenantList, TenantListItem } from "../server/lib/contract/operator.ts";
import { operatorApi } from "./lib/api/operator.ts";
import { formatBytes } from "./lib/format.ts";
import { useList } from "./lib/use_list.ts";
import { HealthDot, TypedDeleteDialog } from "./tenant/parts.tsx";
import { DataTable } from "./ui/DataTable.tsx";
import { SearchBox } from "./ui/fields.tsx";
import { showSnackbar } from "./lib/notify.ts";
import { t } from "./lib/i18n/t.ts";
import { tNode } from "./lib/i18n/rich.tsx";

export interface TenantsListProps {
  tenants: TenantListItem[];
  /** The namespaces listed when the cluster-wide list was refused. */
  limited?: TenantList["limited"];
  /** Why no tenant could be listed, said in place of the rows. */
  unavailable?: string;
  base: string;
  /** Set after a tenant was deleted from its own page (spec 3 §2.3b: 'Tenant Deleted', back to /tenants). */
  deleted?: string;
}

const names = (list: string[]) => list.join(", ");

/** What a namespace-scoped token is shown, in words: where it looked, and what it may not list. */
function LimitedNote({ limited }: { limited: NonNullable<TenantList["limited"]> }) {
  const where = limited.namespaces.length === 1
    ? t("operator.tenants.limitedOne", { namespace: limited.namespaces[0] })
    : t("operator.tenants.limitedMany", { namespaces: names(limited.namespaces) });
  const refused = limited.refused.length
    ? t("operator.tenants.limitedRefused", { namespaces: names(limited.refused) })
    : "";
  return (
    <div role="status" className="alert alert-info mb-4 text-sm" data-testid="tenants-limited">
      <div className="min-w-0 wrap-anywhere">
        <p>{refused ? `${where} ${refused}` : where}</p>
        <p className="text-xs mt-1">
          {/* Kubernetes' own words, as it gave them */}
          {tNode("operator.tenants.limitedDetail", { detail: <span translate="no">{limited.detail}</span> })}
        </p>
      </div>
    </div>
  );
}

const tenantHref = (base: string, tenant: TenantListItem) =>
  `${base}namespaces/${encodeURIComponent(tenant.namespace)}/tenants/${encodeURIComponent(tenant.name)}`;

export default function TenantsList(
  { tenants: initial, limited, unavailable, base, deleted }: TenantsListProps,
) {
  useEffect(() => {
    if (deleted) {
      showSnackbar(t("operator.tenants.deleted"));
      history.replaceState(null, "", `${base}tenants`);
    }
  }, []);
  const tenants = useList<{ list: TenantListItem[]; limited?: TenantList["limited"] }>(async () => {
    const answer = await operatorApi.listTenants();
    return { list: answer.tenants ?? [], limited: answer.limited };
  }, { list: initial, limited });
  const [filter, setFilter] = useState("");
  const [deleting, setDeleting] = useState<TenantListItem | null>(null);
  const needle = filter.toLowerCase();
  const shown = tenants.value.list.filter((tenant) =>
    tenant.name.toLowerCase().includes(needle) || tenant.namespace.toLowerCase().includes(needle)
  );
  return (
    <>
      <div className="flex flex-wrap items-center justify-between gap-2 mb-4">
        <SearchBox placeholder={t("operator.tenants.search")} value={filter} onChange={setFilter} />
        <div className="flex gap-2">
          <button
            type="button"
            className="btn btn-sm"
            onClick={tenants.reload}
            aria-label={t("common.action.refresh")}
          >
            {t("common.action.refresh")}
          </button>
          <a className="btn btn-sm btn-primary" href={`${base}tenants/add`}>{t("operator.tenants.create")}</a>
        </div>
      </div>
      {tenants.value.limited ? <LimitedNote limited={tenants.value.limited} /> : null}
      <DataTable<TenantListItem>
        entity={t("operator.entity.tenants")}
        id="tenants"
        unavailable={unavailable}
        filtered={filter !== ""}
        rows={shown}
        rowId={(tenant) => `${tenant.namespace}/${tenant.name}`}
        columns={[
          {
            id: "name",
            label: t("common.word.name"),
            value: (tenant) => tenant.name,
            render: (tenant) => (
              <span className="inline-flex items-center gap-2">
                <HealthDot status={tenant.health_status} />
                {tenant.name}
              </span>
            ),
            sortable: true,
          },
          {
            id: "namespace",
            label: t("operator.word.namespace"),
            value: (tenant) => tenant.namespace,
            sortable: true,
          },
          {
            id: "capacity",
            label: t("operator.word.capacity"),
            value: (tenant) => tenant.total_size,
            render: (tenant) => formatBytes(tenant.total_size),
            sortable: true,
            align: "right",
          },
          {
            id: "pools",
            label: t("operator.tenants.pools"),
            value: (tenant) => tenant.pool_count,
            sortable: true,
            align: "right",
          },
          {
            id: "state",
            label: t("operator.word.state"),
            value: (tenant) => tenant.currentState ?? "",
            // The operator's own status text ("Initialized"), not the console's.
            render: (tenant) => <span translate="no">{tenant.currentState ?? ""}</span>,
            sortable: true,
          },
        ]}
        initialSort={{ id: "name" }}
        actions={[
          { type: "view", href: (tenant) => tenantHref(base, tenant) },
          { type: "delete", onSelect: (tenant) => setDeleting(tenant) },
        ]}
      />
      <TypedDeleteDialog
        title={t("operator.tenants.deleteTitle")}
        name={deleting?.name ?? ""}
        open={deleting !== null}
        onClose={() => setDeleting(null)}
        onDelete={async (typed) => {
          await operatorApi.deleteTenant(deleting!.namespace, deleting!.name, typed);
          showSnackbar(t("operator.tenants.deleted"));
          await tenants.reload();
        }}
      >
        {tNode("operator.tenants.deleteConfirm", { name: <b>{deleting?.name}</b> })}
      </TypedDeleteDialog>
    </>
  );
}
