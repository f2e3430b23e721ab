/**
 * Operator-mode benchmarks (issue 16):
 *  - /tenants page and GET /api/v1/tenants with 500 tenants in 50 namespaces, p50 and p99, against the
 *    stand-in API server's own list of those tenants measured in the same run;
 *  - the hop proxy's throughput for a 256 MiB download against the same download straight from the
 *    tenant's service (goal ≥ 80% of direct), on the production listener and on Deno.serve, with a bare
 *    fetch pass-through on each as the bound and the console's CPU time per download; curl downloads, the
 *    byte server runs in its own process, five interleaved rounds;
 *  - JS gzip on /tenants and on the Create Tenant wizard (budget ≤ 150 KB) against the original's 614 KB.
 * Run: npx -y deno@2.9.6 task bench operator
 */
import process from "node:process";
import { createApp, createFetchHandler } from "../../server/console/app/app.ts";
import { DEFAULT_LISTENER_TIMEOUTS, listen } from "../../server/lib/http/listener.ts";
import { tenantPath } from "../../server/console/k8s/client.ts";
import { RESOURCES } from "../k8s_standin/resources.ts";
import { seedTenant } from "../k8s_standin/seed.ts";
import { signInOperator, startOperatorStack } from "../../tests/operator_helpers.ts";
import { assetBytes, emitJsBudget } from "./assets.ts";
import { emit, emitLatency, freePort, percentile, timed } from "./measure.ts";

const NAMESPACES = 50;
const TENANTS = 500;
const DOWNLOAD = 256 * 1024 * 1024;
/** Interleaved rounds of the five downloads; the medians are compared. */
const ROUNDS = 5;
const NAMESPACE = RESOURCES.find((r) => r.kind === "Namespace")!;
const SERVICES = RESOURCES.find((r) => r.kind === "Service")!;

