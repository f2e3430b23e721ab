/**
 * Starting the built-in audit log search and pointing the embedded storage at it, as MinIO Operator does for a
 * tenant (an `audit_webhook` target whose endpoint carries the ingest token). Done over the wire with the
 * storage's admin API; the log search and the storage know nothing of each other or of the console.
 */
import type { AppConfig } from "../console/config/config.ts";
import { SETTINGS } from "../console/config/settings.ts";
import type { ListenerTimeouts } from "../lib/http/listener.ts";
import type { LogSearchEndpoint } from "../console/config/endpoints.ts";
import { type LogSearchServer, startLogSearch } from "../logsearch/server.ts";
import { delConfigKV, setConfigKV } from "../lib/s3/admin/config_kv.ts";
import { S3Client } from "../lib/s3/client.ts";
import { naming } from "./start_error.ts";

type StorageRoot = { url: string; root: { accessKey: string; secretKey: string } };

/** The Audit Logs source the console queries, what to tell the person starting Deck, and how to stop it. */
export interface AuditSearch {
  endpoint: LogSearchEndpoint | null;
  notices: string[];
  /**
   * Settles once the storage sends its audit records here (its config written durably, which takes a while):
   * the console may listen meanwhile, and a start whose connection fails still fails.
   */
  connected: Promise<void>;
  close(): Promise<void>;
}

/**
 * The Audit Logs source: an external log search, or the built-in one, fed by the embedded storage when Deck
 * runs one (an external MinIO must be pointed at it by hand: the notice says how).
 */
export async function startAuditSearch(
  config: AppConfig,
  embedded: StorageRoot | null,
  storageFetch: typeof fetch = globalThis.fetch,
): Promise<AuditSearch> {
  const none = { notices: [], connected: Promise.resolve(), close: () => Promise.resolve() };
  if (!config.logSearch.builtin) {
    // Nothing keeps posting to an endpoint that is gone.
    if (embedded) await disconnectStorageAudit(embedded, storageFetch);
    const { queryUrl, queryToken } = config.logSearch;
    return {
      ...none,
      endpoint: queryUrl ? { url: queryUrl, token: queryToken, fetch: globalThis.fetch } : null,
    };
  }
  if (config.operator) return { ...none, endpoint: null };
  const builtin = await startBuiltinLogSearch(config.logSearch.builtin, config.dataDir, config.timeouts)
    .catch(naming(SETTINGS.logSearchAddress.env));
  const { url, ingestUrl } = builtin.server;
  const connected = embedded ? connectStorageAudit(embedded, ingestUrl, storageFetch) : Promise.resolve();
  connected.catch(() => {}); // the caller awaits it, after its listener is up
  return {
    connected,
    endpoint: builtin.endpoint,
    notices: [
      embedded
        ? `Audit log search at ${url} receives the embedded storage's audit records`
        : `Audit log search at ${url}: point the storage's audit_webhook at ${url}/api/ingest?token=<CONSOLE_LOG_SEARCH_AUDIT_TOKEN>`,
    ],
    close: () => builtin.close(),
  };
}

/** The audit_webhook target name Deck uses for its own log search. */
export const AUDIT_TARGET = "deck-logsearch";

const randomToken = () =>
  crypto.getRandomValues(new Uint8Array(24)).toBase64({ alphabet: "base64url", omitPadding: true });

export interface BuiltinLogSearch {
  server: LogSearchServer;
  endpoint: LogSearchEndpoint;
  close(): Promise<void>;
}

/**
 * Starts the built-in service (SQLite under the data directory unless a database URL is set), its listener
 * with the console's timeouts. Rejects with a ListenError when its address is taken.
 */
export async function startBuiltinLogSearch(
  settings: NonNullable<AppConfig["logSearch"]["builtin"]>,
  dataDir: string,
  timeouts?: ListenerTimeouts,
): Promise<BuiltinLogSearch> {
  const queryToken = randomToken();
  const server = await startLogSearch({
    databaseUrl: settings.databaseUrl,
    sqlitePath: `${dataDir.replace(/\/+$/, "")}/logsearch/audit.sqlite`,
    hostname: settings.address.hostname,
    port: settings.address.port,
    auditToken: settings.auditToken || randomToken(),
    queryToken,
    retentionMs: settings.retentionSeconds * 1000,
    timeouts,
  });
  // The console queries in-process: the same handler, no socket.
  const inProcess: typeof fetch = (input, init) => server.service.fetch(new Request(input, init));
  return {
    server,
    endpoint: { url: server.url, token: queryToken, fetch: inProcess },
    close: () => server.close(),
  };
}

/** Makes the storage send its audit records to the log search (replacing an earlier endpoint). */
async function connectStorageAudit(
  storage: StorageRoot,
  ingestUrl: string,
  fetchImpl: typeof fetch,
): Promise<void> {
  const admin = new S3Client({ endpoint: storage.url, credentials: storage.root, fetch: fetchImpl });
  // Batches of up to 100 entries (NDJSON, which the built-in service takes): one POST per request would bound
  // how many requests a second the storage can audit.
  await setConfigKV(admin, `audit_webhook:${AUDIT_TARGET} enable=on endpoint=${ingestUrl} batch_size=100`);
}

/** Removes Deck's own audit target (the built-in log search is off): nothing keeps posting to a dead endpoint. */
async function disconnectStorageAudit(storage: StorageRoot, fetchImpl: typeof fetch): Promise<void> {
  const admin = new S3Client({ endpoint: storage.url, credentials: storage.root, fetch: fetchImpl });
  await delConfigKV(admin, `audit_webhook:${AUDIT_TARGET}`).catch(() => {}); // absent: nothing to remove
}
