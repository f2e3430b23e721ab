/**
 * The deploy/ files agree with the code they describe: the Containerfile's defaults (used where a registry
 * builds it without build/image.ts) name this release, its warm-up and entry point use the binary's
 * permissions and warm every worker module, and the sidecar Pod wires Deck to MinIO on the ports both use.
 */
import assert from "node:assert/strict";
import { parse } from "yaml";
import { IMAGE_USER } from "../../build/image.ts";
import { RUN_PERMISSIONS } from "../../build/compile.ts";
import { SETTINGS } from "../../server/console/config/settings.ts";
import { EMBEDDED_VERSION } from "../../server/storage/admin/info.ts";
import { ROOT } from "./helpers.ts";

const containerfile = await Deno.readTextFile(`${ROOT}deploy/Containerfile`);

Deno.test("the Containerfile's defaults name this release and this Deno", () => {
  assert.match(
    containerfile,
    new RegExp(`^ARG DENO_VERSION=${Deno.version.deno.replaceAll(".", "\\.")}$`, "m"),
  );
  assert.match(
    containerfile,
    new RegExp(`^ARG DECK_VERSION=${EMBEDDED_VERSION.replaceAll(".", "\\.")}$`, "m"),
  );
  assert.match(containerfile, /npx -y deno@2\.9\.6 task image --rootfs \/rootfs/);
  assert.match(containerfile, new RegExp(`^USER ${IMAGE_USER}:${IMAGE_USER}$`, "m"));
});

Deno.test("the Containerfile starts and warms up Deck with the compiled binary's permissions", () => {
  const runs = [...containerfile.matchAll(/^(?:RUN|ENTRYPOINT) (\[.*\])$/gm)].map((m) => JSON.parse(m[1]));
  const entry = runs.at(-1);
  assert.deepEqual(entry, [
    "/usr/bin/deno",
    "run",
    "--cached-only",
    "--config",
    "/app/deno.runtime.json",
    ...RUN_PERMISSIONS,
    "/app/main.ts",
  ]);
  const warmUp = runs.find((args) => args.at(-1) === "/usr/lib/deck/warm_up.ts");
  assert.deepEqual(warmUp?.slice(0, -1), entry.slice(0, -1), "the warm-up runs as the entry point does");
});

interface Container {
  name: string;
  args?: string[];
  env?: { name: string; value?: string; valueFrom?: { secretKeyRef: { key: string } } }[];
  ports?: { containerPort: number }[];
  volumeMounts?: { mountPath: string }[];
  readinessProbe?: { httpGet: { path: string; port: number } };
  securityContext?: { runAsUser?: number; runAsNonRoot?: boolean; allowPrivilegeEscalation?: boolean };
}

Deno.test("the sidecar Pod points Deck at MinIO and MinIO's audit records at Deck", async () => {
  const pod = parse(await Deno.readTextFile(`${ROOT}deploy/sidecar-pod.yaml`));
  assert.equal(pod.kind, "Pod");
  const containers: Container[] = pod.spec.containers;
  const minio = containers.find((c) => c.name === "minio")!;
  const deck = containers.find((c) => c.name === "deck")!;
  const env = (c: Container, name: string) => c.env?.find((e) => e.name === name);

  const consolePort = Number(SETTINGS.port.default);
  assert.deepEqual(deck.ports?.map((p) => p.containerPort), [consolePort]);
  assert.deepEqual(deck.readinessProbe?.httpGet, { path: "/healthz", port: consolePort });
  assert.deepEqual(deck.volumeMounts?.map((m) => m.mountPath), ["/data"]);
  assert.equal(deck.securityContext?.runAsUser, IMAGE_USER);
  assert.equal(deck.securityContext?.allowPrivilegeEscalation, false);

  const s3Port = minio.ports?.[0].containerPort;
  assert.equal(env(deck, "CONSOLE_MINIO_SERVER")?.value, `http://localhost:${s3Port}`);
  assert.ok(!minio.args?.includes(`:${consolePort}`), "MinIO's console would take Deck's port");

  const logSearchPort = env(deck, SETTINGS.logSearchAddress.env)?.value?.split(":")[1];
  const endpoint = env(minio, "MINIO_AUDIT_WEBHOOK_ENDPOINT_deck")?.value;
  assert.equal(endpoint, `http://localhost:${logSearchPort}/api/ingest?token=$(DECK_AUDIT_TOKEN)`);
  assert.equal(
    env(minio, "DECK_AUDIT_TOKEN")?.valueFrom?.secretKeyRef.key,
    env(deck, "CONSOLE_LOG_SEARCH_AUDIT_TOKEN")?.valueFrom?.secretKeyRef.key,
    "MinIO and Deck must share the audit token",
  );
});
