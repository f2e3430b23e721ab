/**
 * Operator-mode test harness: the stand-in Kubernetes API server (build/k8s_standin) and the real console in
 * operator mode talking to it over HTTPS, each on a free port; plus operator sign-in and scenario tables
 * with an RBAC matrix (no session, a token without rights, a namespace-limited token, the operator).
 */
import assert from "node:assert/strict";
import { createApp, createFetchHandler } from "../server/console/app.ts";
import { loadConfig } from "../server/console/config.ts";
import type { AppDeps } from "../server/console/deps.ts";
import { K8sClient } from "../server/console/k8s/client.ts";
import { createMetricsService } from "../server/console/metrics/mod.ts";
import { LicenseStore } from "../server/console/services/license.ts";
import { silentLogger } from "../server/lib/http/log.ts";
import { createPageRenderer } from "../server/console/render/page.tsx";
import { LoginThrottle } from "../server/console/session/login_throttle.ts";
import { createSessionKey } from "../server/console/session/token.ts";
import { ConsoleClient } from "./helpers.ts";
import { type Standin, startStandin } from "../build/k8s_standin/mod.ts";

export interface OperatorStack {
  consoleUrl: string;
  cluster: Standin;
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
  const config = loadConfig({
    CONSOLE_LOG_LEVEL: "error",
    CONSOLE_OPERATOR_MODE: "on",
    CONSOLE_K8S_API_SERVER: cluster.url,
    CONSOLE_K8S_API_SERVER_TLS_ROOT_CA: cluster.caFile,
    CONSOLE_K8S_SERVICE_ACCESS: "cluster-ip",
    ...(options.env ?? {}),
  });
  const k8s = new K8sClient({ baseUrl: cluster.url, caCert: await Deno.readTextFile(cluster.caFile) });
  const licenseDir = await Deno.makeTempDir({ prefix: "deck-operator-license-" });
  const deps: AppDeps = {
    config,
    log: silentLogger,
    render: createPageRenderer({ subpath: config.subpath, product: "Deck Operator" }),
    storage: { url: "", region: "" },
    fetch: globalThis.fetch,
    now: Date.now,
    sessionKey: await createSessionKey(null),
    loginThrottle: new LoginThrottle(),
    operator: { k8s, config: config.operator!, serviceAccountToken: cluster.operatorToken },
    // Operator mode has no storage server of its own: no metrics to sample.
    metrics: createMetricsService({
      config,
      storageUrl: "",
      storageToken: () => Promise.resolve(null),
      fetch: globalThis.fetch,
      log: silentLogger,
      historyFile: null,
    }),
    license: new LicenseStore({
      configured: "",
      publicKeyFile: options.licensePublicKeyFile ?? "",
      file: `${licenseDir}/subnet-license`,
      now: Date.now,
    }),
  };
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    createFetchHandler(createApp(deps), config.subpath),
  );
  return {
    consoleUrl: `http://127.0.0.1:${(server.addr as Deno.NetAddr).port}`,
    cluster,
    deps,
    close: async () => {
      await server.shutdown();
      k8s.close();
      await cluster.close();
      await Deno.remove(licenseDir, { recursive: true }).catch(() => {});
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
