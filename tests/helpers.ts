/**
 * Test harness: a real embedded storage server and the real console, each on its own port-0 listener,
 * talking over HTTP exactly as in production. Also sign-in helpers, users with policies, and a scenario
 * runner for API auth matrices.
 */
import assert from "node:assert/strict";
import { createApp, createFetchHandler } from "../server/console/app.ts";
import { listen } from "../server/lib/http/listener.ts";
import { loadConfig } from "../server/console/config.ts";
import type { AppDeps } from "../server/console/deps.ts";
import { silentLogger } from "../server/lib/http/log.ts";
import { createPageRenderer } from "../server/console/render/page.tsx";
import { S3Client } from "../server/lib/s3/client.ts";
import { addCannedPolicy, addUser, setPolicy } from "../server/lib/s3/admin/iam.ts";
import { LoginThrottle } from "../server/console/session/login_throttle.ts";
import { createSessionKey } from "../server/console/session/token.ts";
import { type EmbeddedStorage, startEmbeddedStorage } from "../server/storage/server.ts";
import { connectStorageAudit, startBuiltinLogSearch } from "../server/start/log_search.ts";
import { createMetricsService } from "../server/console/metrics/mod.ts";
import { prometheusBearerToken } from "../server/lib/s3/prometheus_token.ts";
import { forwardingKey } from "../server/lib/s3/forwarded_client.ts";
import { LicenseStore } from "../server/console/services/license.ts";

export interface TestStack {
  consoleUrl: string;
  storage: EmbeddedStorage;
  dataDir: string;
  /** Root S3/admin client, for seeding data over the wire. */
  admin: S3Client;
  deps: AppDeps;
  close(): Promise<void>;
}

export interface StackOptions {
  env?: Record<string, string>;
  /** Wraps the storage URL's fetch, e.g. to make the storage unreachable. */
  storageUrl?: string;
  /** What the embedded server reports itself as ("fs": a non-distributed, single-drive server). */
  reportedBackend?: "erasure" | "fs";
  /** Start the built-in audit log search (SQLite in the data dir) and point the storage's audit at it. */
  logSearch?: boolean;
  /** Interval of the on-box metrics sampler (default 15 s). */
  metricsIntervalMs?: number;
  /** Sets CONSOLE_STORAGE_PUBLIC_URL to the embedded server's address (browsers send parts straight to it). */
  publicStorage?: boolean;
}

/** A MINIO_KMS_SECRET_KEY for tests whose storage encrypts with SSE-S3 / SSE-KMS. */
export const TEST_KMS_KEY = `deck-test-key:${new Uint8Array(32).fill(7).toBase64()}`;

/** Starts embedded storage + console in this process on free ports. Close it at the end of the test. */
export async function startStack(options: StackOptions = {}): Promise<TestStack> {
  const dataDir = await Deno.makeTempDir({ prefix: "deck-test-" });
  const startConfig = loadConfig({ CONSOLE_LOG_LEVEL: "error", ...(options.env ?? {}) });
  const storage = await startEmbeddedStorage({
    dataDir,
    hostname: "127.0.0.1",
    port: 0,
    reportedBackend: options.reportedBackend,
    prometheusAuthType: startConfig.storagePrometheusAuth,
    timeouts: startConfig.timeouts,
    lifecycle: startConfig.lifecycle,
    kmsSecretKey: startConfig.kmsSecretKey || undefined,
  });
  // The storage's address is known once it listens: a test asking for a public storage address gets it.
  const config = options.publicStorage
    ? loadConfig({
      CONSOLE_LOG_LEVEL: "error",
      CONSOLE_STORAGE_PUBLIC_URL: storage.url,
      ...(options.env ?? {}),
    })
    : startConfig;
  const metricsToken = prometheusBearerToken(storage.root);
  const metrics = createMetricsService({
    config,
    storageUrl: storage.url,
    storageToken: () => metricsToken,
    fetch: globalThis.fetch,
    log: silentLogger,
    historyFile: null,
    sampleIntervalMs: options.metricsIntervalMs,
  });
  await metrics.start();
  const deps: AppDeps = {
    config,
    log: silentLogger,
    render: createPageRenderer({ subpath: config.subpath }),
    storage: {
      url: options.storageUrl ?? storage.url,
      region: "",
      embedded: !options.storageUrl,
      forwardingKey: await forwardingKey(storage.root),
    },
    fetch: globalThis.fetch,
    now: Date.now,
    sessionKey: await createSessionKey(null),
    loginThrottle: new LoginThrottle(),
    metrics,
    license: new LicenseStore({
      configured: config.subnetLicense,
      publicKeyFile: config.subnetPublicKeyFile,
      file: `${dataDir}/.deck/subnet-license`,
      now: Date.now,
    }),
  };
  const logSearch = options.logSearch
    ? await startBuiltinLogSearch({
      databaseUrl: "",
      address: { hostname: "127.0.0.1", port: 0 },
      auditToken: "",
      retentionSeconds: 0,
    }, dataDir)
    : null;
  if (logSearch) {
    deps.logSearch = logSearch.endpoint;
    await connectStorageAudit(storage, logSearch.server.ingestUrl);
  }
  // The production listener, with the configured timeouts (server/lib/http/listener.ts).
  const server = await listen(
    { hostname: "127.0.0.1", port: 0, timeouts: config.timeouts },
    createFetchHandler(createApp(deps), config.subpath),
  );
  const consoleUrl = `http://127.0.0.1:${server.addr.port}`;
  return {
    consoleUrl,
    storage,
    dataDir,
    admin: new S3Client({ endpoint: storage.url, credentials: storage.root }),
    deps,
    close: async () => {
      await server.shutdown();
      await metrics.close();
      await storage.close();
      await logSearch?.close();
      await Deno.remove(dataDir, { recursive: true }).catch(() => {});
    },
  };
}

