/** The embedded storage run as its own process (server/storage/standalone.ts), for the crash test and benchmarks. */
import { within } from "./eventually.ts";

export async function freePort(): Promise<number> {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

/**
 * Waits for a child's "listening <url>" line on its stdout and returns the URL; stdout is let go afterwards.
 * A child that exits first, or says nothing in time, fails with what it printed; the caller stops it.
 */
export async function listeningUrl(
  child: Deno.ChildProcess,
  name: string,
  timeoutMs?: number,
): Promise<string> {
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  await within(
    `${name} to listen`,
    (async () => {
      while (!/listening \S+\s/.test(seen)) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`${name} exited before listening: ${seen}`);
        seen += value;
      }
    })(),
    timeoutMs,
  );
  reader.releaseLock();
  child.stdout.cancel().catch(() => {});
  return /listening (\S+)/.exec(seen)![1];
}

/**
 * Starts the storage on `port` with these root credentials and waits for its "listening" line. `flags` adds
 * command-line flags (`--certs-dir DIR`); with `stderr: "piped"` the caller reads what the storage reports (its
 * errors and crashes) from `child.stderr`; `checkout` runs another checkout's storage (benchmarks comparing
 * trees), this one's by default.
 */
export async function spawnStorage(
  dataDir: string,
  port: number,
  root: { accessKey: string; secretKey: string },
  env: Record<string, string> = {},
  options: { flags?: string[]; stderr?: "null" | "piped"; checkout?: string } = {},
): Promise<{ child: Deno.ChildProcess; url: string }> {
  const entry = options.checkout
    ? `${options.checkout.replace(/\/+$/, "")}/server/storage/standalone.ts`
    : new URL("../server/storage/standalone.ts", import.meta.url).pathname;
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      entry,
      "--data-dir",
      dataDir,
      "--address",
      `127.0.0.1:${port}`,
      ...(options.flags ?? []),
    ],
    env: { MINIO_ROOT_USER: root.accessKey, MINIO_ROOT_PASSWORD: root.secretKey, NO_COLOR: "1", ...env },
    stdout: "piped",
    stderr: options.stderr ?? "null",
  }).spawn();
  try {
    return { child, url: await listeningUrl(child, "storage") };
  } catch (error) {
    try {
      child.kill();
    } catch { /* already ended */ }
    await child.status;
    throw error;
  }
}
