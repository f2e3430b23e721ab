/**
 * Operator mode's API against the stand-in cluster, over HTTP: sign-in, tenants, pools, YAML, pods, security,
 * namespaces, quotas, nodes, parity, volumes and drives, each with the RBAC matrix (no session, a token
 * without rights, a token limited to one namespace, the operator) and the edge cases of spec 3 §5.
 */
import assert from "node:assert/strict";
import { ConsoleClient } from "../helpers.ts";
import { RESOURCES } from "../../build/k8s_standin/resources.ts";
import { runOperatorScenarios, startOperatorStack } from "../operator_helpers.ts";
import { startOidcProvider } from "../oidc/provider.ts";
import { freePort } from "../storage_process.ts";

const T = "/api/v1/namespaces/tenant-lite/tenants/storage-lite";
const GI = 2 ** 30;
const PODS = RESOURCES.find((r) => r.kind === "Pod")!;
const b64 = (text: string) => new TextEncoder().encode(text).toBase64();

const newTenant = (name: string, namespace: string, extra: Record<string, unknown> = {}) => ({
  name,
  namespace,
  enable_tls: false,
  image: "",
  pools: [{
    name: "pool-0",
    servers: 4,
    volumes_per_server: 1,
    volume_configuration: { size: 2 * GI, storage_class_name: "standard" },
    resources: { requests: { memory: 2 * GI }, limits: { memory: 8 * GI } },
  }],
  erasureCodingParity: 2,
  idp: { keys: [{ access_key: "wizard-user-1", secret_key: "wizard-secret-key-123" }] },
  ...extra,
});

Deno.test("operator API: sign-in, session and mode", async (t) => {
  const stack = await startOperatorStack({ seedTenant: false });
  try {
    await runOperatorScenarios(t, stack, [
      {
        name: "strategy",
        as: "none",
        method: "GET",
        path: "/api/v1/login",
        status: 200,
        check: (b) => assert.deepEqual(b, { loginStrategy: "service-account" }),
      },
      {
        name: "a token the API server refuses",
        as: "none",
        method: "POST",
        path: "/api/v1/login/operator",
        body: { jwt: "not.a.token" },
        status: 401,
        check: (b) => assert.equal((b as { message: string }).message, "invalid Login"),
      },
      {
        name: "empty token",
        as: "none",
        method: "POST",
        path: "/api/v1/login/operator",
        body: { jwt: "" },
        status: 400,
      },
      {
        name: "form sign-in is not offered",
        as: "none",
        method: "POST",
        path: "/api/v1/login",
        body: { accessKey: "a", secretKey: "b" },
        status: 400,
      },
      {
        name: "session of an operator",
        as: "operator",
        method: "GET",
        path: "/api/v1/session",
        status: 200,
        check: (b) => {
          const info = b as { operator: boolean; pages: string[] };
          assert.equal(info.operator, true);
          assert.ok(info.pages.includes("/tenants") && info.pages.includes("/storage/drives"));
        },
      },
      {
        name: "console-mode areas are not served",
        as: "operator",
        method: "GET",
        path: "/api/v1/buckets",
        status: 404,
      },
      { name: "no session", as: "none", method: "GET", path: "/api/v1/tenants", status: 401 },
    ]);
  } finally {
    await stack.close();
  }
});

Deno.test("operator API: an unreachable API server gives a clear message, not a hang", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  const stack = await startOperatorStack({
    seedTenant: false,
    env: { CONSOLE_K8S_API_SERVER: `https://127.0.0.1:${port}` },
  });
  try {
    const { K8sClient } = await import("../../server/console/k8s/client.ts");
    stack.deps.operator!.k8s = new K8sClient({ baseUrl: `https://127.0.0.1:${port}` });
    const res = await new ConsoleClient(stack.consoleUrl).request("POST", "/api/v1/login/operator", {
      jwt: stack.cluster.operatorToken,
    });
    const body = await res.json();
    assert.equal(res.status, 503);
    assert.equal(body.message, "the Kubernetes API server cannot be reached");
    stack.deps.operator!.k8s.close();
  } finally {
    await stack.close();
  }
});

