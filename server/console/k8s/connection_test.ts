import assert from "node:assert/strict";
import { loadConfig } from "../config/config.ts";
import { resolveCluster, SERVICE_ACCOUNT_DIR } from "./connection.ts";

const files = (map: Record<string, string>) =>
(
  path: string,
) => (path in map ? Promise.resolve(map[path]) : Promise.reject(new Deno.errors.NotFound(path)));
const operator = (env: Record<string, string>) =>
  loadConfig({ CONSOLE_OPERATOR_MODE: "on", ...env }).operator!;

Deno.test("the API server comes from the setting, then in-cluster, then kubeconfig, then kubectl proxy", async () => {
  const inCluster = {
    [`${SERVICE_ACCOUNT_DIR}/ca.crt`]: "CLUSTER CA",
    [`${SERVICE_ACCOUNT_DIR}/namespace`]: "minio-operator\n",
    [`${SERVICE_ACCOUNT_DIR}/token`]: "pod-token",
  };
  const set = await resolveCluster(
    operator({
      CONSOLE_K8S_API_SERVER: "https://k8s.example:6443",
      CONSOLE_K8S_API_SERVER_TLS_ROOT_CA: "/ca.pem",
    }),
    {},
    files({ ...inCluster, "/ca.pem": "GIVEN CA" }),
  );
  assert.deepEqual(set.connection, { baseUrl: "https://k8s.example:6443", caCert: "GIVEN CA" });
  assert.equal(set.serviceAccountToken, "pod-token");

  const pod = await resolveCluster(operator({}), {
    KUBERNETES_SERVICE_HOST: "10.96.0.1",
    KUBERNETES_SERVICE_PORT: "443",
  }, files(inCluster));
  assert.deepEqual(pod.connection, { baseUrl: "https://10.96.0.1:443", caCert: "CLUSTER CA" });

  const kubeconfig = `apiVersion: v1
kind: Config
current-context: dev
contexts:
- name: dev
  context: { cluster: dev-cluster, user: someone }
clusters:
- name: dev-cluster
  cluster:
    server: https://dev.example:6443/
    certificate-authority-data: ${btoa("INLINE CA")}
`;
  const fromFile = await resolveCluster(
    operator({ CONSOLE_KUBECONFIG: "/kube/config" }),
    {},
    files({ "/kube/config": kubeconfig }),
  );
  assert.deepEqual(fromFile.connection, { baseUrl: "https://dev.example:6443", caCert: "INLINE CA" });

  const fallback = await resolveCluster(operator({}), {}, files({}));
  assert.equal(fallback.connection.baseUrl, "http://localhost:8001");
  await assert.rejects(
    resolveCluster(
      operator({ CONSOLE_KUBECONFIG: "/kube/config" }),
      {},
      files({ "/kube/config": "current-context: none\n" }),
    ),
    /names no cluster/,
  );
});

Deno.test("operator settings are validated", () => {
  assert.equal(loadConfig({}).operator, null);
  assert.throws(() => loadConfig({ CONSOLE_OPERATOR_MODE: "yes" }), /CONSOLE_OPERATOR_MODE/);
  assert.throws(() => operator({ CONSOLE_K8S_SERVICE_ACCESS: "ingress" }), /CONSOLE_K8S_SERVICE_ACCESS/);
  assert.throws(() => operator({ CONSOLE_K8S_API_SERVER: "k8s.example" }), /CONSOLE_K8S_API_SERVER/);
  assert.equal(operator({}).minioImage, "minio/minio:RELEASE.2021-08-17T20-53-08Z");
});
