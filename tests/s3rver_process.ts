/**
 * s3rver on loopback, started by a test as its own process on a free port: the independent S3 server the
 * "any S3 server" tests point Deck at. It speaks plain S3 only (no MinIO admin API, no STS, no metrics) and
 * takes one fixed key pair, S3RVER / S3RVER.
 */
import { freePort, listeningUrl } from "./storage_process.ts";

/** s3rver's only account: its access key and secret are both "S3RVER". */
export const S3RVER_KEYS = { accessKey: "S3RVER", secretKey: "S3RVER" };

export interface S3rverProcess {
  url: string;
  close(): Promise<void>;
}

/** Starts s3rver in a fresh directory and waits for its "listening" line; close() stops it and removes the data. */
export async function startS3rver(): Promise<S3rverProcess> {
  const directory = await Deno.makeTempDir({ prefix: "deck-s3rver-" });
  const port = await freePort();
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      new URL("./s3rver/serve.ts", import.meta.url).pathname,
      "127.0.0.1",
      String(port),
      directory,
    ],
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "inherit", // s3rver runs silent: whatever it prints is a failure worth seeing
  }).spawn();
  const stop = async () => {
    try {
      child.kill("SIGTERM");
    } catch { /* already ended */ }
    await child.status;
    await Deno.remove(directory, { recursive: true }).catch(() => {});
  };
  try {
    return { url: await listeningUrl(child, "s3rver", 60_000), close: stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