Deno.test("operator API: tenants, pools, YAML, pods, security", async (t) => {
  const stack = await startOperatorStack({ seedTenant: true });
  try {
    let podUid = "";
    await runOperatorScenarios(t, stack, [
      {
        name: "token without rights",
        as: "nobody",
        method: "GET",
        path: "/api/v1/tenants",
        status: 403,
        check: (b) =>
          assert.match((b as { detailedMessage: string }).detailedMessage, /cannot list resource "tenants"/),
      },
      {
        name: "namespace-limited token, cluster-wide list: its own namespace's tenants, and what was refused",
        as: "viewer",
        method: "GET",
        path: "/api/v1/tenants",
        status: 200,
        check: (b) => {
          const list = b as {
            tenants: { name: string; namespace: string }[];
            total: number;
            limited: { namespaces: string[]; refused: string[]; detail: string };
          };
          assert.deepEqual(list.tenants.map((t) => `${t.namespace}/${t.name}`), ["tenant-lite/storage-lite"]);
          assert.equal(list.total, 1);
          assert.deepEqual(list.limited.namespaces, ["tenant-lite"]);
          assert.deepEqual(list.limited.refused, []);
          assert.match(list.limited.detail, /cannot list resource "tenants" .* at the cluster scope/);
        },
      },
      {
        name: "namespace-limited token, its namespace",
        as: "viewer",
        method: "GET",
        path: "/api/v1/namespaces/tenant-lite/tenants",
        status: 200,
        check: (b) => assert.equal((b as { total: number }).total, 1),
      },
      {
        name: "operator lists every tenant",
        as: "operator",
        method: "GET",
        path: "/api/v1/tenants",
        status: 200,
        check: (b) => {
          const list = b as {
            tenants: {
              name: string;
              pool_count: number;
              instance_count: number;
              volume_count: number;
              total_size: number;
              health_status: string;
              currentState: string;
            }[];
            total: number;
            limited?: unknown;
          };
          assert.equal(list.total, 1);
          assert.equal(list.limited, undefined, "a token that may list them all is not told otherwise");
          assert.deepEqual(
            { ...list.tenants[0] },
            {
              ...list.tenants[0],
              name: "storage-lite",
              pool_count: 1,
              instance_count: 4,
              volume_count: 4,
              total_size: 8 * GI,
              health_status: "green",
              currentState: "Initialized",
            },
          );
        },
      },
      {
        name: "details",
        as: "viewer",
        method: "GET",
        path: T,
        status: 200,
        check: (b) => {
          const info = b as {
            pools: { name: string; servers: number }[];
            status: { health_status: string; drives_online: number; write_quorum: number };
            endpoints: { minio: string };
            minioTLS: boolean;
          };
          assert.equal(info.pools[0].name, "pool-0");
          assert.equal(info.status.health_status, "green");
          assert.equal(info.status.drives_online, 4);
          assert.equal(info.status.write_quorum, 3);
          assert.equal(info.minioTLS, false);
          assert.equal(info.endpoints.minio, "http://127.0.0.1");
        },
      },
      {
        name: "usage over the tenant's own admin API",
        as: "operator",
        method: "GET",
        path: `${T}/usage`,
        status: 200,
        check: (b) => assert.equal(typeof (b as { disk_used: number }).disk_used, "number"),
      },
      {
        name: "missing tenant",
        as: "operator",
        method: "GET",
        path: "/api/v1/namespaces/tenant-lite/tenants/nope",
        status: 404,
      },
      {
        name: "a bad tenant name",
        as: "operator",
        method: "POST",
        path: "/api/v1/tenants",
        body: newTenant("Bad_Name", "ns-a"),
        status: 400,
        check: (b) => {
          assert.equal(
            (b as { fields: Record<string, string> }).fields.name,
            "Name only can contain lowercase letters, numbers and '-'. Min. Length: 3",
          );
        },
      },
      {
        name: "too few servers and short keys",
        as: "operator",
        method: "POST",
        path: "/api/v1/tenants",
        body: newTenant("small", "ns-a", {
          pools: [{ servers: 2, volumes_per_server: 1, volume_configuration: { size: GI } }],
          idp: { keys: [{ access_key: "short", secret_key: "x" }] },
        }),
        status: 400,
        check: (b) => {
          const fields = (b as { fields: Record<string, string> }).fields;
          assert.equal(fields["idp.keys.0.access_key"], "Keys must be at least length 8");
          assert.match(fields["pools.0.servers"], /at least 4/);
        },
      },
      {
        name: "a parity the layout cannot have",
        as: "operator",
        method: "POST",
        path: "/api/v1/tenants",
        body: newTenant("odd", "ns-a", { erasureCodingParity: 4 }),
        status: 400,
      },
      {
        name: "one tenant per namespace",
        as: "operator",
        method: "POST",
        path: "/api/v1/tenants",
        body: newTenant("second", "tenant-lite"),
        status: 409,
        check: (b) =>
          assert.equal((b as { message: string }).message, "You can only create one tenant per namespace"),
      },
      {
        name: "namespace-limited token cannot create elsewhere",
        as: "viewer",
        method: "POST",
        path: "/api/v1/tenants",
        body: newTenant("viewer-made", "ns-a"),
        status: 403,
      },
      {
        name: "create",
        as: "operator",
        method: "POST",
        path: "/api/v1/tenants",
        body: newTenant("made-here", "ns-a"),
        status: 200,
        check: (b) => {
          assert.deepEqual(b, {
            externalIDP: false,
            console: [{ access_key: "wizard-user-1", secret_key: "wizard-secret-key-123" }],
          });
        },
      },
      {
        name: "add a pool",
        as: "operator",
        method: "POST",
        path: "/api/v1/namespaces/ns-a/tenants/made-here/pools",
        body: {
          servers: 4,
          volumes_per_server: 2,
          volume_configuration: { size: 4 * GI, storage_class_name: "standard" },
        },
        status: 201,
      },
      {
        name: "the pool is there",
        as: "operator",
        method: "GET",
        path: "/api/v1/namespaces/ns-a/tenants/made-here",
        status: 200,
        check: (b) => {
          const info = b as {
            pools: { name: string; volumes_per_server: number; volume_configuration: { size: number } }[];
            total_size: number;
          };
          assert.deepEqual(info.pools.map((p) => p.name), ["pool-0", "pool-1"]);
          assert.equal(info.pools[1].volume_configuration.size, 4 * GI);
          assert.equal(info.total_size, 4 * 2 * GI + 4 * 2 * 4 * GI);
        },
      },
      {
        name: "viewer cannot add a pool",
        as: "viewer",
        method: "POST",
        path: `${T}/pools`,
        body: { servers: 4, volumes_per_server: 1, volume_configuration: { size: GI } },
        status: 403,
      },
      {
        name: "YAML",
        as: "operator",
        method: "GET",
        path: `${T}/yaml`,
        status: 200,
        check: (b) => {
          const yaml = (b as { yaml: string }).yaml;
          assert.match(yaml, /^metadata:/);
          assert.match(yaml, /servers: 4/);
          assert.doesNotMatch(yaml, /managedFields/);
        },
      },
      {
        name: "invalid YAML is refused with the parser's message",
        as: "operator",
        method: "PUT",
        path: `${T}/yaml`,
        body: { yaml: "spec:\n  pools: [\n" },
        status: 400,
        check: (b) => assert.match((b as { message: string }).message, /flow|collection|end/i),
      },
      {
        name: "YAML the API server refuses",
        as: "operator",
        method: "PUT",
        path: `${T}/yaml`,
        body: { yaml: "spec:\n  image: x\n" },
        status: 400,
        check: (b) => assert.match((b as { message: string }).message, /spec\.pools: Required value/),
      },
      { name: "a bad image", as: "operator", method: "PUT", path: T, body: { image: "no-tag" }, status: 400 },
      {
        name: "update the image",
        as: "operator",
        method: "PUT",
        path: T,
        body: { image: "minio/minio:RELEASE.2021-09-01T00-00-00Z" },
        status: 201,
      },
      {
        name: "the image changed",
        as: "operator",
        method: "GET",
        path: T,
        status: 200,
        check: (b) =>
          assert.equal((b as { image: string }).image, "minio/minio:RELEASE.2021-09-01T00-00-00Z"),
      },
      {
        name: "pods",
        as: "viewer",
        method: "GET",
        path: `${T}/pods`,
        status: 200,
        check: (b) => {
          const pods = b as { name: string; status: string; restarts: number; node: string }[];
          assert.deepEqual(pods.map((p) => p.name), [
            "storage-lite-pool-0-0",
            "storage-lite-pool-0-1",
            "storage-lite-pool-0-2",
            "storage-lite-pool-0-3",
          ]);
          assert.equal(pods[0].status, "Running");
          assert.equal(pods[0].restarts, 0);
        },
      },
      {
        name: "pod events, oldest first",
        as: "operator",
        method: "GET",
        path: `${T}/pods/storage-lite-pool-0-1/events`,
        status: 200,
        check: (b) => {
          const events = b as { reason: string; event_type: string; last_seen: number }[];
          // Events of the same second keep the API server's (name) order, as in a real cluster.
          assert.deepEqual(events.map((e) => e.reason).sort(), ["Created", "Pulled", "Scheduled", "Started"]);
          assert.ok(events.every((e, i) => i === 0 || events[i - 1].last_seen <= e.last_seen));
          assert.ok(events.every((e) => e.event_type === "Normal"));
        },
      },
      {
        name: "pod logs as a JSON string",
        as: "operator",
        method: "GET",
        path: `${T}/pods/storage-lite-pool-0-0`,
        status: 200,
        check: (b) => assert.match(b as string, /MinIO Object Storage Server/),
      },
      {
        name: "pod delete needs the exact name",
        as: "operator",
        method: "DELETE",
        path: `${T}/pods/storage-lite-pool-0-2`,
        body: { confirm: "storage-lite-pool-0" },
        status: 400,
        check: (b) => assert.equal((b as { message: string }).message, "Tenant name is incorrect"),
      },
      {
        name: "viewer cannot delete a pod",
        as: "viewer",
        method: "DELETE",
        path: `${T}/pods/storage-lite-pool-0-2`,
        body: { confirm: "storage-lite-pool-0-2" },
        status: 403,
      },
      {
        name: "delete a pod",
        as: "operator",
        method: "DELETE",
        path: `${T}/pods/storage-lite-pool-0-2`,
        body: { confirm: "storage-lite-pool-0-2" },
        status: 204,
        check: async () => {
          await stack.cluster.operator.settled();
          const pod = stack.cluster.store.list(PODS, "tenant-lite").find((p) =>
            p.metadata.name === "storage-lite-pool-0-2"
          );
          assert.ok(pod, "the StatefulSet brought the pod back");
          podUid = pod.metadata.uid;
        },
      },
      {
        name: "a pod of another workload cannot be deleted through a tenant",
        as: "operator",
        method: "DELETE",
        path: "/api/v1/namespaces/ns-a/tenants/made-here/pods/storage-lite-pool-0-1",
        body: { confirm: "storage-lite-pool-0-1" },
        status: 404,
      },
      {
        name: "security",
        as: "operator",
        method: "GET",
        path: `${T}/security`,
        status: 200,
        check: (b) =>
          assert.deepEqual(b, { autoCert: false, customCertificates: { minio: [], minioCAs: [] } }),
      },
      {
        name: "add a certificate and a CA",
        as: "operator",
        method: "POST",
        path: `${T}/security`,
        body: {
          autoCert: false,
          customCertificates: {
            minio: [{
              crt: b64(
                Deno.readTextFileSync(new URL("../../build/k8s_standin/certs/tenant.crt", import.meta.url)),
              ),
              key: b64(
                Deno.readTextFileSync(new URL("../../build/k8s_standin/certs/tenant.key", import.meta.url)),
              ),
            }],
            minioCAs: [
              b64(
                Deno.readTextFileSync(
                  new URL("../../build/k8s_standin/certs/tenant-ca.crt", import.meta.url),
                ),
              ),
            ],
          },
        },
        status: 204,
      },
      {
        name: "the certificates are listed",
        as: "operator",
        method: "GET",
        path: `${T}/security`,
        status: 200,
        check: (b) => {
          const sec = b as {
            customCertificates: {
              minio: { domains: string[]; expiry: string }[];
              minioCAs: { domains: string[] }[];
            };
          };
          assert.deepEqual(sec.customCertificates.minio[0].domains, [
            "minio.tenant-lite.svc.cluster.local",
            "*.storage-lite-hl.tenant-lite.svc.cluster.local",
            "10.96.0.20",
          ]);
          assert.match(sec.customCertificates.minio[0].expiry, /^2126-\d\d-\d\d \d\d:\d\d:\d\d \+0000 UTC$/);
          assert.deepEqual(sec.customCertificates.minioCAs[0].domains, ["ca.tenant-lite.example"]);
        },
      },
      {
        name: "secrets of other tenants cannot be deleted through security",
        as: "operator",
        method: "POST",
        path: `${T}/security`,
        body: { autoCert: false, customCertificates: { secretsToBeDeleted: ["made-here-secret"] } },
        status: 400,
      },
      {
        name: "tenant delete needs the exact name",
        as: "operator",
        method: "DELETE",
        path: "/api/v1/namespaces/ns-a/tenants/made-here",
        body: { confirm: "made" },
        status: 400,
      },
      {
        name: "delete a tenant",
        as: "operator",
        method: "DELETE",
        path: "/api/v1/namespaces/ns-a/tenants/made-here",
        body: { confirm: "made-here" },
        status: 204,
      },
      {
        name: "gone",
        as: "operator",
        method: "GET",
        path: "/api/v1/namespaces/ns-a/tenants/made-here",
        status: 404,
      },
    ]);
    assert.ok(podUid);
  } finally {
    await stack.close();
  }
});

