/**
 * `deno task k8s-standin [--port N] [--no-tenant]`: runs the stand-in Kubernetes API server by hand, seeded
 * with a small cluster and (unless --no-tenant) a tenant backed by a real storage server and console, and
 * prints how to point Deck at it.
 */
import { startStandin } from "./mod.ts";

function flag(name: string): string | undefined {
  const i = Deno.args.indexOf(name);
  return i >= 0 ? Deno.args[i + 1] : undefined;
}

const port = Number(flag("--port") ?? 0);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error("--port must be a port number");
  Deno.exit(2);
}
const cluster = await startStandin({ port, seedTenant: !Deno.args.includes("--no-tenant") });
console.log(`Stand-in Kubernetes API server: ${cluster.url}`);
console.log(`Operator token (paste it into Deck's 'JWT' field):\n${cluster.operatorToken}\n`);
console.log(`Viewer token (tenant-lite only): ${cluster.viewerToken}`);
console.log(
  `\nStart Deck in operator mode against it:\n  CONSOLE_OPERATOR_MODE=on CONSOLE_K8S_API_SERVER=${cluster.url} CONSOLE_K8S_API_SERVER_TLS_ROOT_CA=${cluster.caFile} CONSOLE_K8S_SERVICE_ACCESS=cluster-ip npx -y deno@2.9.6 task start`,
);
if (cluster.seededTenant) {
  console.log(
    `\nTenant ${cluster.seededTenant.namespace}/${cluster.seededTenant.name} root user: ${cluster.seededTenant.root.accessKey}`,
  );
}

const stop = async () => {
  await cluster.close();
  Deno.exit(0);
};
Deno.addSignalListener("SIGINT", stop);
Deno.addSignalListener("SIGTERM", stop);
