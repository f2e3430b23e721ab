/** The embedded storage run as its own process (server/storage/standalone.ts), for the crash test and benchmarks. */

export async function freePort(): Promise<number> {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

/**
 * Starts the storage on `port` with these root credentials and waits for its "listening" line. With `stderr`
 * "piped" the caller reads what the storage reports (its errors and crashes) from `child.stderr`.
 */
export async function spawnStorage(
  dataDir: string,
  port: number,
  root: { accessKey: string; secretKey: string },
  env: Record<string, string> = {},
  stderr: "null" | "piped" = "null",
): Promise<{ child: Deno.ChildProcess; url: string }> {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      new URL("../server/storage/standalone.ts", import.meta.url).pathname,
      "--data-dir",
      dataDir,
      "--address",
      `127.0.0.1:${port}`,
    ],
    env: { MINIO_ROOT_USER: root.accessKey, MINIO_ROOT_PASSWORD: root.secretKey, NO_COLOR: "1", ...env },
    stdout: "piped",
    stderr,
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  const deadline = AbortSignal.timeout(30_000);
  while (!seen.includes("listening ")) {
    if (deadline.aborted) throw new Error("storage did not start");
    const { value, done } = await reader.read();
    if (done) throw new Error(`storage exited before listening: ${seen}`);
    seen += value;
  }
  reader.releaseLock();
  child.stdout.cancel().catch(() => {});
  return { child, url: /listening (\S+)/.exec(seen)![1] };
}