Deno.test("operator API: namespaces, quotas, nodes, memory and parity", async (t) => {
  const stack = await startOperatorStack({ seedTenant: false });
  try {
    await runOperatorScenarios(t, stack, [
      {
        name: "quota of a namespace",
        as: "operator",
        method: "GET",
        path: "/api/v1/namespaces/ns-a/resourcequotas/ns-a-storagequota",
        status: 200,
        check: (b) => {
          const q = b as { elements: { name: string; hard: number; used: number }[] };
          const standard = q.elements.find((e) => e.name.startsWith("standard."))!;
          assert.equal(standard.hard, 2 ** 40);
          assert.equal(standard.used, 100 * GI);
        },
      },
      {
        name: "no quota: every storage class, unlimited",
        as: "operator",
        method: "GET",
        path: "/api/v1/namespaces/ns-b/resourcequotas/ns-b-storagequota",
        status: 200,
        check: (b) => {
          const q = b as { name: string; elements: { name: string; hard: number }[] };
          assert.equal(q.name, "");
          assert.deepEqual(q.elements.map((e) => e.name).sort(), [
            "direct-csi-min-io.storageclass.storage.k8s.io/requests.storage",
            "standard.storageclass.storage.k8s.io/requests.storage",
          ]);
          assert.equal(q.elements[0].hard, 9223372036854775807);
        },
      },
      {
        name: "a namespace that does not exist",
        as: "operator",
        method: "GET",
        path: "/api/v1/namespaces/nowhere/resourcequotas/nowhere-storagequota",
        status: 404,
      },
      {
        name: "token without rights",
        as: "nobody",
        method: "GET",
        path: "/api/v1/namespaces/ns-a/resourcequotas/ns-a-storagequota",
        status: 403,
      },
      {
        name: "create a namespace",
        as: "operator",
        method: "POST",
        path: "/api/v1/namespace",
        body: { name: "fresh-ns" },
        status: 201,
      },
      {
        name: "an existing namespace",
        as: "operator",
        method: "POST",
        path: "/api/v1/namespace",
        body: { name: "fresh-ns" },
        status: 409,
      },
      {
        name: "an invalid namespace name",
        as: "operator",
        method: "POST",
        path: "/api/v1/namespace",
        body: { name: "Bad_NS" },
        status: 400,
        check: (b) => assert.match((b as { detailedMessage: string }).detailedMessage, /RFC 1123/),
      },
      {
        name: "a blank namespace name",
        as: "operator",
        method: "POST",
        path: "/api/v1/namespace",
        body: { name: " " },
        status: 400,
      },
      {
        name: "node labels",
        as: "operator",
        method: "GET",
        path: "/api/v1/nodes/labels",
        status: 200,
        check: (b) => {
          const labels = b as Record<string, string[]>;
          assert.deepEqual(labels["disk-type"], ["nvme", "ssd"]);
          assert.ok(labels["kubernetes.io/hostname"].includes("node-3"));
        },
      },
      {
        name: "max memory of 4 nodes: the 4th largest schedulable",
        as: "operator",
        method: "GET",
        path: "/api/v1/cluster/max-allocatable-memory?num_nodes=4",
        status: 200,
        check: (b) => assert.deepEqual(b, { max_memory: 16 * GI }),
      },
      {
        name: "max memory of 5 nodes",
        as: "operator",
        method: "GET",
        path: "/api/v1/cluster/max-allocatable-memory?num_nodes=5",
        status: 200,
        check: (b) => assert.deepEqual(b, { max_memory: 8 * GI }),
      },
      {
        name: "fewer than 4 nodes",
        as: "operator",
        method: "GET",
        path: "/api/v1/cluster/max-allocatable-memory?num_nodes=3",
        status: 507,
        check: (b) =>
          assert.equal((b as { message: string }).message, "at least 4 nodes are required for a tenant"),
      },
      {
        name: "more nodes than the cluster has",
        as: "operator",
        method: "GET",
        path: "/api/v1/cluster/max-allocatable-memory?num_nodes=9",
        status: 507,
      },
      {
        name: "not a number",
        as: "operator",
        method: "GET",
        path: "/api/v1/cluster/max-allocatable-memory?num_nodes=x",
        status: 422,
      },
      {
        name: "parity 4×4",
        as: "operator",
        method: "GET",
        path: "/api/v1/get-parity/4/4",
        status: 200,
        check: (b) => assert.deepEqual(b, ["EC:8", "EC:7", "EC:6", "EC:5", "EC:4", "EC:3", "EC:2"]),
      },
      {
        name: "parity 17×1",
        as: "operator",
        method: "GET",
        path: "/api/v1/get-parity/17/1",
        status: 500,
        check: (b) => assert.match((b as { detailedMessage: string }).detailedMessage, /not divisible/),
      },
      {
        name: "parity below the schema minimum",
        as: "operator",
        method: "GET",
        path: "/api/v1/get-parity/1/1",
        status: 422,
      },
    ]);
  } finally {
    await stack.close();
  }
});

