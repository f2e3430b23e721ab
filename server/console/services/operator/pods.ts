/**
 * A tenant's pods (operator-k8s.md §3.9): list, delete by exact name, logs and events.
 */
import type { PodEvent, PodInfo } from "../../../lib/contract/operator.ts";
import type { OperatorDeps } from "../../k8s/connection.ts";
import { ApiError } from "../../http/errors.ts";
import { t } from "../../../../islands/lib/i18n/t.ts";
import { corePath } from "../../k8s/client.ts";
import { type K8sEvent, type Pod, TENANT_LABEL } from "../../k8s/types.ts";

const unixSeconds = (timestamp?: string) => (timestamp ? Math.floor(Date.parse(timestamp) / 1000) : 0);

export async function listTenantPods(
  op: OperatorDeps,
  token: string,
  namespace: string,
  tenant: string,
): Promise<PodInfo[]> {
  const pods = await op.k8s.list<Pod>(token, corePath("pods", { namespace }), {
    labelSelector: `${TENANT_LABEL}=${tenant}`,
  });
  return pods.items.map((pod) => ({
    name: pod.metadata.name,
    status: pod.status?.phase ?? "",
    timeCreated: unixSeconds(pod.metadata.creationTimestamp),
    podIP: pod.status?.podIP ?? "",
    restarts: pod.status?.containerStatuses?.[0]?.restartCount ?? 0,
    node: pod.spec?.nodeName ?? "",
  }));
}

/**
 * Deletes one pod of the tenant (its StatefulSet brings it back). The typed name must match, and only a pod
 * carrying the tenant's label is touched, so the call cannot delete another workload's pod.
 */
export async function deleteTenantPod(
  op: OperatorDeps,
  token: string,
  namespace: string,
  tenant: string,
  pod: string,
  confirm: string | undefined,
): Promise<void> {
  if (confirm !== pod) {
    throw new ApiError(400, t("operator.tenants.nameIncorrect"), {
      detail: t("operator.api.typePodName"),
    });
  }
  const deleted = await op.k8s.request<{ items?: Pod[] }>(token, "DELETE", corePath("pods", { namespace }), {
    query: { labelSelector: `${TENANT_LABEL}=${tenant}`, fieldSelector: `metadata.name=${pod}` },
  });
  if ((deleted?.items?.length ?? 0) === 0) {
    throw ApiError.notFound(t("operator.api.notFound"), t("operator.api.podNotFound", { pod, tenant }));
  }
}

/** The raw log text of the pod's container, as the browser then shows it (spec 3 §2.3b Logs). */
export function podLogs(op: OperatorDeps, token: string, namespace: string, pod: string): Promise<string> {
  return op.k8s.request<string>(token, "GET", corePath("pods", { namespace, name: pod, sub: "log" }), {
    text: true,
    query: { tailLines: 5000 },
  });
}

/** Events of the pod by its uid, oldest first. */
export async function podEvents(
  op: OperatorDeps,
  token: string,
  namespace: string,
  pod: string,
): Promise<PodEvent[]> {
  const found = await op.k8s.get<Pod>(token, corePath("pods", { namespace, name: pod }));
  const events = await op.k8s.list<K8sEvent>(token, corePath("events", { namespace }), {
    fieldSelector: `involvedObject.uid=${found.metadata.uid}`,
  });
  return events.items
    .map((e) => ({
      namespace: e.metadata.namespace ?? namespace,
      last_seen: unixSeconds(e.lastTimestamp ?? e.firstTimestamp),
      message: e.message ?? "",
      event_type: e.type ?? "",
      reason: e.reason ?? "",
    }))
    .sort((a, b) => a.last_seen - b.last_seen);
}
