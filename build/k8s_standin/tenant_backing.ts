/**
 * What stands behind a Tenant in the stand-in cluster: a real Deck embedded storage server (MinIO's part) and
 * a real Deck console in console mode talking to it over the wire (MinIO's embedded console), each on its
 * own free port of 127.0.0.1. The tenant's Services point at these ports, so the operator console's details,
 * usage, health and hop proxy run over the real protocols.
 */
import { createMetricsService } from "../../server/console/metrics/mod.ts";
import { prometheusBearerToken } from "../../server/lib/s3/prometheus_token.ts";
import { LicenseStore } from "../../server/console/services/license.ts";
import { createApp, createFetchHandler } from "../../server/console/app.ts";
import { loadConfig } from "../../server/console/config.ts";
import type { AppDeps } from "../../server/console/deps.ts";
import { createLogger, type Logger, silentLogger } from "../../server/lib/http/log.ts";
import { createPageRenderer } from "../../server/console/render/page.tsx";
import { addUser, setPolicy } from "../../server/lib/s3/admin/iam.ts";
import { S3Client } from "../../server/lib/s3/client.ts";
import { LoginThrottle } from "../../server/console/session/login_throttle.ts";
import { createSessionKey } from "../../server/console/session/token.ts";
import { type EmbeddedStorage, startEmbeddedStorage } from "../../server/storage/server.ts";

export interface TenantBacking {
  storage: EmbeddedStorage;
  storagePort: number;
  consolePort: number;
  /** Log lines of the storage server, as its pods would print them. */
  logLines: string[];
  close(): Promise<void>;
}

/** Keeps the last lines a server logged, formatted like MinIO's console output. */
function capturingLogger(lines: string[]): Logger {
  return createLogger("info", (line) => {
    try {
      const entry = JSON.parse(line);
      const { time: _t, level, message, ...fields } = entry;
      const detail = Object.entries(fields).map(([k, v]) =>
        `${k}=${typeof v === "string" ? v : JSON.stringify(v)}`
      ).join(" ");
      lines.push(
        `${level === "error" ? "\u001b[31mERROR\u001b[0m " : ""}${message}${detail ? ` ${detail}` : ""}`,
      );
    } catch {
      lines.push(line);
    }
    if (lines.length > 500) lines.splice(0, lines.length - 500);
  });
}

export async function startTenantBacking(options: {
  root: { accessKey: string; secretKey: string };
  /** Console users of the tenant (spec.users secrets), made consoleAdmin as the operator does. */
  users: { accessKey: string; secretKey: string }[];
}): Promise<TenantBacking> {
  const dataDir = await Deno.makeTempDir({ prefix: "deck-tenant-" });
  const logLines: string[] = [];
  const storage = await startEmbeddedStorage({
    dataDir,
    hostname: "127.0.0.1",
    port: 0,
    rootUser: options.root.accessKey,
    rootPassword: options.root.secretKey,
    log: capturingLogger(logLines),
  });
  const admin = new S3Client({ endpoint: storage.url, credentials: storage.root });
  for (const user of options.users) {
    await addUser(admin, user.accessKey, user.secretKey);
    await setPolicy(admin, ["consoleAdmin"], user.accessKey, false);
  }
  const config = loadConfig({ CONSOLE_LOG_LEVEL: "error", CONSOLE_MINIO_SERVER: storage.url });
  const metricsToken = prometheusBearerToken(storage.root);
  const metrics = createMetricsService({
    config,
    storageUrl: storage.url,
    storageToken: () => metricsToken,
    fetch: globalThis.fetch,
    log: silentLogger,
    historyFile: null,
  });
  await metrics.start();
  const deps: AppDeps = {
    config,
    log: createLogger("error", () => {}),
    render: createPageRenderer({ subpath: "/" }),
    storage: { url: storage.url, region: "" },
    fetch: globalThis.fetch,
    now: Date.now,
    sessionKey: await createSessionKey(null),
    loginThrottle: new LoginThrottle(),
    metrics,
    license: new LicenseStore({
      configured: "",
      publicKeyFile: "",
      file: `${dataDir}/.deck/subnet-license`,
      now: Date.now,
    }),
  };
  const console_ = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    createFetchHandler(createApp(deps), "/"),
  );
  return {
    storage,
    storagePort: Number(new URL(storage.url).port),
    consolePort: (console_.addr as Deno.NetAddr).port,
    logLines,
    close: async () => {
      await console_.shutdown();
      await metrics.close();
      await storage.close();
      await Deno.remove(dataDir, { recursive: true }).catch(() => {});
    },
  };
}
