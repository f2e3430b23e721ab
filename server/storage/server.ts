/**
 * Starts the embedded MinIO-compatible storage server: disk store, identity side and HTTP front on their own
 * listener. Root credentials come from the options, else from <data>/.deck/root-credentials.json, else are
 * generated on first start and kept there with mode 0600.
 */
import type { Logger } from "../lib/http/log.ts";
import { DEFAULT_LISTENER_TIMEOUTS, listen, type ListenerTimeouts } from "../lib/http/listener.ts";
import { openDataFormat } from "./data_format.ts";
import { writeFileDurable } from "./fs/durable.ts";
import { Store } from "./fs/store.ts";
import { generateCredentials } from "./iam/store.ts";
import { createIdentity } from "./identity.ts";
import { Notifier } from "./notify/notifier.ts";
import { createS3Server } from "./s3_server.ts";
import { forwardingKey } from "../lib/s3/forwarded_client.ts";
import { storeFacts } from "./store_facts.ts";
import { HealSequences } from "./heal/sequences.ts";
import type { InternalAuditEvent } from "./logging/audit_entry.ts";
import { WebhookLoggers } from "./logging/webhook_targets.ts";
import { LogHistory } from "./streams/console_log.ts";
import { closeStorageStreams, createStorageStreams, type StorageStreams } from "./streams/mod.ts";
import { registerOsCalls } from "./streams/calls.ts";
import { createMetricsEndpoint, type MetricsEndpoint, type PrometheusAuthType } from "./metrics/mod.ts";
import { EMBEDDED_VERSION } from "./admin/info.ts";
import { openLifecycle } from "./lifecycle/mod.ts";
import type { LifecycleScanner, LifecycleSettings } from "./lifecycle/scanner.ts";
import { Replicator } from "./replication/queue.ts";
import { KeyStore, setKeyStore } from "./sse/kms.ts";
import { fetchTrusting, readCertsDirTrust } from "../lib/http/trusted_cas.ts";

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
  /** How often directory sessions are checked against the directory (iam/ldap_sessions.ts); 60 s by default. */
  ldapCheckMs?: number;
  /** How /minio/v2/metrics/* authenticates, as MINIO_PROMETHEUS_AUTH_TYPE: "jwt" (default) or "public". */
  prometheusAuthType?: PrometheusAuthType;
  /**
   * MinIO's certificate directory: `public.crt` and `private.key` (PEM) make the listener HTTPS only. `public.crt`
   * and the certificates in `CAs/` are trusted, besides the system's, by the console calling the storage and by
   * every call the storage makes itself (replication targets, tiers, webhooks, OpenID), as MinIO trusts them.
   */
  certsDir?: string;
  /** Header, idle and body-progress timeouts of the listener (DEFAULT_LISTENER_TIMEOUTS when omitted). */
  timeouts?: ListenerTimeouts;
  /** Lifecycle scan interval, day length and pacing (lifecycle/mod.ts DEFAULT_LIFECYCLE when omitted). */
  lifecycle?: LifecycleSettings;
  /**
   * MINIO_KMS_SECRET_KEY, `<key-name>:<base64 of 32 bytes>`: the key store of SSE-S3 and SSE-KMS. Absent:
   * those are refused as MinIO refuses them without a KMS (SSE-C still works).
   */
  kmsSecretKey?: string;
}

export interface EmbeddedStorage {
  /** Origin such as http://127.0.0.1:9000 (https:// with a certificate). */
  url: string;
  root: { accessKey: string; secretKey: string };
  /** Whether this start generated the root credentials. */
  generatedRoot: boolean;
  handler: (request: Request, info?: Deno.ServeHandlerInfo) => Promise<Response>;
  /** Live streams of requests, bucket events and log entries (trace, metrics, audit, notifications listen here). */
  streams: StorageStreams;
  /** Delivery of bucket events to the configured notification targets (counters, status). */
  notifier: Notifier;
  /** The Prometheus endpoints; `metrics.close()` stops their counting (the benchmarks compare with it off). */
  metrics: MetricsEndpoint;
  /** The lifecycle scanner (its counters; `scan()` runs one pass now). */
  lifecycle: LifecycleScanner;
  /** The disk store (in-process use: tests reach its per-key locks). */
  store: Store;
  close(): Promise<void>;
}

interface DeckState {
  deploymentId: string;
}

