/**
 * Cluster facts the wizard needs (operator-k8s.md §3.11-§3.13, §5.1-§5.2): create a namespace, a
 * namespace's storage quota (or every storage class when it has none), node labels, the largest memory N
 * nodes can each give, and the erasure-code parity choices.
 */
import { t } from "../../../../islands/lib/i18n/t.ts";
import { NO_QUOTA, ParityError, parityOptions } from "../../../lib/contract/operator_rules.ts";
import type { ResourceQuotaInfo } from "../../../lib/contract/operator.ts";
import type { OperatorDeps } from "../../k8s/connection.ts";
import { ApiError } from "../../http/errors.ts";
import { corePath, groupPath, K8sError } from "../../k8s/client.ts";
import { parseQuantity } from "../../../lib/contract/quantity.ts";
import type { K8sObject, Node, ResourceQuota } from "../../k8s/types.ts";

export async function createNamespace(op: OperatorDeps, token: string, name: string): Promise<void> {
  if (!name) throw ApiError.badRequest("invalid request", "Namespace cannot be blank");
  await op.k8s.create(token, corePath("namespaces"), {
    apiVersion: "v1",
    kind: "Namespace",
    metadata: { name },
  });
}

export async function resourceQuota(
  op: OperatorDeps,
  token: string,
  namespace: string,
  name: string,
): Promise<ResourceQuotaInfo> {
  try {
    const quota = await op.k8s.get<ResourceQuota>(token, corePath("resourcequotas", { namespace, name }));
    const hard = quota.status?.hard ?? {};
    const used = quota.status?.used ?? {};
    const elements = Object.keys(hard).filter((key) => key in used).map((key) => ({
      name: key,
      hard: parseQuantity(hard[key]) ?? 0,
      used: parseQuantity(used[key]) ?? 0,
    }));
    return { name: quota.metadata.name, elements };
  } catch (error) {
    if (!(error instanceof K8sError && error.status === 404)) throw error;
  }
  // No quota: the namespace must exist (a 404 here tells the wizard to offer creating it); every class is unlimited.
  await op.k8s.get(token, corePath("namespaces", { name: namespace }));
  const classes = await op.k8s.list<K8sObject>(token, groupPath("storage.k8s.io/v1", "storageclasses"));
  return {
    name: "",
    elements: classes.items.map((c) => ({
      name: `${c.metadata.name}.storageclass.storage.k8s.io/requests.storage`,
      hard: NO_QUOTA,
      used: 0,
    })),
  };
}

export async function nodeLabels(op: OperatorDeps, token: string): Promise<Record<string, string[]>> {
  const nodes = await op.k8s.list<Node>(token, corePath("nodes"));
  const out: Record<string, Set<string>> = {};
  for (const node of nodes.items) {
    for (const [key, value] of Object.entries(node.metadata.labels ?? {})) {
      (out[key] ??= new Set()).add(value);
    }
  }
  return Object.fromEntries(Object.entries(out).map(([k, v]) => [k, [...v].sort()]));
}

/** The memory every one of N nodes can still give: the N-th largest allocatable among schedulable nodes (§5.2). */
export async function maxAllocatableMemory(
  op: OperatorDeps,
  token: string,
  numNodes: number,
): Promise<number> {
  if (numNodes < 4) throw new ApiError(507, t("wizard.server.minNodes"));
  const nodes = (await op.k8s.list<Node>(token, corePath("nodes"))).items;
  const taints = nodes.flatMap((n) => n.spec?.taints ?? []);
  const schedulable = nodes.length - taints.filter((t) => t.effect === "NoSchedule").length;
  const nonMaster = nodes.length - taints.filter((t) => t.key === "node-role.kubernetes.io/master").length;
  if (numNodes > schedulable && numNodes < nonMaster) {
    throw new ApiError(500, t("wizard.server.tryAgain"), { detail: t("wizard.server.tooManyNodes") });
  }
  if (nonMaster < numNodes) {
    throw new ApiError(507, t("wizard.server.notEnoughNodes"));
  }
  if (schedulable < numNodes) {
    throw new ApiError(507, t("wizard.server.notEnoughSchedulable"));
  }
  const sizes = nodes
    .filter((n) => !(n.spec?.taints ?? []).some((t) => t.effect === "NoSchedule" || t.effect === "NoExecute"))
    .map((n) => parseQuantity(n.status?.allocatable?.memory))
    .filter((m): m is number => m !== null)
    .sort((a, b) => a - b);
  if (sizes.length < numNodes) return 0;
  return sizes[sizes.length - numNodes];
}

/** Why a layout has no parity, in the request's language (the wizard shows it under the parity choice). */
function parityMessage(error: ParityError): string {
  const key = ({
    invalidEndpoints: "wizard.server.parityInvalidEndpoints",
    tooFewEndpoints: "wizard.server.parityTooFewEndpoints",
    notDivisible: "wizard.server.parityNotDivisible",
    notSymmetric: "wizard.server.parityNotSymmetric",
  } as const)[error.kind];
  return t(key, error.params);
}

/** GET /get-parity/{nodes}/{disks}: EC:max … EC:2; errors answered as 500 with the reason in the detail. */
export function getParity(nodes: number, disks: number): string[] {
  try {
    return parityOptions(nodes, disks);
  } catch (error) {
    if (error instanceof ParityError) {
      throw new ApiError(500, t("wizard.server.tryAgain"), { detail: parityMessage(error) });
    }
    throw error;
  }
}
