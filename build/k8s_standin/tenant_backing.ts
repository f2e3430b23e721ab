/**
 * What stands behind a Tenant in the stand-in cluster: a real Deck, started as production starts it
 * (server/start/deck.ts): its embedded storage server (MinIO's part) and its console talking to it over the
 * wire (MinIO's embedded console), each on its own free port of 127.0.0.1. The tenant's Services point at
 * these ports, so the operator console's details, usage, health and hop proxy run over the real protocols.
 */
import { loadConfig } from "../../server/console/config/config.ts";
import { createLogger, type Logger, silentLogger } from "../../server/lib/http/log.ts";
import { addUser, setPolicy } from "../../server/lib/s3/admin/iam.ts";
import { S3Client } from "../../server/lib/s3/client.ts";
import { startDeck } from "../../server/start/deck.ts";
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
  let storage: EmbeddedStorage | undefined;
  const deck = await startDeck(
    loadConfig({
      CONSOLE_LOG_LEVEL: "error",
      CONSOLE_HOSTNAME: "127.0.0.1",
      CONSOLE_PORT: "0",
      CONSOLE_STORAGE_ADDRESS: "127.0.0.1:0",
      CONSOLE_DATA_DIR: dataDir,
      CONSOLE_LOG_SEARCH: "off",
      MINIO_ROOT_USER: options.root.accessKey,
      MINIO_ROOT_PASSWORD: options.root.secretKey,
    }),
    {
      log: silentLogger,
      // In this process, so its log lines can be kept for the pods' logs.
      runStorage: async (settings) =>
        storage = await startEmbeddedStorage({ ...settings, log: capturingLogger(logLines) }),
    },
  );
  const admin = new S3Client({ endpoint: storage!.url, credentials: storage!.root });
  for (const user of options.users) {
    await addUser(admin, user.accessKey, user.secretKey);
    await setPolicy(admin, ["consoleAdmin"], user.accessKey, false);
  }
  return {
    storage: storage!,
    storagePort: Number(new URL(storage!.url).port),
    consolePort: deck.addr.port,
    logLines,
    close: async () => {
      await deck.close();
      await Deno.remove(dataDir, { recursive: true }).catch(() => {});
    },
  };
}
