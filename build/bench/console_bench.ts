/**
 * Console benchmarks (issue 2):
 *  - JS and CSS bytes per route after gzip (sign-in ≤ 90 KB JS, dashboard ≤ 120 KB JS) against the
 *    original console's 614 KB of JS on every page;
 *  - start to first 200 OK (≤ 0.5 s) and idle RSS (≤ 100 MB) of `deno run main.ts`, against a bare
 *    `Deno.serve` script started the same way;
 *  - SSR time of the dashboard page, p50 and p99, with the time spent in storage calls subtracted.
 * Run: npx -y deno@2.9.6 task bench
 */
import { signInAsRoot, startStack } from "../../tests/helpers.ts";
import { assetBytes, emitJsBudget, ORIGINAL_CONSOLE_JS } from "./assets.ts";
import { emit, firstOk, freePort, percentile, rssOf } from "./measure.ts";

async function startupOf(
  args: string[],
  env: Record<string, string>,
  url: string,
): Promise<{ ms: number; rss: number }> {
  const started = performance.now();
  const child = new Deno.Command(Deno.execPath(), { args, env, stdout: "null", stderr: "null" }).spawn();
  try {
    const ms = await firstOk(url, started);
    // Idle: let start-up work settle, then sample.
    await new Promise((r) => setTimeout(r, 1000));
    return { ms, rss: await rssOf(child.pid) };
  } finally {
    child.kill("SIGTERM");
    await child.status;
  }
}

const stack = await startStack();
try {
  const client = await signInAsRoot(stack);
  const login = await (await fetch(`${stack.consoleUrl}/login`)).text();
  const dashboard = await (await client.request("GET", "/dashboard")).text();
  const loginAssets = await assetBytes(stack.consoleUrl, login);
  const dashAssets = await assetBytes(stack.consoleUrl, dashboard);
  const kb = (n: number) => n / 1024;
  emitJsBudget("/login", loginAssets.js, 90);
  emitJsBudget("/dashboard", dashAssets.js, 120);
  emit({
    name: "CSS gzip, every page",
    deck: kb(dashAssets.css),
    baseline: kb(ORIGINAL_CONSOLE_JS),
    unit: "KB",
    ratio: dashAssets.css / ORIGINAL_CONSOLE_JS,
    goal: "(reported)",
    pass: true,
    baselineName: "original console JS, every page",
  });

  // SSR time: wrap the storage fetch to subtract what the page spends waiting on storage.
  let storageMs = 0;
  const realFetch = stack.deps.fetch;
  stack.deps.fetch = async (input, init) => {
    const t = performance.now();
    try {
      return await realFetch(input, init);
    } finally {
      storageMs += performance.now() - t;
    }
  };
  const samples: number[] = [];
  for (let i = 0; i < 300; i++) {
    storageMs = 0;
    const t = performance.now();
    const res = await client.request("GET", "/dashboard");
    await res.text();
    if (res.status !== 200) throw new Error(`dashboard answered ${res.status}`);
    samples.push(performance.now() - t - storageMs);
  }
  stack.deps.fetch = realFetch;
  const p50 = percentile(samples.slice(50), 50);
  const p99 = percentile(samples.slice(50), 99);
  emit({
    name: "Dashboard SSR p50 (storage excluded)",
    deck: p50,
    baseline: p99,
    unit: "ms",
    ratio: p50 / p99,
    goal: "(reported; baseline column is p99)",
    pass: true,
    baselineName: "p99 of the same run",
  });
} finally {
  await stack.close();
}

// Start-up and idle memory: the console (with its embedded storage) vs a bare Deno.serve.
const dataDir = await Deno.makeTempDir({ prefix: "deck-bench-start-" });
const bareScript = `${dataDir}/bare.ts`;
await Deno.writeTextFile(
  bareScript,
  `Deno.serve({ port: Number(Deno.args[0]), hostname: "127.0.0.1", onListen() {} }, () => new Response("ok"));`,
);
try {
  const barePort = await freePort();
  const bare = await startupOf(
    ["run", "-A", bareScript, String(barePort)],
    {},
    `http://127.0.0.1:${barePort}/`,
  );
  const consolePort = await freePort();
  const storagePort = await freePort();
  const deck = await startupOf(
    ["run", "-A", new URL("../../main.ts", import.meta.url).pathname],
    {
      CONSOLE_PORT: String(consolePort),
      CONSOLE_HOSTNAME: "127.0.0.1",
      CONSOLE_STORAGE_ADDRESS: `127.0.0.1:${storagePort}`,
      CONSOLE_LOG_SEARCH_ADDRESS: "127.0.0.1:0",
      CONSOLE_DATA_DIR: `${dataDir}/data`,
      CONSOLE_LOG_LEVEL: "error",
      PATH: Deno.env.get("PATH") ?? "",
      HOME: Deno.env.get("HOME") ?? "/tmp",
    },
    `http://127.0.0.1:${consolePort}/healthz`,
  );
  emit({
    name: "Start to first 200 OK",
    deck: deck.ms,
    baseline: bare.ms,
    unit: "ms",
    ratio: deck.ms / bare.ms,
    goal: "≤ 500 ms",
    pass: deck.ms <= 500,
    baselineName: "bare Deno.serve",
  });
  emit({
    name: "Idle RSS",
    deck: deck.rss / 2 ** 20,
    baseline: bare.rss / 2 ** 20,
    unit: "MiB",
    ratio: deck.rss / bare.rss,
    goal: "≤ 100 MB",
    pass: deck.rss <= 100 * 1e6,
    baselineName: "bare Deno.serve",
  });
} finally {
  await Deno.remove(dataDir, { recursive: true }).catch(() => {});
}