Deno.test("storage API: volumes and drives", async (t) => {
  const stack = await startOperatorStack({ seedTenant: true, backTenants: false });
  try {
    await runOperatorScenarios(t, stack, [
      { name: "no session", as: "none", method: "GET", path: "/api/v1/list-pvcs", status: 401 },
      {
        name: "token without rights",
        as: "nobody",
        method: "GET",
        path: "/api/v1/direct-csi/drives",
        status: 403,
      },
      {
        name: "volume claims of tenants",
        as: "operator",
        method: "GET",
        path: "/api/v1/list-pvcs",
        status: 200,
        check: (b) => {
          const pvcs = (b as {
            pvcs: {
              name: string;
              tenant: string;
              capacity: string;
              storageClass: string;
              status: string;
            }[];
          }).pvcs;
          assert.equal(pvcs.length, 4);
          assert.deepEqual({ ...pvcs[0] }, {
            ...pvcs[0],
            name: "data0-storage-lite-pool-0-0",
            tenant: "storage-lite",
            capacity: "2147483648",
            storageClass: "standard",
            status: "Bound",
          });
        },
      },
      {
        name: "drives",
        as: "operator",
        method: "GET",
        path: "/api/v1/direct-csi/drives",
        status: 200,
        check: (b) => {
          const drives = (b as {
            drives: { drive: string; node: string; status: string; volumes: number; message?: string }[];
          }).drives;
          assert.deepEqual(drives.map((d) => `${d.node}:${d.drive}:${d.status}`), [
            "node-1:/dev/sdb:Available",
            "node-1:/dev/sdc:InUse",
            "node-2:/dev/sdb:Available",
            "node-2:/dev/sdc1:Available",
            "node-3:/dev/sdb:Ready",
            "node-4:/dev/sdb:Unavailable*",
          ]);
          assert.equal(drives[1].volumes, 1);
          assert.equal(drives[5].message, "drive /dev/sdb is too small");
        },
      },
      {
        name: "format without the confirmation phrase",
        as: "operator",
        method: "POST",
        path: "/api/v1/direct-csi/drives/format",
        body: { drives: ["node-1:/dev/sdb"], force: false },
        status: 400,
      },
      {
        name: "format: one drive formats, the others are refused with reasons",
        as: "operator",
        method: "POST",
        path: "/api/v1/direct-csi/drives/format",
        body: {
          drives: [
            "node-1:/dev/sdb",
            "node-1:/dev/sdc",
            "node-2:/dev/sdc1",
            "node-4:/dev/sdb",
            "node-9:/dev/none",
          ],
          force: false,
          confirm: "YES, PROCEED",
        },
        status: 200,
        check: (b) => {
          const issues = (b as { formatIssuesList: { node: string; drive: string }[] }).formatIssuesList;
          assert.deepEqual(
            issues.sort((x, y) => `${x.node}${x.drive}`.localeCompare(`${y.node}${y.drive}`)),
            [
              { node: "node-1", drive: "/dev/sdc", error: "Drive in use. Cannot be formatted" },
              { node: "node-2", drive: "/dev/sdc1", error: "Drive already has a fs. Use force to overwrite" },
              { node: "node-4", drive: "/dev/sdb", error: "Status is unavailable" },
            ],
          );
        },
      },
      {
        name: "the formatted drive is Ready",
        as: "operator",
        method: "GET",
        path: "/api/v1/direct-csi/drives",
        status: 200,
        check: (b) => {
          const drives = (b as { drives: { drive: string; node: string; status: string }[] }).drives;
          assert.equal(drives.find((d) => d.node === "node-1" && d.drive === "/dev/sdb")!.status, "Ready");
        },
      },
    ]);
  } finally {
    await stack.close();
  }
});

