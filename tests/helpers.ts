/**
 * Test harness: a real embedded storage server and the real console, each on its own port-0 listener,
 * talking over HTTP exactly as in production. Also sign-in helpers, users with policies, and a scenario
 * runner for API auth matrices.
 */
import assert from "node:assert/strict";
import { loadConfig } from "../server/console/config/config.ts";
import type { AppDeps } from "../server/console/deps.ts";
import { silentLogger } from "../server/lib/http/log.ts";
import { S3Client } from "../server/lib/s3/client.ts";
import { addCannedPolicy, addUser, setPolicy } from "../server/lib/s3/admin/iam.ts";
import { type EmbeddedStorage, startEmbeddedStorage } from "../server/storage/server.ts";
import { startDeck } from "../server/start/deck.ts";
import { apiAreas, createApp } from "../server/console/app/app.ts";
import { operatorApiAreas } from "../server/console/app/operator_mode.ts";
import type { LazyArea } from "../server/console/http/lazy_areas.ts";
import type { AppEnv } from "../server/console/session/env.ts";
import { pageAreas } from "../routes/mod.tsx";

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
  /** Points the console at this address instead of the storage (a pacing proxy, or one that is down). */
  storageUrl?: string;
  /** What the embedded server reports itself as ("fs": a non-distributed, single-drive server). */
  reportedBackend?: "erasure" | "fs";
  /** Start the built-in audit log search (SQLite in the data dir) and point the storage's audit at it. */
  logSearch?: boolean;
  /** Interval of the on-box metrics sampler (default 15 s). */
  metricsIntervalMs?: number;
  /** Sets CONSOLE_STORAGE_PUBLIC_URL to the embedded server's address (browsers send parts straight to it). */
  publicStorage?: boolean;
  /** Job tuning (concurrency, the multipart copy threshold and part size). */
  jobs?: { concurrency?: number; multipartAbove?: number; partSize?: number };
  /** How often the storage checks directory sessions against the directory (60 s by default). */
  ldapCheckMs?: number;
}

/** A MINIO_KMS_SECRET_KEY for tests whose storage encrypts with SSE-S3 / SSE-KMS. */
export const TEST_KMS_KEY = `deck-test-key:${new Uint8Array(32).fill(7).toBase64()}`;

/**
 * Starts Deck as production does (server/start/deck.ts) on free ports of 127.0.0.1, in a fresh data directory,
 * with the embedded storage in this process (tests reach its streams, notifier and store). Close it at the end
 * of the test.
 */
export async function startStack(options: StackOptions = {}): Promise<TestStack> {
  const dataDir = await Deno.makeTempDir({ prefix: "deck-test-" });
  const settings = {
    CONSOLE_LOG_LEVEL: "error",
    CONSOLE_HOSTNAME: "127.0.0.1",
    CONSOLE_PORT: "0",
    CONSOLE_STORAGE_ADDRESS: "127.0.0.1:0",
    CONSOLE_DATA_DIR: dataDir,
    CONSOLE_LOG_SEARCH: options.logSearch ? "on" : "off",
    CONSOLE_LOG_SEARCH_RETENTION: "0",
    ...(options.env ?? {}),
  };
  let storage: EmbeddedStorage | undefined;
  const deck = await startDeck(loadConfig(settings), {
    log: silentLogger,
    runStorage: async (storageOptions) =>
      storage = await startEmbeddedStorage({
        ...storageOptions,
        reportedBackend: options.reportedBackend,
        ldapCheckMs: options.ldapCheckMs,
      }),
    metricsSampleMs: options.metricsIntervalMs,
    jobs: options.jobs,
    adjustDeps: (deps) => ({
      ...deps,
      // The storage's address is known once it listens: a test asking for a public storage address gets it.
      config: options.publicStorage
        ? loadConfig({ ...settings, CONSOLE_STORAGE_PUBLIC_URL: deps.storage.url })
        : deps.config,
      storage: options.storageUrl ? { ...deps.storage, url: options.storageUrl } : deps.storage,
    }),
  }).catch(async (error) => {
    await Deno.remove(dataDir, { recursive: true }).catch(() => {});
    throw error;
  });
  return {
    consoleUrl: `http://127.0.0.1:${deck.addr.port}`,
    storage: storage!,
    dataDir,
    admin: new S3Client({ endpoint: storage!.url, credentials: storage!.root }),
    deps: deck.deps,
    close: async () => {
      await deck.close();
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
  /** Extra request headers (Accept-Language for a scenario in another language). */
  headers?: Record<string, string>;
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
        scenario.headers,
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

/**
 * Every route the console serves, with its full path: the app's own and every page and API area's (which
 * the app loads only with their first request; loaded here), for tests that try each route.
 */
export async function consoleRoutes(deps: AppDeps): Promise<{ method: string; path: string }[]> {
  const routesOf = async (mount: string, areas: LazyArea<AppEnv>[]) =>
    (await Promise.all(areas.map((area) => area.load()))).flatMap((app) =>
      app.routes.map((route) => ({ method: route.method, path: mount + route.path }))
    );
  return [
    ...createApp(deps).routes.map(({ method, path }) => ({ method, path })),
    ...await routesOf("/api/v1", deps.operator ? operatorApiAreas(deps) : apiAreas(deps)),
    ...await routesOf("", pageAreas(deps)),
  ];
}
