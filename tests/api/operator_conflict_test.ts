import assert from "node:assert/strict";
import { K8sClient, tenantPath } from "../../server/console/k8s/client.ts";
import type { Tenant } from "../../server/console/k8s/types.ts";
import { addPool } from "../../server/console/services/operator/tenants.ts";
import { startOperatorStack } from "../operator_helpers.ts";

Deno.test("operator: adding a pool survives the operator changing the Tenant between the console's read and write", async () => {
  const stack = await startOperatorStack({ backTenants: false });
  const { cluster } = stack;
  const { namespace, name } = cluster.seededTenant!;
  const path = tenantPath(namespace, name);
  const direct = new K8sClient({ baseUrl: cluster.url, caCert: await Deno.readTextFile(cluster.caFile) });
  // The first time the console reads the Tenant, the "operator" writes to it right after, as a real operator
  // updating status would: the console's conditional write then meets a newer resourceVersion (409).
  let interfered = false;
  const interfering: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    if (!interfered && (init?.method ?? "GET") === "GET" && new URL(String(input)).pathname === path) {
      interfered = true;
      const current = await direct.get<Tenant>(cluster.operatorToken, path);
      await direct.mergePatch(cluster.operatorToken, path, {
        metadata: { labels: { ...current.metadata.labels, "touched-by": "operator" } },
      });
    }
    return response;
  };
  const k8s = new K8sClient({ baseUrl: cluster.url, caCert: await Deno.readTextFile(cluster.caFile) }, {
    fetch: interfering,
  });
  try {
    await addPool(
      { ...stack.deps.operator!, k8s },
      cluster.operatorToken,
      namespace,
      name,
      {
        servers: 4,
        volumes_per_server: 4,
        volume_configuration: { size: 1024 ** 3, storage_class_name: "standard" },
      } as Parameters<typeof addPool>[4],
    );
    assert.equal(interfered, true, "the test did change the Tenant in between");
    const tenant = await direct.get<Tenant>(cluster.operatorToken, path);
    assert.equal(tenant.metadata.labels?.["touched-by"], "operator", "the operator's change is kept");
    assert.equal(tenant.spec.pools?.at(-1)?.servers, 4, "…and the pool was added on top of it");
  } finally {
    k8s.close();
    direct.close();
    await stack.close();
  }
});
