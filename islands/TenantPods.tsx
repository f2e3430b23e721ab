/**
 * Tenant Pods tab (spec 3 §2.3b): Name, Status, Age, Pod IP, Restarts, Node; view opens the pod page, delete
 * asks for the pod's typed name (its StatefulSet starts it again).
 */
import { useState } from "react";
import type { PodInfo } from "../server/lib/contract/operator.ts";
import { operatorApi } from "./lib/api/operator.ts";
import { formatDuration } from "./lib/format.ts";
import { useList } from "./lib/use_list.ts";
import { TypedDeleteDialog } from "./tenant/parts.tsx";
import { DataTable } from "./ui/DataTable.tsx";
import { showSnackbar } from "./lib/notify.ts";
import { t } from "./lib/i18n/t.ts";
import { tNode } from "./lib/i18n/rich.tsx";

export interface TenantPodsProps {
  namespace: string;
  name: string;
  pods: PodInfo[];
  base: string;
  /** Epoch seconds the page was rendered at, so server and browser show the same ages. */
  now: number;
}

export default function TenantPods({ namespace, name, pods: initial, base, now }: TenantPodsProps) {
  const pods = useList(() => operatorApi.pods(namespace, name), initial);
  const [deleting, setDeleting] = useState<string | null>(null);
  const podHref = (pod: PodInfo) =>
    `${base}namespaces/${encodeURIComponent(namespace)}/tenants/${encodeURIComponent(name)}/pods/${
      encodeURIComponent(pod.name)
    }`;
  return (
    <>
      <DataTable<PodInfo>
        entity={t("operator.entity.pods")}
        id="pods"
        rows={pods.value}
        rowId={(p) => p.name}
        height={400}
        columns={[
          { id: "name", label: t("common.word.name"), value: (p) => p.name, sortable: true },
          {
            id: "status",
            label: t("common.word.status"),
            value: (p) => p.status,
            // Kubernetes' own word for the pod's phase (Running, Pending): shown as the cluster reports it.
            render: (p) => <span translate="no">{p.status}</span>,
            sortable: true,
          },
          {
            id: "age",
            label: t("operator.pods.age"),
            value: (p) => p.timeCreated,
            render: (p) => formatDuration(Math.max(0, now - p.timeCreated)),
          },
          { id: "ip", label: t("operator.pods.ip"), value: (p) => p.podIP },
          {
            id: "restarts",
            label: t("operator.pods.restarts"),
            value: (p) => p.restarts ?? 0,
            align: "right",
          },
          { id: "node", label: t("operator.word.node"), value: (p) => p.node, sortable: true },
        ]}
        initialSort={{ id: "name" }}
        actions={[
          { type: "view", href: podHref },
          { type: "delete", onSelect: (p) => setDeleting(p.name) },
        ]}
      />
      <TypedDeleteDialog
        title={t("operator.pods.deleteTitle")}
        name={deleting ?? ""}
        open={deleting !== null}
        onClose={() => setDeleting(null)}
        onDelete={async (typed) => {
          await operatorApi.deletePod(namespace, name, deleting!, typed);
          showSnackbar(t("operator.pods.deleted", { name: deleting! }));
          await pods.reload();
        }}
      >
        {tNode("operator.pods.deleteConfirm", { name: <b>{deleting}</b> })}
      </TypedDeleteDialog>
    </>
  );
}
