/**
 * Volumes (spec 3 §2.7): 'Search Volumes (PVCs)' (case-sensitive, on the name) and the table Name,
 * Namespace, Status, Tenant, Capacity (in binary units, as every size), Storage Class; a row opens its tenant.
 */
import { useState } from "react";
import type { PvcInfo } from "../server/lib/contract/volumes.ts";
import { parseQuantity } from "../server/lib/contract/quantity.ts";
import { formatBytes } from "./lib/format.ts";
import { DataTable } from "./ui/DataTable.tsx";
import { SearchBox } from "./ui/fields.tsx";
import { t } from "./lib/i18n/t.ts";

export interface StorageVolumesProps {
  pvcs: PvcInfo[];
  base: string;
}

export default function VolumesList({ pvcs, base }: StorageVolumesProps) {
  const [filter, setFilter] = useState("");
  const shown = pvcs.filter((p) => p.name.includes(filter));
  return (
    <>
      <div className="mb-4">
        <SearchBox placeholder={t("operator.volumes.search")} value={filter} onChange={setFilter} />
      </div>
      <DataTable<PvcInfo>
        entity={t("operator.entity.volumes")}
        id="volumes"
        filtered={filter !== ""}
        rows={shown}
        rowId={(p) => `${p.namespace}/${p.name}`}
        columns={[
          { id: "name", label: t("common.word.name"), value: (p) => p.name, sortable: true },
          { id: "namespace", label: t("operator.word.namespace"), value: (p) => p.namespace, sortable: true },
          { id: "status", label: t("common.word.status"), value: (p) => p.status },
          {
            id: "tenant",
            label: t("operator.word.tenant"),
            value: (p) => `${p.namespace}/${p.tenant}`,
            sortable: true,
          },
          {
            id: "capacity",
            label: t("operator.word.capacity"),
            // The claim's quantity ("2Gi", "107374182400") in the console's size format.
            value: (p) => formatBytes(parseQuantity(p.capacity) ?? 0),
            align: "right",
          },
          { id: "storageClass", label: t("operator.word.storageClass"), value: (p) => p.storageClass },
        ]}
        initialSort={{ id: "name" }}
        actions={[{
          type: "view",
          label: t("operator.volumes.viewTenant"),
          href: (p) =>
            `${base}namespaces/${encodeURIComponent(p.namespace)}/tenants/${encodeURIComponent(p.tenant)}`,
        }]}
      />
    </>
  );
}
