/**
 * Tenant Pools tab (spec 3 §2.3b): a filter, 'Expand Tenant' (the Add Pool dialog) and the table Name,
 * Capacity, # of Instances, # of Drives; empty: 'No Pools found'.
 */
import { useState } from "react";
import type { PoolInfo } from "../server/lib/contract/operator.ts";
import { defaultAffinity, GI } from "../server/lib/contract/operator_rules.ts";
import { operatorApi } from "./lib/api/operator.ts";
import { formatBytes } from "./lib/format.ts";
import { DataTable } from "./ui/DataTable.tsx";
import { Dialog, useDialogAction } from "./ui/Dialog.tsx";
import { SearchBox, SelectField, TextField } from "./ui/fields.tsx";
import { t } from "./lib/i18n/t.ts";

export interface TenantPoolsProps {
  namespace: string;
  name: string;
  pools: PoolInfo[];
  /** Storage classes offered for a new pool (from the namespace's quota). */
  storageClasses: string[];
}

function AddPoolDialog(
  { namespace, name, poolCount, storageClasses, onClose }: {
    namespace: string;
    name: string;
    poolCount: number;
    storageClasses: string[];
    onClose: () => void;
  },
) {
  const [servers, setServers] = useState("4");
  const [drives, setDrives] = useState("1");
  const [sizeGi, setSizeGi] = useState("100");
  const [storageClass, setStorageClass] = useState(storageClasses[0] ?? "");
  const action = useDialogAction();
  const errors = {
    servers: Number.isInteger(Number(servers)) && Number(servers) >= 1
      ? undefined
      : t("operator.pools.serversMin"),
    drives: Number.isInteger(Number(drives)) && Number(drives) >= 1
      ? undefined
      : t("operator.pools.drivesMin"),
    size: Number(sizeGi) >= 1 ? undefined : t("operator.pools.sizeMin"),
  };
  const valid = !errors.servers && !errors.drives && !errors.size && Number(servers) * Number(drives) >= 4;
  const poolName = `pool-${poolCount}`;
  return (
    <Dialog
      title={t("operator.pools.addTitle")}
      open
      onClose={onClose}
      message={action.message}
      onMessageDone={action.clear}
      primary={{
        label: t("common.action.save"),
        disabled: !valid || action.busy,
        onClick: () =>
          action.run(async () => {
            await operatorApi.addPool(namespace, name, {
              name: poolName,
              servers: Number(servers),
              volumes_per_server: Number(drives),
              volume_configuration: {
                size: Math.round(Number(sizeGi) * GI),
                storage_class_name: storageClass,
              },
              affinity: defaultAffinity(name, poolName),
            });
            location.reload();
          }),
      }}
    >
      <TextField
        label={t("operator.pools.servers")}
        type="number"
        value={servers}
        onChange={setServers}
        error={errors.servers}
      />
      <TextField
        label={t("operator.pools.drivesPerServer")}
        type="number"
        value={drives}
        onChange={setDrives}
        error={errors.drives}
      />
      <TextField
        label={t("operator.pools.volumeSize")}
        type="number"
        value={sizeGi}
        onChange={setSizeGi}
        error={errors.size}
      />
      <SelectField
        label={t("operator.word.storageClass")}
        value={storageClass}
        options={storageClasses.length
          ? storageClasses.map((c) => ({ value: c, label: c }))
          : [{ value: "", label: t("operator.word.default") }]}
        onChange={setStorageClass}
      />
      {Number(servers) * Number(drives) < 4
        ? <p className="text-sm text-error">{t("operator.pools.minDrives")}</p>
        : null}
    </Dialog>
  );
}

export default function TenantPools({ namespace, name, pools, storageClasses }: TenantPoolsProps) {
  const [filter, setFilter] = useState("");
  const [adding, setAdding] = useState(false);
  const shown = pools.filter((p) => p.name.includes(filter));
  return (
    <>
      <div className="flex flex-wrap justify-between gap-2 mb-4">
        <SearchBox placeholder={t("operator.pools.filter")} value={filter} onChange={setFilter} />
        <button type="button" className="btn btn-sm btn-primary" onClick={() => setAdding(true)}>
          {t("operator.pools.expand")}
        </button>
      </div>
      <DataTable<PoolInfo>
        entity={t("operator.entity.pools")}
        id="pools"
        rows={shown}
        rowId={(p) => p.name}
        emptyMessage={t("operator.pools.empty")}
        height={320}
        columns={[
          { id: "name", label: t("common.word.name"), value: (p) => p.name, sortable: true },
          {
            id: "capacity",
            label: t("operator.word.capacity"),
            value: (p) => p.servers * p.volumes_per_server * p.volume_configuration.size,
            render: (p) => formatBytes(p.servers * p.volumes_per_server * p.volume_configuration.size),
            align: "right",
          },
          { id: "instances", label: t("operator.pools.instances"), value: (p) => p.servers, align: "right" },
          {
            id: "drives",
            label: t("operator.pools.drives"),
            value: (p) => p.servers * p.volumes_per_server,
            align: "right",
          },
        ]}
      />
      {adding
        ? (
          <AddPoolDialog
            namespace={namespace}
            name={name}
            poolCount={pools.length}
            storageClasses={storageClasses}
            onClose={() => setAdding(false)}
          />
        )
        : null}
    </>
  );
}