/** A browser-like client of the console: keeps the session cookie and sends a same-origin Origin header. */
export class ConsoleClient {
  cookie = "";
  constructor(readonly baseUrl: string) {}

  async request(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Response> {
    const res = await fetch(this.baseUrl + path, {
      method,
      headers: {
        ...(body !== undefined ? { "content-type": "application/json" } : {}),
        ...(this.cookie ? { cookie: this.cookie } : {}),
        origin: this.baseUrl,
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
      redirect: "manual",
    });
    const setCookie = res.headers.get("set-cookie");
    if (setCookie) {
      const match = /^token=([^;]*)/.exec(setCookie);
      if (match) this.cookie = match[1] ? `token=${match[1]}` : "";
    }
    return res;
  }

  /** Sends and parses JSON, asserting the status. */
  async json<T = unknown>(method: string, path: string, body?: unknown, expectStatus?: number): Promise<T> {
    const res = await this.request(method, path, body);
    const text = await res.text();
    if (expectStatus !== undefined) assert.equal(res.status, expectStatus, `${method} ${path}: ${text}`);
    return (text ? JSON.parse(text) : null) as T;
  }
}

/** Signs in through the console's API and returns the client holding the session cookie. */
export async function signIn(stack: TestStack, accessKey: string, secretKey: string): Promise<ConsoleClient> {
  const client = new ConsoleClient(stack.consoleUrl);
  const res = await client.request("POST", "/api/v1/login", { accessKey, secretKey });
  const text = await res.text();
  assert.equal(res.status, 201, `sign-in as ${accessKey} failed: ${text}`);
  return client;
}

export const signInAsRoot = (stack: TestStack) =>
  signIn(stack, stack.storage.root.accessKey, stack.storage.root.secretKey);

/** Creates a user with a custom inline-named policy (or canned policy names) through the admin API. */
export async function createUser(
  stack: TestStack,
  accessKey: string,
  secretKey: string,
  policy: { name: string; document?: unknown }[] = [],
): Promise<void> {
  await addUser(stack.admin, accessKey, secretKey);
  for (const p of policy) {
    if (p.document) await addCannedPolicy(stack.admin, p.name, JSON.stringify(p.document));
  }
  if (policy.length) await setPolicy(stack.admin, policy.map((p) => p.name), accessKey, false);
}

/** A policy that allows only listing one bucket's objects: enough to sign in, not to administer. */
export const NARROW_POLICY = {
  name: "narrow",
  document: {
    Version: "2012-10-17",
    Statement: [{
      Effect: "Allow",
      Action: ["s3:GetObject", "s3:ListBucket"],
      Resource: ["arn:aws:s3:::shared", "arn:aws:s3:::shared/*"],
    }],
  },
};

export interface Scenario {
  name: string;
  /** Who calls: no session, root, or a user created with the narrow policy. */
  as: "none" | "root" | "narrow";
  /** Calls as this signed-in client instead (another identity the test created); `as` is then ignored. */
  client?: ConsoleClient;
  method: string;
  path: string;
  body?: unknown;
  status: number;
  check?: (body: unknown) => void | Promise<void>;
}

/** Runs an auth-matrix scenario table against one stack as Deno test steps. */
export async function runScenarios(
  t: Deno.TestContext,
  stack: TestStack,
  scenarios: Scenario[],
): Promise<void> {
  const clients: Partial<Record<Scenario["as"], ConsoleClient>> = {
    none: new ConsoleClient(stack.consoleUrl),
  };
  for (const scenario of scenarios) {
    await t.step(`${scenario.method} ${scenario.path}: ${scenario.name}`, async () => {
      if (!scenario.client && !clients[scenario.as]) {
        if (scenario.as === "root") clients.root = await signInAsRoot(stack);
        else {
          await createUser(stack, "narrow-user", "narrow-secret-1", [NARROW_POLICY]);
          clients.narrow = await signIn(stack, "narrow-user", "narrow-secret-1");
        }
      }
      const res = await (scenario.client ?? clients[scenario.as]!).request(
        scenario.method,
        scenario.path,
        scenario.body,
      );
      const text = await res.text();
      assert.equal(res.status, scenario.status, text);
      const body = text ? (text.startsWith("{") || text.startsWith("[") ? JSON.parse(text) : text) : null;
      if (res.status >= 400 && res.headers.get("content-type")?.includes("json")) {
        assert.equal(typeof body.message, "string", "error bodies carry {code, message, detailedMessage}");
        assert.equal(typeof body.detailedMessage, "string");
      }
      await scenario.check?.(body);
    });
  }
}
