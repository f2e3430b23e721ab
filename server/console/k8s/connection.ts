/**
 * Where the Kubernetes API server is and which CA to trust (operator-k8s.md §1.1): the configured URL, else
 * the in-cluster address, else the current context of a kubeconfig, else a local `kubectl proxy`. The
 * service-account files of a pod supply the CA and the console's own token.
 */
import type { OperatorConfig } from "../config/config.ts";
import type { K8sClient, K8sConnection } from "./client.ts";
import { loadYaml } from "./yaml.ts";

/** Operator mode's cluster as the console uses it: the Kubernetes API and the console's place in the cluster. */
export interface OperatorDeps {
  k8s: K8sClient;
  config: OperatorConfig;
  /** The console's own service-account token, for sessions opened through SSO ("" when none). */
  serviceAccountToken: string;
}

export const SERVICE_ACCOUNT_DIR = "/var/run/secrets/kubernetes.io/serviceaccount";

export interface ResolvedCluster {
  connection: K8sConnection;
  /** The console's own service-account token (SSO sessions), "" when none. */
  serviceAccountToken: string;
  /** Where the address came from, for the start-up line. */
  source: string;
}

type ReadFile = (path: string) => Promise<string>;

const readOrNull = async (read: ReadFile, path: string) => {
  try {
    return await read(path);
  } catch {
    return null;
  }
};

interface KubeconfigCluster {
  server: string;
  caCert?: string;
}

/** The cluster of a kubeconfig's current context: its server and CA (file or inline data). */
export async function clusterFromKubeconfig(path: string, read: ReadFile): Promise<KubeconfigCluster> {
  // deno-lint-ignore no-explicit-any
  const doc = (await loadYaml()).parse(await read(path)) as any;
  const contextName = doc?.["current-context"];
  const context = (doc?.contexts ?? []).find((c: { name: string }) => c.name === contextName)?.context;
  const cluster = (doc?.clusters ?? []).find((c: { name: string }) => c.name === context?.cluster)?.cluster;
  if (!cluster?.server) {
    throw new Error(`${path}: the current context "${contextName ?? ""}" names no cluster with a server`);
  }
  if (cluster["insecure-skip-tls-verify"]) {
    throw new Error(`${path}: insecure-skip-tls-verify is not supported; give the cluster's CA`);
  }
  let caCert: string | undefined;
  if (cluster["certificate-authority-data"]) {
    caCert = new TextDecoder().decode(Uint8Array.fromBase64(cluster["certificate-authority-data"]));
  } else if (cluster["certificate-authority"]) caCert = await read(cluster["certificate-authority"]);
  return { server: String(cluster.server).replace(/\/+$/, ""), caCert };
}

export async function resolveCluster(
  config: OperatorConfig,
  env: Record<string, string | undefined>,
  read: ReadFile = Deno.readTextFile,
): Promise<ResolvedCluster> {
  const inClusterCa = await readOrNull(read, `${SERVICE_ACCOUNT_DIR}/ca.crt`);
  const serviceAccountToken = config.serviceAccountToken ||
    (await readOrNull(read, `${SERVICE_ACCOUNT_DIR}/token`))?.trim() || "";
  const configuredCa = config.caFile ? await read(config.caFile) : undefined;
  let server: string;
  let caCert: string | undefined;
  let source: string;
  if (config.apiServer) {
    server = config.apiServer;
    caCert = configuredCa ?? inClusterCa ?? undefined;
    source = "CONSOLE_K8S_API_SERVER";
  } else if (env.KUBERNETES_SERVICE_HOST && env.KUBERNETES_SERVICE_PORT) {
    const host = env.KUBERNETES_SERVICE_HOST.includes(":")
      ? `[${env.KUBERNETES_SERVICE_HOST}]`
      : env.KUBERNETES_SERVICE_HOST;
    server = `https://${host}:${env.KUBERNETES_SERVICE_PORT}`;
    caCert = configuredCa ?? inClusterCa ?? undefined;
    source = "in-cluster";
  } else if (config.kubeconfig) {
    const cluster = await clusterFromKubeconfig(config.kubeconfig, read);
    server = cluster.server;
    caCert = configuredCa ?? cluster.caCert;
    source = config.kubeconfig;
  } else {
    server = "http://localhost:8001";
    caCert = configuredCa;
    source = "kubectl proxy default";
  }
  return { connection: { baseUrl: server, caCert }, serviceAccountToken, source };
}
