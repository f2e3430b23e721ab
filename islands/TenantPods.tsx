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
        entity="pods"
        rows={pods.value}
        rowId={(p) => p.name}
        height={400}
        columns={[
          { id: "name", label: "Name", value: (p) => p.name, sortable: true },
          { id: "status", label: "Status", value: (p) => p.status, sortable: true },
          {
            id: "age",
            label: "Age",
            value: (p) => p.timeCreated,
            render: (p) => formatDuration(Math.max(0, now - p.timeCreated)),
          },
          { id: "ip", label: "Pod IP", value: (p) => p.podIP },
          { id: "restarts", label: "Restarts", value: (p) => p.restarts ?? 0, align: "right" },
          { id: "node", label: "Node", value: (p) => p.node, sortable: true },
        ]}
        initialSort={{ id: "name" }}
        actions={[
          { type: "view", href: podHref },
          { type: "delete", onSelect: (p) => setDeleting(p.name) },
        ]}
      />
      <TypedDeleteDialog
        title="Delete Pod"
        name={deleting ?? ""}
        open={deleting !== null}
        onClose={() => setDeleting(null)}
        onDelete={async (typed) => {
          await operatorApi.deletePod(namespace, name, deleting!, typed);
          showSnackbar(`Pod ${deleting} deleted`);
          await pods.reload();
        }}
      >
        Are you sure you want to delete pod <b>{deleting}</b>? Kubernetes starts it again.
      </TypedDeleteDialog>
    </>
  );
}
