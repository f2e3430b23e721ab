/**
 * A console started as `deno run main.ts` against a storage server the benchmark started itself, signed in
 * as `root`: what the object benchmarks measure through, as a user's browser reaches it.
 */
import { firstOk, freePort } from "./measure.ts";

export interface BenchConsole {
  url: string;
  /** The session cookie (`token=…`) of the root sign-in. */
  cookie: string;
  pid: number;
  /** A request with the session's cookie and the console's Origin, as the browser sends it. */
  call(path: string, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

/** `env` adds settings (a data directory of the benchmark's own, say). */
export async function startBenchConsole(
  storageUrl: string,
  root: { accessKey: string; secretKey: string },
  env: Record<string, string> = {},
): Promise<BenchConsole> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", new URL("../../main.ts", import.meta.url).pathname],
    env: {
      CONSOLE_PORT: String(port),
      CONSOLE_HOSTNAME: "127.0.0.1",
      CONSOLE_MINIO_SERVER: storageUrl,
      CONSOLE_LOG_LEVEL: "error",
      PATH: Deno.env.get("PATH") ?? "",
      HOME: Deno.env.get("HOME") ?? "/tmp",
      ...env,
    },
    stdout: "null",
    stderr: "inherit",
  }).spawn();
  const close = async () => {
    child.kill("SIGTERM");
    await child.status;
  };
  try {
    await firstOk(`${url}/healthz`, performance.now());
    const login = await fetch(`${url}/api/v1/login`, {
      method: "POST",
      body: JSON.stringify(root),
      headers: { "content-type": "application/json", origin: url },
    });
    await login.body?.cancel();
    const cookie = /^token=[^;]*/.exec(login.headers.get("set-cookie") ?? "")?.[0];
    if (!cookie) throw new Error(`the console's sign-in answered ${login.status}`);
    const call = (path: string, init: RequestInit = {}) =>
      fetch(url + path, { ...init, headers: { cookie, origin: url, ...init.headers } });
    return { url, cookie, pid: child.pid, call, close };
  } catch (error) {
    await close();
    throw error;
  }
}