Deno.test("operator API: single sign-on checks code and state before a session exists", async (t) => {
  const port = await freePort();
  const callback = `http://127.0.0.1:${port}/oauth_callback`;
  const provider = await startOidcProvider({
    clients: [{ client_id: "deck", client_secret: "deck-client-secret", redirect_uris: [callback] }],
    accounts: { operator: {} },
  });
  const stack = await startOperatorStack({
    seedTenant: false,
    env: {
      CONSOLE_PORT: String(port),
      CONSOLE_IDP_URL: provider.discoveryUrl,
      CONSOLE_IDP_CLIENT_ID: "deck",
      CONSOLE_IDP_SECRET: "deck-client-secret",
      CONSOLE_IDP_CALLBACK: callback,
      CONSOLE_IDP_SCOPES: "openid",
    },
  });
  try {
    const client = new ConsoleClient(stack.consoleUrl);
    const strategy = await client.json<{ loginStrategy: string; redirect: string }>(
      "GET",
      "/api/v1/login",
      undefined,
      200,
    );
    assert.equal(strategy.loginStrategy, "redirect");
    const start = await client.request("GET", strategy.redirect);
    await start.body?.cancel();
    const pending = /deck_sso=([^;]*)/.exec(start.headers.get("set-cookie") ?? "")![1];
    const back = await provider.signInAs(start.headers.get("location")!, "operator");
    const state = back.searchParams.get("state")!;
    const code = back.searchParams.get("code")!;
    const withPending = { cookie: `deck_sso=${pending}` };
    await t.step("a state this console did not issue is refused", async () => {
      const res = await client.request(
        "POST",
        "/api/v1/login/oauth2/auth",
        { code, state: "forged" },
        withPending,
      );
      assert.equal(res.status, 401);
      await res.body?.cancel();
    });
    await t.step("a code the identity provider refuses is refused", async () => {
      const res = await client.request(
        "POST",
        "/api/v1/login/oauth2/auth",
        { code: "bad-code", state },
        withPending,
      );
      assert.equal(res.status, 401);
      assert.match((await res.json()).detailedMessage, /invalid_grant/);
    });
    await t.step("a verified code opens an operator session on the console's service account", async () => {
      const again = await client.request("GET", strategy.redirect);
      await again.body?.cancel();
      const fresh = /deck_sso=([^;]*)/.exec(again.headers.get("set-cookie") ?? "")![1];
      const next = await provider.signInAs(again.headers.get("location")!, "operator");
      const res = await client.request("POST", "/api/v1/login/oauth2/auth", {
        code: next.searchParams.get("code"),
        state: next.searchParams.get("state"),
      }, { cookie: `deck_sso=${fresh}` });
      assert.equal(res.status, 201, await res.text());
      const tenants = await client.json<{ total: number }>("GET", "/api/v1/tenants", undefined, 200);
      assert.equal(tenants.total, 0);
    });
  } finally {
    await stack.close();
    await provider.close();
  }
});
