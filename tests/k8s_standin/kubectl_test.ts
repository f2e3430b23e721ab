/**
 * Debian's kubectl against the stand-in: the check that the shapes it serves are real. kubectl reads
 * discovery and the OpenAPI v3 documents, validates with the server (its default --validate=strict), applies,
 * patches, lists with selectors, prints server-side tables, follows logs and waits for deletions.
 */
import assert from "node:assert/strict";
import { STANDIN_CA_FILE, startStandin } from "../../build/k8s_standin/mod.ts";

const KUBECTL = "/usr/bin/kubectl";

async function kubectl(
  env: { home: string; kubeconfig: string },
  args: string[],
  stdin?: string,
): Promise<{ ok: boolean; out: string; err: string }> {
  const child = new Deno.Command(KUBECTL, {
    args: [`--cache-dir=${env.home}/cache`, "--request-timeout=20s", ...args],
    env: { HOME: env.home, KUBECONFIG: env.kubeconfig, PATH: "/usr/bin:/bin" },
    clearEnv: true,
    stdin: stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (stdin !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(stdin));
    await writer.close();
  }
  const { success, stdout, stderr } = await child.output();
  return { ok: success, out: new TextDecoder().decode(stdout), err: new TextDecoder().decode(stderr) };
}

function kubeconfig(server: string, token: string): string {
  return JSON.stringify({
    apiVersion: "v1",
    kind: "Config",
    clusters: [{ name: "standin", cluster: { server, "certificate-authority": STANDIN_CA_FILE } }],
    users: [{ name: "op", user: { token } }],
    contexts: [{ name: "standin", context: { cluster: "standin", user: "op", namespace: "ns-a" } }],
    "current-context": "standin",
  });
}

const TENANT = (image: string, extra = "") => `
apiVersion: minio.min.io/v2
kind: Tenant
metadata:
  name: kube-tenant
  namespace: ns-a
scheduler:
  name: ""
spec:
  image: ${image}
  configuration:
    name: kube-tenant-env
  pools:
  - name: pool-0
    servers: 4
    volumesPerServer: 1
    volumeClaimTemplate:
      metadata:
        name: data
      spec:
        accessModes: [ReadWriteOnce]
        resources:
          requests:
            storage: 1Gi
${extra}---
apiVersion: v1
kind: Secret
metadata:
  name: kube-tenant-env
  namespace: ns-a
data:
  config.env: ${btoa('export MINIO_ROOT_USER="kubeadmin"\n')}
`;

Deno.test({
  name: "kubectl lists, gets, creates, applies, patches and deletes against the stand-in",
  ignore: !(await Deno.stat(KUBECTL).then(() => true, () => false)),
  fn: async (t) => {
    const cluster = await startStandin({ backTenants: false });
    const home = await Deno.makeTempDir({ prefix: "deck-kubectl-" });
    const env = { home, kubeconfig: `${home}/config` };
    await Deno.writeTextFile(env.kubeconfig, kubeconfig(cluster.url, cluster.operatorToken));
    const run = async (args: string[], stdin?: string) => {
      const result = await kubectl(env, args, stdin);
      assert.ok(result.ok, `kubectl ${args.join(" ")} failed:\n${result.err}`);
      return result.out;
    };
    try {
      await t.step("get prints the server's tables", async () => {
        const nodes = await run(["get", "nodes"]);
        assert.match(nodes, /^NAME\s+STATUS\s+ROLES\s+AGE/m);
        assert.match(nodes, /^node-1\s+Ready\s+<none>/m);
        assert.match(nodes, /^control-plane\s+Ready\s+control-plane,master/m);
        assert.match(await run(["get", "storageclass"]), /^standard\s+rancher\.io\/local-path/m);
        assert.match(
          await run(["get", "directcsidrives"]),
          /node-1\s+\/var\/lib\/direct-csi\/devices\/sdb\s+Available/,
        );
      });

      await t.step("apply creates with server-side validation, then configures", async () => {
        const created = await run(["apply", "-f", "-"], TENANT("minio/minio:RELEASE.2021-08-17T20-53-08Z"));
        assert.match(created, /tenant\.minio\.min\.io\/kube-tenant created/);
        assert.match(created, /secret\/kube-tenant-env created/);
        const again = await run(["apply", "-f", "-"], TENANT("minio/minio:RELEASE.2021-09-01T00-00-00Z"));
        assert.match(again, /tenant\.minio\.min\.io\/kube-tenant configured/);
        assert.match(again, /secret\/kube-tenant-env unchanged/);
        const tenant = JSON.parse(await run(["get", "tenant", "kube-tenant", "-o", "json"]));
        assert.equal(tenant.spec.image, "minio/minio:RELEASE.2021-09-01T00-00-00Z");
        assert.match(
          tenant.metadata.annotations["kubectl.kubernetes.io/last-applied-configuration"],
          /2021-09-01/,
        );
        const secret = JSON.parse(await run(["get", "secret", "kube-tenant-env", "-o", "json"]));
        assert.match(atob(secret.data["config.env"]), /MINIO_ROOT_USER="kubeadmin"/);
        // stringData folds into data on the server, as the API server does.
        await run(
          ["apply", "-f", "-"],
          "apiVersion: v1\nkind: Secret\nmetadata:\n  name: plain\nstringData:\n  password: s3cret\n",
        );
        assert.equal(
          atob(JSON.parse(await run(["get", "secret", "plain", "-o", "json"])).data.password),
          "s3cret",
        );
      });

      await t.step("apply refuses an unknown field and a missing required one", async () => {
        const unknown = await kubectl(
          env,
          ["apply", "-f", "-"],
          TENANT("minio/minio:x", "  nonsense: true\n"),
        );
        assert.equal(unknown.ok, false);
        assert.match(unknown.err, /strict decoding error: unknown field "spec\.nonsense"/);
        const missing = await kubectl(
          env,
          ["create", "-f", "-"],
          "apiVersion: minio.min.io/v2\nkind: Tenant\nmetadata:\n  name: no-pools\nspec:\n  image: x\n",
        );
        assert.equal(missing.ok, false);
        assert.match(missing.err, /spec\.pools: Required value/);
      });

      await t.step("the emulated operator's pods, events and logs are listed with selectors", async () => {
        await cluster.operator.settled();
        const pods = await run(["get", "pods", "-l", "v1.min.io/tenant=kube-tenant"]);
        assert.match(pods, /^kube-tenant-pool-0-0\s+1\/1\s+Running\s+0/m);
        assert.equal(pods.trim().split("\n").length, 5);
        assert.match(await run(["get", "tenants"]), /^kube-tenant\s+Initialized/m);
        const events = await run([
          "get",
          "events",
          "--field-selector",
          "involvedObject.name=kube-tenant-pool-0-1",
        ]);
        assert.match(events, /Scheduled/);
        assert.match(await run(["logs", "kube-tenant-pool-0-2"]), /MinIO Object Storage Server/);
        assert.match(
          await run(["get", "pvc", "-o", "name"]),
          /persistentvolumeclaim\/data0-kube-tenant-pool-0-3/,
        );
      });

      await t.step("patch: merge patch on a Tenant, strategic merge patch on a Secret", async () => {
        assert.match(
          await run([
            "patch",
            "tenant",
            "kube-tenant",
            "--type",
            "merge",
            "-p",
            '{"spec":{"exposeServices":{"minio":false}}}',
          ]),
          /patched/,
        );
        const tenant = JSON.parse(await run(["get", "tenant", "kube-tenant", "-o", "json"]));
        assert.equal(tenant.spec.exposeServices.minio, false);
        assert.match(
          await run([
            "patch",
            "secret",
            "kube-tenant-env",
            "-p",
            '{"metadata":{"labels":{"team":"storage"}}}',
          ]),
          /patched/,
        );
        const refused = await kubectl(env, [
          "patch",
          "tenant",
          "kube-tenant",
          "-p",
          '{"spec":{"image":"x"}}',
        ]);
        assert.equal(refused.ok, false, "strategic merge patch is not served for custom resources");
      });

      await t.step("create, then delete waiting for the object to go", async () => {
        assert.match(await run(["create", "namespace", "kube-made"]), /namespace\/kube-made created/);
        assert.match(
          await run(["create", "secret", "generic", "loose", "-n", "kube-made", "--from-literal=k=v"]),
          /secret\/loose created/,
        );
        const loose = JSON.parse(await run(["get", "secret", "loose", "-n", "kube-made", "-o", "json"]));
        assert.equal(atob(loose.data.k), "v");
        const exists = await kubectl(env, ["create", "namespace", "kube-made"]);
        assert.match(exists.err, /AlreadyExists/);
        assert.match(
          await run(["delete", "tenant", "kube-tenant"]),
          /tenant\.minio\.min\.io "kube-tenant" deleted/,
        );
        assert.match(await run(["delete", "namespace", "kube-made"]), /namespace "kube-made" deleted/);
        const gone = await kubectl(env, ["get", "tenant", "kube-tenant"]);
        assert.match(gone.err, /NotFound/);
      });

      await t.step("RBAC: a token without rights is refused, an unknown token is not signed in", async () => {
        await Deno.writeTextFile(env.kubeconfig, kubeconfig(cluster.url, cluster.nobodyToken));
        const forbidden = await kubectl(env, ["get", "tenants"]);
        assert.match(
          forbidden.err,
          /Forbidden.*cannot list resource "tenants" in API group "minio\.min\.io" in the namespace "ns-a"/,
        );
        await Deno.writeTextFile(env.kubeconfig, kubeconfig(cluster.url, "not-a-token"));
        const unauthorized = await kubectl(env, ["get", "tenants"]);
        assert.match(unauthorized.err, /Unauthorized|must be logged in/);
      });
    } finally {
      await cluster.close();
      await Deno.remove(home, { recursive: true });
    }
  },
});
