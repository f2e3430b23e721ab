/**
 * Listing tenants (operator-k8s.md §3.1) with the signed-in operator's token. A token refused the
 * cluster-wide list (RBAC bound per namespace, as a namespace's own service account) still sees the tenants
 * it may read: the namespaces it may list, or else its own service account's namespace, are listed one by
 * one, and the answer says what was refused. Kubernetes has no call naming the namespaces a token can reach
 * (SelfSubjectRulesReview answers for one namespace at a time), so these are the ones worth asking.
 */
import type { TenantList } from "../../../lib/contract/operator.ts";
import type { OperatorDeps } from "../../k8s/connection.ts";
import { corePath, K8sError, tenantPath } from "../../k8s/client.ts";
import type { Tenant } from "../../k8s/types.ts";
import { tenantListItem } from "./common.ts";

const PAGE = 500;

/** Every tenant of a namespace (or of the cluster), following `continue` past one page. */
export async function listAllTenants(op: OperatorDeps, token: string, namespace?: string): Promise<Tenant[]> {
  const tenants: Tenant[] = [];
  let next: string | undefined;
  do {
    const page = await op.k8s.request<{ items: Tenant[]; metadata?: { continue?: string } }>(
      token,
      "GET",
      tenantPath(namespace),
      { query: { limit: PAGE, continue: next } },
    );
    tenants.push(...page.items);
    next = page.metadata?.continue || undefined;
  } while (next);
  return tenants;
}

const isForbidden = (error: unknown) => error instanceof K8sError && error.status === 403;

/**
 * The namespace of a service-account token, read from its claims without verifying them: it only chooses
 * where to ask, and the API server still decides. Legacy tokens carry it as a claim, bound tokens under
 * "kubernetes.io", both name it in `sub` (system:serviceaccount:NAMESPACE:NAME).
 */
export function tokenNamespace(token: string): string | null {
  try {
    const claims = JSON.parse(
      new TextDecoder().decode(Uint8Array.fromBase64(token.split(".")[1] ?? "", { alphabet: "base64url" })),
    );
    const named = claims["kubernetes.io/serviceaccount/namespace"] ?? claims["kubernetes.io"]?.namespace ??
      /^system:serviceaccount:([^:]+):[^:]+$/.exec(claims.sub ?? "")?.[1];
    return typeof named === "string" && named !== "" ? named : null;
  } catch {
    return null; // not a JWT: no namespace to try
  }
}

/** The namespaces worth asking: every one the token may list, else its own. */
async function reachableNamespaces(op: OperatorDeps, token: string): Promise<string[]> {
  try {
    const list = await op.k8s.get<{ items: { metadata: { name: string } }[] }>(token, corePath("namespaces"));
    return list.items.map((n) => n.metadata.name);
  } catch (error) {
    if (!isForbidden(error)) throw error;
    const own = tokenNamespace(token);
    return own ? [own] : [];
  }
}

/** Tenants namespace by namespace, after the cluster-wide list was refused with `refusal`. */
async function listReachable(
  op: OperatorDeps,
  token: string,
  refusal: K8sError,
): Promise<{ tenants: Tenant[]; limited: NonNullable<TenantList["limited"]> }> {
  const namespaces: string[] = [];
  const refused: string[] = [];
  const tenants: Tenant[] = [];
  const queue = await reachableNamespaces(op, token);
  // A few namespaces at a time: a cluster may have hundreds, and each is one call.
  await Promise.all(Array.from({ length: Math.min(8, queue.length) }, async () => {
    for (let namespace = queue.shift(); namespace !== undefined; namespace = queue.shift()) {
      try {
        tenants.push(...await listAllTenants(op, token, namespace));
        namespaces.push(namespace);
      } catch (error) {
        if (!isForbidden(error)) throw error;
        refused.push(namespace);
      }
    }
  }));
  if (namespaces.length === 0) throw refusal; // nothing readable: the refusal is the answer
  namespaces.sort();
  refused.sort();
  return { tenants, limited: { namespaces, refused, detail: refusal.message } };
}

/** GET /tenants and /namespaces/{ns}/tenants, sorted by name; `offset`/`limit` page the answer (0 = all). */
export async function listTenants(
  op: OperatorDeps,
  token: string,
  options: { namespace?: string; offset?: number; limit?: number } = {},
): Promise<TenantList> {
  let found: Tenant[];
  let limited: TenantList["limited"];
  try {
    found = await listAllTenants(op, token, options.namespace);
  } catch (error) {
    if (options.namespace !== undefined || !isForbidden(error)) throw error;
    ({ tenants: found, limited } = await listReachable(op, token, error as K8sError));
  }
  const items = found.map(tenantListItem)
    .sort((a, b) => a.name.localeCompare(b.name) || a.namespace.localeCompare(b.namespace));
  const offset = options.offset ?? 0;
  const page = options.limit ? items.slice(offset, offset + options.limit) : items.slice(offset);
  return { tenants: page, total: items.length, ...(limited ? { limited } : {}) };
}
