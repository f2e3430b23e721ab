/**
 * Run once while the image is built (deploy/Containerfile), as the image's user: starts Deck on a throwaway
 * data directory, signs in, opens a page and stops it. Every module the start loads, on every thread, is
 * then in Deno's caches (transpiled and compiled by V8), which the user can read and top up, so the console
 * of a new container answers within a second.
 */
const free = () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
};

const dataDir = await Deno.makeTempDir({ prefix: "deck-warm-up-" });
const port = free();
const root = { accessKey: "warmup", secretKey: crypto.randomUUID() };
for (
  const [name, value] of Object.entries({
    CONSOLE_DATA_DIR: dataDir,
    CONSOLE_HOSTNAME: "127.0.0.1",
    CONSOLE_PORT: String(port),
    CONSOLE_STORAGE_ADDRESS: `127.0.0.1:${free()}`,
    CONSOLE_LOG_SEARCH_ADDRESS: `127.0.0.1:${free()}`,
    MINIO_ROOT_USER: root.accessKey,
    MINIO_ROOT_PASSWORD: root.secretKey,
  })
) Deno.env.set(name, value);

const { main } = await import("file:///app/main.ts");
const stopped = main([]);
const base = `http://127.0.0.1:${port}`;
const answers = () =>
  fetch(`${base}/healthz`).then(async (res) => {
    await res.body?.cancel();
    return res.ok;
  }, () => false);
const deadline = Date.now() + 120_000;
while (!(await answers())) {
  if (Date.now() > deadline) throw new Error("Deck did not answer within 120 s");
  await new Promise((resolve) => setTimeout(resolve, 100));
}
const signIn = await fetch(`${base}/api/v1/login`, {
  method: "POST",
  headers: { "content-type": "application/json", origin: base },
  body: JSON.stringify(root),
});
await signIn.body?.cancel();
const cookie = (signIn.headers.get("set-cookie") ?? "").split(";")[0];
await (await fetch(`${base}/buckets`, { headers: { cookie } })).body?.cancel();
Deno.kill(Deno.pid, "SIGTERM");
await stopped;
await Deno.remove(dataDir, { recursive: true });
