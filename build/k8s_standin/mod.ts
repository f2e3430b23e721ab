/**
 * Starts the stand-in Kubernetes API server: the HTTP front (server.ts) over a seeded store, with the
 * emulated operator (operator.ts) creating what stands behind each Tenant. Used by the tests, the
 * benchmarks and `deno task k8s-standin`.
 *
 *   const cluster = await startStandin({ seedTenant: true });
 *   // CONSOLE_K8S_API_SERVER=cluster.url, sign in with cluster.operatorToken
 *   await cluster.close();
 */
import { TenantOperator } from "./operator.ts";
import { seedCluster, type SeededUsers, seedTenant, seedUsers } from "./seed.ts";
import { createStandinHandler } from "./server.ts";
import { Store } from "./store.ts";

export interface StandinOptions {
  hostname?: string;
  /** 0 (default) picks a free port. */
  port?: number;
  /** Start a real storage server and console behind each Tenant (default true). */
  backTenants?: boolean;
  /** Seed the `storage-lite` tenant in `tenant-lite` (default false). */
  seedTenant?: boolean;
}

/** The CA file clients trust the stand-in's HTTPS with (CONSOLE_K8S_API_SERVER_TLS_ROOT_CA). */
export const STANDIN_CA_FILE = new URL("./certs/ca.crt", import.meta.url).pathname;

export interface Standin extends Omit<SeededUsers, "users"> {
  /** https://127.0.0.1:PORT: kubectl sends bearer tokens only over TLS, so the stand-in serves HTTPS. */
  url: string;
  caFile: string;
  store: Store;
  operator: TenantOperator;
  /** Root credentials of the seeded tenant, when seeded. */
  seededTenant?: { namespace: string; name: string; root: { accessKey: string; secretKey: string } };
  close(): Promise<void>;
}

export async function startStandin(options: StandinOptions = {}): Promise<Standin> {
  const store = new Store();
  await seedCluster(store);
  const seeded = seedUsers();
  const operator = new TenantOperator(store, { backTenants: options.backTenants ?? true });
  let seededTenant: Standin["seededTenant"];
  if (options.seedTenant) {
    const root = { accessKey: "lite-admin", secretKey: crypto.randomUUID().replace(/-/g, "").slice(0, 24) };
    seedTenant(store, {
      namespace: "tenant-lite",
      name: "storage-lite",
      root,
      users: [{ accessKey: "lite-console", secretKey: crypto.randomUUID().slice(0, 20) }],
    });
    seededTenant = { namespace: "tenant-lite", name: "storage-lite", root };
  }
  operator.start();
  let address = "";
  const api = createStandinHandler({
    store,
    users: seeded.users,
    podLog: (ns, name, container) => operator.podLog(ns, name, container),
  }, () => address);
  const certs = new URL("./certs/", import.meta.url);
  const server = Deno.serve({
    hostname: options.hostname ?? "127.0.0.1",
    port: options.port ?? 0,
    cert: await Deno.readTextFile(new URL("server.crt", certs)),
    key: await Deno.readTextFile(new URL("server.key", certs)),
    onListen: () => {},
  }, api.handle);
  const addr = server.addr as Deno.NetAddr;
  address = `${addr.hostname}:${addr.port}`;
  await operator.settled();
  return {
    url: `https://${addr.hostname}:${addr.port}`,
    caFile: STANDIN_CA_FILE,
    store,
    operator,
    operatorToken: seeded.operatorToken,
    viewerToken: seeded.viewerToken,
    nobodyToken: seeded.nobodyToken,
    seededTenant,
    close: async () => {
      api.closeWatches();
      await server.shutdown();
      await operator.close();
    },
  };
}
