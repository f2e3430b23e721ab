/** An embedded storage server in a temp dir on a free port, with a root client; closed by the caller. */
import { S3Client } from "../../server/lib/s3/client.ts";
import { type EmbeddedStorage, startEmbeddedStorage } from "../../server/storage/server.ts";

export interface StorageFixture {
  storage: EmbeddedStorage;
  root: S3Client;
  dataDir: string;
  /** A client for other credentials on the same server. */
  as(accessKey: string, secretKey: string, sessionToken?: string): S3Client;
  close(): Promise<void>;
}

export async function startStorage(
  options: { now?: () => number; kmsSecretKey?: string } = {},
): Promise<StorageFixture> {
  const dataDir = await Deno.makeTempDir({ prefix: "deck-s3-" });
  const storage = await startEmbeddedStorage({
    dataDir,
    port: 0,
    now: options.now,
    kmsSecretKey: options.kmsSecretKey,
  });
  const root = new S3Client({ endpoint: storage.url, credentials: storage.root });
  return {
    storage,
    root,
    dataDir,
    as: (accessKey, secretKey, sessionToken) =>
      new S3Client({ endpoint: storage.url, credentials: { accessKey, secretKey, sessionToken } }),
    close: async () => {
      await storage.close();
      await Deno.remove(dataDir, { recursive: true }).catch(() => {});
    },
  };
}

/** Asserts that a promise rejects with an S3Error of this code. */
export async function rejectsWith(promise: Promise<unknown>, code: string): Promise<void> {
  try {
    await promise;
  } catch (error) {
    if ((error as { code?: string }).code === code) return;
    throw new Error(
      `expected ${code}, got ${(error as Error).name}: ${(error as { code?: string }).code} ${
        (error as Error).message
      }`,
    );
  }
  throw new Error(`expected ${code}, but the call succeeded`);
}
