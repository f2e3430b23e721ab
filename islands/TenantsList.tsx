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

/** Said in place of the rows when the token may not list tenants anywhere. */
export const TENANTS_REFUSED = "You do not have permission to list tenants.";

const names = (list: string[]) => list.join(", ");

/** What a namespace-scoped token is shown, in words: where it looked, and what it may not list. */
function LimitedNote({ limited }: { limited: NonNullable<TenantList["limited"]> }) {
  const where = limited.namespaces.length === 1
    ? `namespace ${limited.namespaces[0]}`
    : `namespaces ${names(limited.namespaces)}`;
  return (
    <div role="status" className="alert alert-info mb-4 text-sm" data-testid="tenants-limited">
      <div className="min-w-0 wrap-anywhere">
        <p>
          {`Your token may not list tenants in every namespace, so only those in ${where} are shown.${
            limited.refused.length ? ` It may not list the tenants in ${names(limited.refused)} either.` : ""
          }`}
        </p>
        <p className="text-xs mt-1">Kubernetes: {limited.detail}</p>
      </div>
    </div>
  );
}

const tenantHref = (base: string, t: TenantListItem) =>
  `${base}namespaces/${encodeURIComponent(t.namespace)}/tenants/${encodeURIComponent(t.name)}`;

export default function TenantsList(
  { tenants: initial, limited, unavailable, base, deleted }: TenantsListProps,
) {
  useEffect(() => {
    if (deleted) {
      showSnackbar("Tenant Deleted");
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
  const shown = tenants.value.list.filter((t) =>
    t.name.toLowerCase().includes(needle) || t.namespace.toLowerCase().includes(needle)
  );
  return (
    <>
      <div className="flex flex-wrap items-center justify-between gap-2 mb-4">
        <SearchBox placeholder="Search Tenants" value={filter} onChange={setFilter} />
        <div className="flex gap-2">
          <button type="button" className="btn btn-sm" onClick={tenants.reload} aria-label="Refresh">
            Refresh
          </button>
          <a className="btn btn-sm btn-primary" href={`${base}tenants/add`}>Create Tenant</a>
        </div>
      </div>
      {tenants.value.limited ? <LimitedNote limited={tenants.value.limited} /> : null}
      <DataTable<TenantListItem>
        entity="tenants"
        unavailable={unavailable}
        filtered={filter !== ""}
        rows={shown}
        rowId={(t) => `${t.namespace}/${t.name}`}
        columns={[
          {
            id: "name",
            label: "Name",
            value: (t) => t.name,
            render: (t) => (
              <span className="inline-flex items-center gap-2">
                <HealthDot status={t.health_status} />
                {t.name}
              </span>
            ),
            sortable: true,
          },
          { id: "namespace", label: "Namespace", value: (t) => t.namespace, sortable: true },
          {
            id: "capacity",
            label: "Capacity",
            value: (t) => t.total_size,
            render: (t) => formatBytes(t.total_size),
            sortable: true,
            align: "right",
          },
          { id: "pools", label: "# of Pools", value: (t) => t.pool_count, sortable: true, align: "right" },
          { id: "state", label: "State", value: (t) => t.currentState ?? "", sortable: true },
        ]}
        initialSort={{ id: "name" }}
        actions={[
          { type: "view", href: (t) => tenantHref(base, t) },
          { type: "delete", onSelect: (t) => setDeleting(t) },
        ]}
      />
      <TypedDeleteDialog
        title="Delete Tenant"
        name={deleting?.name ?? ""}
        open={deleting !== null}
        onClose={() => setDeleting(null)}
        onDelete={async (typed) => {
          await operatorApi.deleteTenant(deleting!.namespace, deleting!.name, typed);
          showSnackbar("Tenant Deleted");
          await tenants.reload();
        }}
      >
        Are you sure you want to delete tenant{" "}
        <b>{deleting?.name}</b>? Its pods and services go; its volumes and secrets stay.
      </TypedDeleteDialog>
    </>
  );
}
