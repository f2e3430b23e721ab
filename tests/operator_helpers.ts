/**
 * Operator-mode test harness: the stand-in Kubernetes API server (build/k8s_standin) and the real console in
 * operator mode talking to it over HTTPS, each on a free port; plus operator sign-in and scenario tables
 * with an RBAC matrix (no session, a token without rights, a namespace-limited token, the operator).
 */
import assert from "node:assert/strict";
import { loadConfig } from "../server/console/config/config.ts";
import type { AppDeps } from "../server/console/deps.ts";
import { silentLogger } from "../server/lib/http/log.ts";
import { startDeck } from "../server/start/deck.ts";
import { ConsoleClient } from "./helpers.ts";
import { type Standin, startStandin } from "../build/k8s_standin/mod.ts";

export interface OperatorStack {
  consoleUrl: string;
  cluster: Standin;
  /** Deck's data directory (the console keeps the licence there). */
  dataDir: string;
  deps: AppDeps;
  close(): Promise<void>;
}

export async function startOperatorStack(
  options: {
    seedTenant?: boolean;
    backTenants?: boolean;
    env?: Record<string, string>;
    licensePublicKeyFile?: string;
  } = {},
): Promise<OperatorStack> {
  const cluster = await startStandin({
    seedTenant: options.seedTenant ?? true,
    backTenants: options.backTenants,
  });
  const dataDir = await Deno.makeTempDir({ prefix: "deck-operator-" });
  const deck = await startDeck(
    loadConfig({
      CONSOLE_LOG_LEVEL: "error",
      CONSOLE_HOSTNAME: "127.0.0.1",
      CONSOLE_PORT: "0",
      CONSOLE_DATA_DIR: dataDir,
      CONSOLE_OPERATOR_MODE: "on",
      CONSOLE_K8S_API_SERVER: cluster.url,
      CONSOLE_K8S_API_SERVER_TLS_ROOT_CA: cluster.caFile,
      CONSOLE_K8S_SERVICE_ACCESS: "cluster-ip",
      CONSOLE_OPERATOR_SA_TOKEN: cluster.operatorToken,
      ...(options.licensePublicKeyFile
        ? { CONSOLE_SUBNET_PUBLIC_KEY_FILE: options.licensePublicKeyFile }
        : {}),
      ...(options.env ?? {}),
    }),
    { log: silentLogger },
  ).catch(async (error) => {
    await cluster.close();
    throw error;
  });
  return {
    consoleUrl: `http://127.0.0.1:${deck.addr.port}`,
    cluster,
    dataDir,
    deps: deck.deps,
    close: async () => {
      await deck.close();
      await cluster.close();
      await Deno.remove(dataDir, { recursive: true }).catch(() => {});
    },
  };
}

/** Signs in with a service-account token through the console's API. */
export async function signInOperator(stack: OperatorStack, token: string): Promise<ConsoleClient> {
  const client = new ConsoleClient(stack.consoleUrl);
  const res = await client.request("POST", "/api/v1/login/operator", { jwt: token });
  const text = await res.text();
  assert.equal(res.status, 201, `operator sign-in failed: ${text}`);
  return client;
}

export interface OperatorScenario {
  name: string;
  /** none: no session; nobody: a token without rights; viewer: read rights in tenant-lite only. */
  as: "none" | "nobody" | "viewer" | "operator";
  method: string;
  path: string;
  body?: unknown;
  status: number;
  check?: (body: unknown) => void | Promise<void>;
}

/** Runs an RBAC-matrix scenario table as test steps. */
export async function runOperatorScenarios(
  t: Deno.TestContext,
  stack: OperatorStack,
  scenarios: OperatorScenario[],
): Promise<void> {
  const clients = new Map<OperatorScenario["as"], ConsoleClient>([[
    "none",
    new ConsoleClient(stack.consoleUrl),
  ]]);
  const tokens = {
    nobody: stack.cluster.nobodyToken,
    viewer: stack.cluster.viewerToken,
    operator: stack.cluster.operatorToken,
  };
  for (const scenario of scenarios) {
    await t.step(`${scenario.method} ${scenario.path}: ${scenario.name}`, async () => {
      if (!clients.has(scenario.as)) {
        clients.set(scenario.as, await signInOperator(stack, tokens[scenario.as as keyof typeof tokens]));
      }
      const res = await clients.get(scenario.as)!.request(scenario.method, scenario.path, scenario.body);
      const text = await res.text();
      assert.equal(res.status, scenario.status, `${scenario.method} ${scenario.path}: ${text}`);
      const body = text ? JSON.parse(text) : null;
      if (res.status >= 400) {
        assert.equal(typeof body.message, "string", "error bodies carry {code, message, detailedMessage}");
        assert.equal(typeof body.detailedMessage, "string");
      }
      await scenario.check?.(body);
    });
  }
}
