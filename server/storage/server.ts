/**
 * Starts the embedded MinIO-compatible storage server: disk store, identity side and HTTP front on their own
 * listener. Root credentials come from the options, else from <data>/.deck/root-credentials.json, else are
 * generated on first start and kept there with mode 0600.
 */
import type { Logger } from "../log.ts";
import { writeFileDurable } from "./fs/durable.ts";
import { Store } from "./fs/store.ts";
import { generateCredentials } from "./iam/store.ts";
import { createIdentity } from "./iam/mod.ts";
import { createS3Server } from "./s3_server.ts";
import { storeFacts } from "./store_facts.ts";

export interface EmbeddedStorageOptions {
  dataDir: string;
  hostname?: string;
  /** 0 picks a free port. */
  port?: number;
  rootUser?: string;
  rootPassword?: string;
  /** Domain for virtual-host-style bucket addressing. */
  domain?: string;
  log?: Logger;
  now?: () => number;
  /**
   * The backend the admin API reports: "erasure" (default; the console then offers versioning, locking,
   * quota, replication and lifecycle) or "fs", as a single-drive MinIO reports itself. Used to exercise the
   * console's non-distributed behaviour against a real server.
   */
  reportedBackend?: "erasure" | "fs";
}

export interface EmbeddedStorage {
  /** Origin such as http://127.0.0.1:9000. */
  url: string;
  root: { accessKey: string; secretKey: string };
  /** Whether this start generated the root credentials. */
  generatedRoot: boolean;
  handler: (request: Request, info?: Deno.ServeHandlerInfo) => Promise<Response>;
  close(): Promise<void>;
}

interface DeckState {
  deploymentId: string;
}

async function rootCredentials(dataDir: string, options: EmbeddedStorageOptions): Promise<{ accessKey: string; secretKey: string; generated: boolean }> {
  if (options.rootUser && options.rootPassword) return { accessKey: options.rootUser, secretKey: options.rootPassword, generated: false };
  const file = `${dataDir}/.deck/root-credentials.json`;
  try {
    const saved = JSON.parse(await Deno.readTextFile(file));
    return { accessKey: saved.accessKey, secretKey: saved.secretKey, generated: false };
  } catch {
    const creds = generateCredentials();
    await writeFileDurable(`${dataDir}/.deck/tmp`, file, JSON.stringify(creds));
    await Deno.chmod(file, 0o600);
    return { ...creds, generated: true };
  }
}

async function deckState(dataDir: string): Promise<DeckState> {
  const file = `${dataDir}/.deck/deployment.json`;
  try {
    return JSON.parse(await Deno.readTextFile(file));
  } catch {
    const state = { deploymentId: crypto.randomUUID() };
    await writeFileDurable(`${dataDir}/.deck/tmp`, file, JSON.stringify(state));
    return state;
  }
}

/** Builds the request handler over a data directory without listening (tests and in-process use). */
export async function openEmbeddedStorage(options: EmbeddedStorageOptions) {
  const dataDir = await Deno.realPath(await Deno.mkdir(options.dataDir, { recursive: true, mode: 0o700 }).then(() => options.dataDir));
  const store = await Store.open(dataDir);
  const root = await rootCredentials(dataDir, options);
  const state = await deckState(dataDir);
  const identity = await createIdentity({ dataDir, root, store: storeFacts(store, state.deploymentId), now: options.now, reportedBackend: options.reportedBackend });
  const handler = createS3Server({
    store,
    authority: identity.authority,
    facts: identity.facts,
    admin: identity.admin,
    sts: identity.sts,
    domain: options.domain,
    now: options.now,
  });
  return { handler, root, identity, store, dataDir };
}

/** Starts the server on its own listener. */
export async function startEmbeddedStorage(options: EmbeddedStorageOptions): Promise<EmbeddedStorage> {
  const opened = await openEmbeddedStorage(options);
  const server = Deno.serve({
    hostname: options.hostname ?? "127.0.0.1",
    port: options.port ?? 9000,
    onListen: () => {},
  }, opened.handler);
  const address = server.addr as Deno.NetAddr;
  const host = address.hostname.includes(":") ? `[${address.hostname}]` : address.hostname;
  options.log?.info("embedded storage listening", { address: `${host}:${address.port}`, dataDir: opened.dataDir });
  return {
    url: `http://${host === "0.0.0.0" ? "127.0.0.1" : host}:${address.port}`,
    root: { accessKey: opened.root.accessKey, secretKey: opened.root.secretKey },
    generatedRoot: opened.root.generated,
    handler: opened.handler,
    close: async () => {
      await server.shutdown();
      await opened.identity.close();
      opened.store.close();
    },
  };
}
