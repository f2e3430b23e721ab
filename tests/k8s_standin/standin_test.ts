/**
 * The stand-in's API-server behaviours that kubectl does not reach by itself: token review, stale updates,
 * selectors, limit/continue, merge-patch deletion, immutable Secrets, the status subresource and the
 * exact Status shapes of refusals.
 */
import assert from "node:assert/strict";
import { K8sClient, K8sError } from "../../server/console/k8s/client.ts";
import { startStandin } from "../../build/k8s_standin/mod.ts";

Deno.test("stand-in API server: the behaviours the console relies on", async (t) => {
  const cluster = await startStandin({ backTenants: false, seedTenant: true });
  const k8s = new K8sClient({ baseUrl: cluster.url, caCert: await Deno.readTextFile(cluster.caFile) });
  const op = cluster.operatorToken;
  const refusal = async (work: Promise<unknown>) => {
    try {
      await work;
    } catch (error) {
      if (error instanceof K8sError) return error;
      throw error;
    }
    assert.fail("expected a refusal");
  };
  try {
    await t.step("401 without a known token, 403 naming the verb, resource and namespace", async () => {
      const unauthorized = await refusal(k8s.get("wrong", "/api"));
      assert.equal(unauthorized.status, 401);
      assert.equal(unauthorized.reason, "Unauthorized");
      const forbidden = await refusal(k8s.get(cluster.viewerToken, "/api/v1/namespaces/ns-a/secrets"));
      assert.equal(forbidden.reason, "Forbidden");
      assert.equal(
        forbidden.message,
        'secrets is forbidden: User "system:serviceaccount:tenant-lite:viewer" cannot list resource "secrets" in API group "" in the namespace "ns-a"',
      );
    });

    await t.step("token review", async () => {
      const review = await k8s.create<{ status: { authenticated?: boolean; user: { username?: string } } }>(
        op,
        "/apis/authentication.k8s.io/v1/tokenreviews",
        { apiVersion: "authentication.k8s.io/v1", kind: "TokenReview", spec: { token: cluster.viewerToken } },
      );
      assert.equal(review.status.authenticated, true);
      assert.equal(review.status.user.username, "system:serviceaccount:tenant-lite:viewer");
      const unknown = await k8s.create<{ status: { authenticated?: boolean } }>(
        op,
        "/apis/authentication.k8s.io/v1/tokenreviews",
        { spec: { token: "nope" } },
      );
      assert.equal(unknown.status.authenticated, undefined);
    });

    await t.step("a stale resourceVersion is a 409 Conflict; status is kept apart from spec", async () => {
      const path = "/apis/minio.min.io/v2/namespaces/tenant-lite/tenants/storage-lite";
      const tenant = await k8s.get<
        { metadata: { resourceVersion: string }; spec: { image: string }; status: { currentState: string } }
      >(op, path);
      const stale = structuredClone(tenant);
      tenant.spec.image = "minio/minio:RELEASE.2021-09-09T00-00-00Z";
      tenant.status.currentState = "Forged";
      const updated = await k8s.replace<typeof tenant>(op, path, tenant);
      assert.equal(updated.status.currentState, "Initialized", "PUT of the main resource ignores status");
      assert.notEqual(updated.metadata.resourceVersion, stale.metadata.resourceVersion);
      const conflict = await refusal(
        k8s.mergePatch(op, path, {
          metadata: { resourceVersion: stale.metadata.resourceVersion },
          spec: { image: "x/y:z" },
        }),
      );
      assert.equal(conflict.status, 409);
      assert.equal(conflict.reason, "Conflict");
      assert.match(conflict.message, /the object has been modified/);
    });

    await t.step("JSON merge patch: null removes, arrays are replaced", async () => {
      const path = "/api/v1/namespaces/tenant-lite/secrets/storage-lite-env-configuration";
      await k8s.mergePatch(op, path, { metadata: { labels: { extra: "1", "v1.min.io/tenant": null } } });
      const secret = await k8s.get<{ metadata: { labels: Record<string, string> } }>(op, path);
      assert.deepEqual(secret.metadata.labels, { extra: "1" });
    });

    await t.step("immutable Secrets refuse new data with 422 Invalid", async () => {
      const invalid = await refusal(
        k8s.mergePatch(op, "/api/v1/namespaces/tenant-lite/secrets/storage-lite-secret", {
          data: { accesskey: btoa("changed") },
        }),
      );
      assert.equal(invalid.status, 422);
      assert.match(invalid.message, /data: Forbidden: field is immutable when `immutable` is set/);
    });

    await t.step("label and field selectors, limit and continue", async () => {
      const pods = await k8s.list<{ metadata: { name: string } }>(op, "/api/v1/pods", {
        labelSelector: "v1.min.io/tenant=storage-lite,v1.min.io/pool in (pool-0)",
      });
      assert.equal(pods.items.length, 4);
      const one = await k8s.list(op, "/api/v1/namespaces/tenant-lite/pods", {
        fieldSelector: "metadata.name=storage-lite-pool-0-3",
      });
      assert.equal(one.items.length, 1);
      const none = await k8s.list(op, "/api/v1/namespaces/tenant-lite/pods", {
        labelSelector: "!v1.min.io/tenant",
      });
      assert.equal(none.items.length, 0);
      const page1 = await k8s.request<
        { items: unknown[]; metadata: { continue?: string; remainingItemCount?: number } }
      >(op, "GET", "/api/v1/nodes", { query: { limit: 4 } });
      assert.equal(page1.items.length, 4);
      assert.equal(page1.metadata.remainingItemCount, 2);
      const page2 = await k8s.request<{ items: unknown[]; metadata: { continue?: string } }>(
        op,
        "GET",
        "/api/v1/nodes",
        { query: { limit: 4, continue: page1.metadata.continue } },
      );
      assert.equal(page2.items.length, 2);
      assert.equal(page2.metadata.continue, undefined);
      const bad = await refusal(k8s.list(op, "/api/v1/pods", { fieldSelector: "spec.imaginary=1" }));
      assert.equal(bad.status, 400);
    });

    await t.step("NotFound and AlreadyExists name the resource as the API server does", async () => {
      const missing = await refusal(k8s.get(op, "/apis/minio.min.io/v2/namespaces/ns-a/tenants/acme"));
      assert.equal(missing.message, 'tenants.minio.min.io "acme" not found');
      const exists = await refusal(
        k8s.create(op, "/api/v1/namespaces", {
          apiVersion: "v1",
          kind: "Namespace",
          metadata: { name: "ns-a" },
        }),
      );
      assert.equal(exists.message, 'namespaces "ns-a" already exists');
    });
  } finally {
    k8s.close();
    await cluster.close();
  }
});
