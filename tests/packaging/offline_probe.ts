/**
 * Run inside the offline test's network namespace (nsenter), where the test itself cannot reach: waits for
 * the console, opens the sign-in page, signs in, and tries the registry, then prints what it saw as JSON.
 *
 * Usage: deno run -A --no-config offline_probe.ts <console url> <access key> <secret key> <pid of Deck>
 */
const [base, accessKey, secretKey, pid] = Deno.args;

/** Whether the process started as Deck still runs (it shares /proc with us; only the network is apart). */
const running = () => Deno.stat(`/proc/${pid}`).then(() => true, () => false);

async function answers(path: string): Promise<boolean> {
  return await fetch(`${base}${path}`).then(async (res) => {
    await res.body?.cancel();
    return res.ok;
  }, () => false);
}

const deadline = Date.now() + 120_000;
let up = await answers("/healthz");
while (!up && Date.now() < deadline && await running()) {
  await new Promise((resolve) => setTimeout(resolve, 200));
  up = await answers("/healthz");
}
const page = up ? await (await fetch(`${base}/login`)).text() : "";
const signIn = up
  ? await fetch(`${base}/api/v1/login`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: base },
    body: JSON.stringify({ accessKey, secretKey }),
  })
  : null;
await signIn?.body?.cancel();
const registry = await fetch("https://registry.npmjs.org/", { signal: AbortSignal.timeout(15_000) }).then(
  async (res) => {
    await res.body?.cancel();
    return `answered ${res.status}`;
  },
  (error) => `unreachable (${error instanceof Error ? error.message : error})`,
);
console.log(JSON.stringify({
  up,
  title: /<title>(.*?)<\/title>/.exec(page)?.[1] ?? null,
  signIn: signIn?.status ?? null,
  registry,
}));
