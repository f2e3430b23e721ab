/**
 * Starting the built-in audit log search and pointing the embedded storage at it, as MinIO Operator does for a
 * tenant (an `audit_webhook` target whose endpoint carries the ingest token). Done over the wire with the
 * storage's admin API; the log search and the storage know nothing of each other or of the console.
 */
import type { AppConfig } from "../console/config.ts";
import type { ListenerTimeouts } from "../lib/http/listener.ts";
import type { LogSearchEndpoint } from "../console/deps.ts";
import { type LogSearchServer, startLogSearch } from "../logsearch/server.ts";
import { delConfigKV, setConfigKV } from "../lib/s3/admin/config_kv.ts";
import { S3Client } from "../lib/s3/client.ts";

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
export async function connectStorageAudit(
  storage: { url: string; root: { accessKey: string; secretKey: string } },
  ingestUrl: string,
): Promise<void> {
  const admin = new S3Client({ endpoint: storage.url, credentials: storage.root });
  // Batches of up to 100 entries (NDJSON, which the built-in service takes): one POST per request would bound
  // how many requests a second the storage can audit.
  await setConfigKV(admin, `audit_webhook:${AUDIT_TARGET} enable=on endpoint=${ingestUrl} batch_size=100`);
}

/** Removes Deck's own audit target (the built-in log search is off): nothing keeps posting to a dead endpoint. */
export async function disconnectStorageAudit(
  storage: { url: string; root: { accessKey: string; secretKey: string } },
): Promise<void> {
  const admin = new S3Client({ endpoint: storage.url, credentials: storage.root });
  await delConfigKV(admin, `audit_webhook:${AUDIT_TARGET}`).catch(() => {}); // absent: nothing to remove
}
