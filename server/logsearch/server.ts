/**
 * Runs the log-search service on its own listener (where MinIO's audit webhooks deliver), over the store a
 * configuration names. The console queries the same service in-process through `service.fetch`. The listener
 * is Deck's own (server/lib/http/listener.ts), with the same header, idle and body timeouts as the console's.
 */
import { DEFAULT_LISTENER_TIMEOUTS, listen, type ListenerTimeouts } from "../lib/http/listener.ts";
import { openAuditStore } from "./store.ts";
import { createLogSearchService, type LogSearchService } from "./service.ts";

/** Retention runs at start and then hourly (the original service's rhythm). */
const RETENTION_EVERY_MS = 3600_000;

export interface LogSearchServerOptions {
  /** PostgreSQL URL; empty for SQLite at `sqlitePath`. */
  databaseUrl: string;
  sqlitePath: string;
  hostname: string;
  /** 0 picks a free port. */
  port: number;
  auditToken: string;
  queryToken: string;
  retentionMs: number;
  /** CONSOLE_HEADER_TIMEOUT and the others (DEFAULT_LISTENER_TIMEOUTS when omitted). */
  timeouts?: ListenerTimeouts;
}

export interface LogSearchServer {
  service: LogSearchService;
  /** Origin of the listener, e.g. http://127.0.0.1:9091. */
  url: string;
  /** The endpoint an audit_webhook target points at (token included). */
  ingestUrl: string;
  close(): Promise<void>;
}

export async function startLogSearch(options: LogSearchServerOptions): Promise<LogSearchServer> {
  if (!options.databaseUrl) {
    await Deno.mkdir(options.sqlitePath.slice(0, options.sqlitePath.lastIndexOf("/")) || ".", {
      recursive: true,
      mode: 0o700,
    });
  }
  const store = await openAuditStore(options);
  const service = createLogSearchService({
    store,
    auditToken: options.auditToken,
    queryToken: options.queryToken,
    retentionMs: options.retentionMs,
  });
  const server = await listen({
    hostname: options.hostname,
    port: options.port,
    timeouts: options.timeouts ?? DEFAULT_LISTENER_TIMEOUTS,
  }, (request) => service.fetch(request)).catch(async (error) => {
    await service.close(); // its address is taken: the store is closed again
    throw error;
  });
  const prune = () => void service.prune().catch(() => {});
  prune();
  const retention = setInterval(prune, RETENTION_EVERY_MS);
  const address = server.addr;
  const host = address.hostname.includes(":")
    ? `[${address.hostname}]`
    : address.hostname === "0.0.0.0"
    ? "127.0.0.1"
    : address.hostname;
  const url = `http://${host}:${address.port}`;
  return {
    service,
    url,
    ingestUrl: `${url}/api/ingest?token=${encodeURIComponent(options.auditToken)}`,
    close: async () => {
      clearInterval(retention);
      await server.shutdown();
      await service.close();
    },
  };
}
