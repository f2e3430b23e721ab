/**
 * Runs the embedded storage server alone (tests kill -9 it; operators may use it without the console):
 *   deno run -A server/storage/standalone.ts --data-dir ./data --address 127.0.0.1:9000 [--certs-dir DIR]
 * Prints "listening <url>" once ready. `--certs-dir` is MinIO's: public.crt and private.key there make it HTTPS,
 * and its calls to other servers trust public.crt and CAs/ besides the system's CAs.
 */
import { startEmbeddedStorage } from "./server.ts";

const args = Deno.args;
const value = (flag: string, fallback: string) => {
  const i = args.indexOf(flag);
  return i >= 0 && args[i + 1] ? args[i + 1] : fallback;
};
const [hostname, port] = value("--address", "127.0.0.1:9000").split(/:(?=\d+$)/);
const storage = await startEmbeddedStorage({
  dataDir: value("--data-dir", "./data"),
  hostname,
  port: Number(port),
  rootUser: Deno.env.get("MINIO_ROOT_USER"),
  rootPassword: Deno.env.get("MINIO_ROOT_PASSWORD"),
  kmsSecretKey: Deno.env.get("MINIO_KMS_SECRET_KEY") || undefined,
  certsDir: value("--certs-dir", "") || undefined,
});
console.log(`listening ${storage.url}`);
const stop = async () => {
  await storage.close();
  Deno.exit(0);
};
Deno.addSignalListener("SIGTERM", stop);
Deno.addSignalListener("SIGINT", stop);