async function rootCredentials(
  dataDir: string,
  options: EmbeddedStorageOptions,
): Promise<{ accessKey: string; secretKey: string; generated: boolean }> {
  if (options.rootUser && options.rootPassword) {
    return { accessKey: options.rootUser, secretKey: options.rootPassword, generated: false };
  }
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
  // A malformed key stops the start, as it stops MinIO's.
  const keys = options.kmsSecretKey ? KeyStore.parse(options.kmsSecretKey) : null;
  // Every outgoing call trusts the certificate directory's certificates besides the system's, read once here
  // (before anything is opened: a directory that cannot be read leaves nothing behind).
  const caCerts = options.certsDir
    ? await readCertsDirTrust(options.certsDir, "the storage's certs dir")
    : [];
  const dataDir = await Deno.realPath(
    await Deno.mkdir(options.dataDir, { recursive: true, mode: 0o700 }).then(() => options.dataDir),
  );
  // Before anything in the directory is opened: a newer format is refused untouched.
  await openDataFormat(dataDir);
  const store = await Store.open(dataDir);
  setKeyStore(store, keys);
  const root = await rootCredentials(dataDir, options);
  const state = await deckState(dataDir);
  const outgoingFetch = fetchTrusting(caCerts);
  // Sends versions to replication targets; queues again at start what was not replicated yet.
  const replicator = await Replicator.start({ store, deckDir: `${dataDir}/.deck`, fetch: outgoingFetch });
  const streams = createStorageStreams();
  // Trace hooks: calls into the store and its file-system calls, published only while a trace wants them.
  store.calls = streams.storageCalls;
  const stopOsCalls = registerOsCalls(dataDir, streams.osCalls);
  const notifier = new Notifier({
    store,
    events: streams.events,
    log: streams.log,
    deploymentId: state.deploymentId,
    caCerts,
  });
  const logHistory = new LogHistory(streams.log);
  // Heal's removals are audited through the audit targets, which start further down.
  let auditInternal: (event: InternalAuditEvent) => void = () => {};
  const heal = new HealSequences(
    store,
    { uuid: state.deploymentId, endpoint: dataDir },
    options.now,
    (event) => auditInternal(event),
  );
  // Lifecycle and tiers (lifecycle/mod.ts); the region is read from the identity side once it exists.
  const lifecycle = await openLifecycle({
    store,
    dataDir,
    deploymentId: state.deploymentId,
    streams,
    region: () => identity.facts.region(),
    settings: options.lifecycle,
    now: options.now,
    log: options.log,
    fetch: outgoingFetch,
  });
  const identity = await createIdentity({
    dataDir,
    tiers: lifecycle.tiers,
    root,
    store: storeFacts(store, state.deploymentId),
    now: options.now,
    fetch: outgoingFetch,
    reportedBackend: options.reportedBackend,
    ldapCheckMs: options.ldapCheckMs,
    caCerts,
    applyConfig: (tree) => notifier.apply(tree),
    notificationStatus: () => notifier.status(),
    live: { streams, logHistory, heal },
  });
  const metrics = createMetricsEndpoint({
    store,
    authority: identity.authority,
    requests: streams.requests,
    authType: options.prometheusAuthType ?? "jwt",
    version: EMBEDDED_VERSION,
    now: options.now,
    extraFamilies: lifecycle.families,
  });
  lifecycle.scanner.start();
  const loggers = new WebhookLoggers(identity.config, streams, { deploymentId: state.deploymentId, caCerts });
  auditInternal = (event) => loggers.auditInternal(event);
  const handler = createS3Server({
    store,
    authority: identity.authority,
    facts: identity.facts,
    admin: identity.admin,
    sts: identity.sts,
    domain: options.domain,
    now: options.now,
    streams,
    deploymentId: state.deploymentId,
    metrics,
    forwardingKey: await forwardingKey(root),
  });
  const close = async () => {
    await lifecycle.scanner.close();
    closeStorageStreams(streams);
    metrics.close();
    await loggers.close();
    await notifier.close();
    heal.close();
    logHistory.stop();
    await identity.close();
    await replicator.close();
    stopOsCalls();
    store.close();
    outgoingFetch.close();
  };
  return {
    handler,
    root,
    identity,
    store,
    dataDir,
    streams,
    notifier,
    metrics,
    lifecycle,
    close,
    loggers,
    deploymentId: state.deploymentId,
  };
}

/** The certificate and key of a MinIO certificate directory; a missing or unreadable file stops the start. */
async function readCertificate(certsDir: string): Promise<{ cert: string; key: string }> {
  const read = async (name: string) => {
    const file = `${certsDir.replace(/\/+$/, "")}/${name}`;
    try {
      return await Deno.readTextFile(file);
    } catch (error) {
      throw new Error(`cannot read the storage's TLS ${name} (${file}): ${(error as Error).message}`);
    }
  };
  return { cert: await read("public.crt"), key: await read("private.key") };
}

/** Starts the server on its own listener (HTTPS when `certsDir` is given). */
export async function startEmbeddedStorage(options: EmbeddedStorageOptions): Promise<EmbeddedStorage> {
  // Read first: a certificate that cannot be had must leave nothing opened behind.
  const tls = options.certsDir ? await readCertificate(options.certsDir) : null;
  const opened = await openEmbeddedStorage(options);
  const server = await listen({
    hostname: options.hostname ?? "127.0.0.1",
    port: options.port ?? 9000,
    tls,
    timeouts: options.timeouts ?? DEFAULT_LISTENER_TIMEOUTS,
    // "100 Continue" only once a request is authenticated (s3_server.ts), as MinIO answers it.
    deferContinue: true,
  }, opened.handler).catch(async (error) => {
    await opened.close(); // its address is taken: nothing may be left running
    throw error;
  });
  const address = server.addr as Deno.NetAddr;
  const scheme = tls ? "https" : "http";
  const host = address.hostname.includes(":") ? `[${address.hostname}]` : address.hostname;
  opened.metrics.setServerName(`${host}:${address.port}`);
  options.log?.info("embedded storage listening", {
    address: `${host}:${address.port}`,
    dataDir: opened.dataDir,
  });
  opened.streams.log.publish({
    deploymentid: opened.deploymentId,
    level: "INFO",
    time: new Date().toISOString(),
    message: `API: ${scheme}://${host}:${address.port}  (embedded storage, data in ${opened.dataDir})`,
  });
  return {
    url: `${scheme}://${host === "0.0.0.0" ? "127.0.0.1" : host}:${address.port}`,
    root: { accessKey: opened.root.accessKey, secretKey: opened.root.secretKey },
    generatedRoot: opened.root.generated,
    handler: opened.handler,
    streams: opened.streams,
    notifier: opened.notifier,
    metrics: opened.metrics,
    lifecycle: opened.lifecycle.scanner,
    store: opened.store,
    close: async () => {
      // Live streams (trace, log, listen) never end on their own: end them so the shutdown can finish.
      closeStorageStreams(opened.streams);
      await server.shutdown();
      await opened.close();
    },
  };
}