/** A byte server in its own process: GET /bytes?n=N streams N bytes; POST /api/v1/login signs anyone in. */
async function startByteServer(port: number): Promise<Deno.ChildProcess> {
  const code = `
    const chunk = new Uint8Array(256 * 1024).fill(7);
    Deno.serve({ hostname: "127.0.0.1", port: ${port}, onListen: () => console.log("ready") }, (req) => {
      const url = new URL(req.url);
      if (url.pathname === "/api/v1/login") return new Response("{}", { status: 201, headers: { "set-cookie": "token=bench; Path=/; HttpOnly" } });
      let left = Number(url.searchParams.get("n") ?? 0);
      return new Response(new ReadableStream({ type: "bytes", pull(c) { if (left <= 0) return c.close(); const n = Math.min(chunk.length, left); c.enqueue(chunk.slice(0, n)); left -= n; } }), { headers: { "content-length": String(left) } });
    });`;
  const child = new Deno.Command(Deno.execPath(), {
    args: ["eval", code],
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  while (!(await reader.read()).value?.includes("ready")) { /* wait for the listener */ }
  reader.releaseLock();
  return child;
}

interface Download {
  /** MiB/s as curl measured it. */
  rate: number;
  /** CPU this process (the console) spent meanwhile, in milliseconds. */
  cpuMs: number;
}

/** Downloads with curl (an independent client): its rate and the console process's CPU time meanwhile. */
async function curlDownload(url: string, cookie = ""): Promise<Download> {
  const before = process.cpuUsage();
  const out = await new Deno.Command("curl", {
    args: [
      "-s",
      "-o",
      "/dev/null",
      "-w",
      "%{speed_download} %{size_download} %{http_code}",
      ...(cookie ? ["-H", `cookie: ${cookie}`] : []),
      url,
    ],
    stdout: "piped",
  }).output();
  const used = process.cpuUsage(before);
  const [speed, size, status] = new TextDecoder().decode(out.stdout).trim().split(" ").map(Number);
  if (status !== 200 || size !== DOWNLOAD) {
    throw new Error(`download of ${url} answered ${status} with ${size} bytes`);
  }
  return { rate: speed / 1024 / 1024, cpuMs: (used.user + used.system) / 1000 };
}

const stack = await startOperatorStack({ seedTenant: false, backTenants: false });
const bytePort = await freePort();
const byteServer = await startByteServer(bytePort);
try {
  const { store, operator } = stack.cluster;
  for (let n = 0; n < NAMESPACES; n++) {
    store.create(NAMESPACE, {
      metadata: { name: `bench-${String(n).padStart(2, "0")}` },
      status: { phase: "Active" },
    });
  }
  for (let i = 0; i < TENANTS; i++) {
    seedTenant(store, {
      namespace: `bench-${String(i % NAMESPACES).padStart(2, "0")}`,
      name: `tenant-${String(i).padStart(3, "0")}`,
      root: { accessKey: "bench-admin", secretKey: "bench-secret-123" },
    });
  }
  await operator.settled();
  const client = await signInOperator(stack, stack.cluster.operatorToken);
  const k8s = stack.deps.operator!.k8s;
  const token = stack.cluster.operatorToken;

  const standin = await timed(30, async () => {
    const list = await k8s.request<{ items: unknown[] }>(token, "GET", tenantPath(), {
      query: { limit: 500 },
    });
    if (list.items.length !== TENANTS) throw new Error(`stand-in listed ${list.items.length}`);
  }, 3);
  const api = await timed(30, async () => {
    const body = await (await client.request("GET", "/api/v1/tenants")).json();
    if (body.tenants.length !== TENANTS) throw new Error(`listed ${body.tenants.length}`);
  }, 3);
  const page = await timed(30, async () => {
    const res = await client.request("GET", "/tenants");
    await res.text();
    if (res.status !== 200) throw new Error(`/tenants answered ${res.status}`);
  }, 3);
  emitLatency(
    "GET /api/v1/tenants",
    "500 tenants, 50 namespaces",
    api,
    standin,
    "stand-in API server's own tenant list",
  );
  emitLatency(
    "/tenants page",
    "500 tenants, 50 namespaces",
    page,
    standin,
    "stand-in API server's own tenant list",
  );

  // The hop: tenant-000's console service points at the byte server. The console answers through the
  // production listener (server/lib/http/listener.ts, node:http) as `deno task start` runs it, and, for
  // comparison, through Deno.serve (what the test harness uses).
  const service = store.get(SERVICES, "bench-00", "tenant-000-console")!;
  service.spec.ports = [{ name: "http-console", port: bytePort, targetPort: 9090, protocol: "TCP" }];
  store.replace(SERVICES, service);
  const first = await client.request("GET", "/api/proxy/bench-00/tenant-000/bytes?n=1");
  await first.body?.cancel();
  const cookie = `${client.cookie}; ${
    /^(token-[0-9a-f]+=[^;]+)/.exec(first.headers.get("set-cookie") ?? "")![1]
  }`;
  const production = await listen(
    { hostname: "127.0.0.1", port: 0, timeouts: DEFAULT_LISTENER_TIMEOUTS },
    createFetchHandler(createApp(stack.deps), stack.deps.config.subpath),
  );
  // The bounds: the least any proxy in this process can do, a bare fetch pass-through on each listener.
  const passThrough = async (req: Request) => {
    const url = new URL(req.url);
    const res = await fetch(`http://127.0.0.1:${bytePort}${url.pathname}${url.search}`);
    return new Response(res.body, { status: res.status, headers: res.headers });
  };
  const bareNode = await listen(
    { hostname: "127.0.0.1", port: 0, timeouts: DEFAULT_LISTENER_TIMEOUTS },
    passThrough,
  );
  const bareServe = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, passThrough);
  const hopPath = `/api/proxy/bench-00/tenant-000/bytes?n=${DOWNLOAD}`;
  const runs: Record<string, () => Promise<Download>> = {
    direct: () => curlDownload(`http://127.0.0.1:${bytePort}/bytes?n=${DOWNLOAD}`),
    hop: () => curlDownload(`http://127.0.0.1:${production.addr.port}${hopPath}`, cookie),
    hopServe: () => curlDownload(`${stack.consoleUrl}${hopPath}`, cookie),
    bareNode: () => curlDownload(`http://127.0.0.1:${bareNode.addr.port}/bytes?n=${DOWNLOAD}`),
    bareServe: () =>
      curlDownload(`http://127.0.0.1:${(bareServe.addr as Deno.NetAddr).port}/bytes?n=${DOWNLOAD}`),
  };
  const rates: Record<string, number[]> = {};
  const cpu: Record<string, number[]> = {};
  for (let i = 0; i < ROUNDS; i++) {
    for (const [name, run] of Object.entries(runs)) {
      const { rate, cpuMs } = await run();
      (rates[name] ??= []).push(rate);
      (cpu[name] ??= []).push(cpuMs);
    }
  }
  await production.shutdown();
  await bareNode.shutdown();
  await bareServe.shutdown();
  const rate = (name: string) => percentile(rates[name], 50);
  const cpuOf = (name: string) => percentile(cpu[name], 50);
  const direct = "same download straight from the service";
  emit({
    name: `hop proxy download, 256 MiB, production listener (median of ${ROUNDS})`,
    deck: rate("hop"),
    baseline: rate("direct"),
    unit: "MiB/s",
    ratio: rate("hop") / rate("direct"),
    goal: "≥ 80% of direct",
    pass: rate("hop") >= 0.8 * rate("direct"),
    baselineName: direct,
  });
  emit({
    name: "bare pass-through on the production listener against direct (its bound)",
    deck: rate("bareNode"),
    baseline: rate("direct"),
    unit: "MiB/s",
    ratio: rate("bareNode") / rate("direct"),
    goal: "(reported: the bound)",
    pass: true,
    baselineName: direct,
  });
  emit({
    name: "hop proxy against the bare pass-through, production listener",
    deck: rate("hop"),
    baseline: rate("bareNode"),
    unit: "MiB/s",
    ratio: rate("hop") / rate("bareNode"),
    goal: "(reported)",
    pass: true,
    baselineName: "fetch pass-through, same listener and process",
  });
  emit({
    name: "console CPU per 256 MiB through the hop, production listener",
    deck: cpuOf("hop"),
    baseline: cpuOf("bareNode"),
    unit: "ms",
    ratio: cpuOf("hop") / cpuOf("bareNode"),
    goal: "(reported)",
    pass: true,
    baselineName: "bare pass-through, same listener",
  });
  emit({
    name: "hop proxy download, 256 MiB, Deno.serve listener",
    deck: rate("hopServe"),
    baseline: rate("direct"),
    unit: "MiB/s",
    ratio: rate("hopServe") / rate("direct"),
    goal: "(reported: test harness listener)",
    pass: true,
    baselineName: direct,
  });
  emit({
    name: "bare pass-through on Deno.serve against direct",
    deck: rate("bareServe"),
    baseline: rate("direct"),
    unit: "MiB/s",
    ratio: rate("bareServe") / rate("direct"),
    goal: "(reported)",
    pass: true,
    baselineName: direct,
  });
  emit({
    name: "console CPU per 256 MiB through the hop, Deno.serve listener",
    deck: cpuOf("hopServe"),
    baseline: cpuOf("hop"),
    unit: "ms",
    ratio: cpuOf("hopServe") / cpuOf("hop"),
    goal: "(reported)",
    pass: true,
    baselineName: "the same hop on the production listener",
  });

  for (const path of ["/tenants", "/tenants/add"]) {
    const html = await (await client.request("GET", path)).text();
    const { js } = await assetBytes(stack.consoleUrl, html);
    emitJsBudget(path, js, 150);
  }
} finally {
  byteServer.kill();
  await byteServer.status;
  await stack.close();
}
