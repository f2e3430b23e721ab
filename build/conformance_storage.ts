/**
 * The storage s3-tests runs against: the embedded server as its own process on a free loopback port with a fresh
 * data directory, root credentials made up for the run, and the suite's accounts created through the admin API
 * as an administrator would (mc admin user add + policy attach).
 */
import { freePort, spawnStorage } from "../tests/storage_process.ts";
import { S3Client } from "../server/lib/s3/client.ts";
import { addUser, setPolicy } from "../server/lib/s3/admin/iam.ts";

/** The suite's config sections that name an account, with the access key the harness gives each. */
const ACCOUNT_SECTIONS: Record<string, string> = {
  "s3 main": "s3tests-main",
  "s3 alt": "s3tests-alt",
  "s3 tenant": "s3tests-tenant",
  "iam": "s3tests-iam",
  "iam root": "s3tests-iam-root",
  "iam alt root": "s3tests-iam-alt-root",
};

/** Every account is a plain user with MinIO's built-in `readwrite` policy (s3:* on every bucket). */
export const ACCOUNT_POLICY = "readwrite";

/**
 * What the storage reports as every bucket's and object's owner, for every user, as MinIO does; the suite
 * compares owners and grantees with the configured user_id and display_name, so those are set to it.
 */
const OWNER = {
  id: "02d6176db174dc93cb1b899f7c6078f08654445fe8cf1b6ce98d8855f66bdbf4",
  displayName: "minio",
};

/** The one key of the storage's static key store (MinIO's MINIO_KMS_SECRET_KEY), named as the suite expects. */
const KMS_KEY_NAME = "testkey-1";

interface Account {
  section: string;
  accessKey: string;
  secretKey: string;
}

/** The storage process ended by itself: a crash, which is a finding of its own. */
export interface Crash {
  code: number;
  /** When, as Date.now(). */
  at: number;
  /** The end of what it wrote to stderr: its uncaught error and where it was thrown. */
  lastWords: string;
}

export interface ConformanceStorage {
  url: string;
  /** The root credentials the harness chose (the suite's accounts are plain users). */
  root: { accessKey: string; secretKey: string };
  port: number;
  accounts: Account[];
  /** Each time the process ended by itself; it is started again at once on the same port and data. */
  crashes: Crash[];
  stop(): Promise<void>;
}

function randomSecret(length = 40): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  return [...crypto.getRandomValues(new Uint8Array(length))].map((b) => alphabet[b % alphabet.length]).join(
    "",
  );
}

function randomKmsKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return `${KMS_KEY_NAME}:${btoa(String.fromCharCode(...bytes))}`;
}

/** Keeps the last `limit` characters of a text stream while passing the bytes on. */
function tail(limit: number): { stream: TransformStream<Uint8Array, Uint8Array>; text: () => string } {
  const decoder = new TextDecoder();
  let kept = "";
  const stream = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      kept = (kept + decoder.decode(chunk, { stream: true })).slice(-limit);
      controller.enqueue(chunk);
    },
  });
  return { stream, text: () => kept };
}

/**
 * Starts the storage and creates the suite's accounts on it. What the storage writes to stderr (errors,
 * crashes) is appended to `logFile`. When the process ends by itself it is recorded and started again at once
 * on the same port and data directory, so a crash costs the test that caused it, not the rest of the run.
 */
export async function startConformanceStorage(dataDir: string, logFile: string): Promise<ConformanceStorage> {
  const port = await freePort();
  const root = { accessKey: `deckroot${randomSecret(8)}`, secretKey: randomSecret() };
  const env = { MINIO_KMS_SECRET_KEY: randomKmsKey() };
  let stopping = false;
  let current: Deno.ChildProcess;
  const crashes: Crash[] = [];
  const spawn = async (): Promise<string> => {
    const { child, url } = await spawnStorage(dataDir, port, root, env, { stderr: "piped" });
    current = child;
    const log = await Deno.open(logFile, { create: true, append: true });
    const last = tail(4000);
    child.stderr.pipeThrough(last.stream).pipeTo(log.writable).catch(() => {});
    child.status.then(async ({ code }) => {
      if (stopping) return;
      crashes.push({ code, at: Date.now(), lastWords: last.text() });
      await spawn().catch((error) => console.error(`the storage did not start again: ${error}`));
    });
    return url;
  };
  const url = await spawn();
  const storage: ConformanceStorage = {
    url,
    root,
    port,
    accounts: [],
    crashes,
    stop: async () => {
      stopping = true;
      try {
        current.kill("SIGTERM");
      } catch {
        // already gone
      }
      await current.status;
    },
  };
  const admin = new S3Client({ endpoint: url, credentials: root });
  for (const [section, accessKey] of Object.entries(ACCOUNT_SECTIONS)) {
    const secretKey = randomSecret();
    await addUser(admin, accessKey, secretKey);
    await setPolicy(admin, [ACCOUNT_POLICY], accessKey, false);
    storage.accounts.push({ section, accessKey, secretKey });
  }
  return storage;
}

/** The suite's s3tests.conf for this storage (format of s3tests.conf.SAMPLE). */
export function suiteConfig(storage: ConformanceStorage): string {
  const lines = [
    "[DEFAULT]",
    "host = 127.0.0.1",
    `port = ${storage.port}`,
    "is_secure = False",
    "ssl_verify = False",
    "",
    "[fixtures]",
    "bucket prefix = s3tests-{random}-",
    "",
  ];
  for (const account of storage.accounts) {
    const name = account.accessKey;
    lines.push(
      `[${account.section}]`,
      `access_key = ${account.accessKey}`,
      `secret_key = ${account.secretKey}`,
      `display_name = ${OWNER.displayName}`,
      `user_id = ${OWNER.id}`,
      `email = ${name}@example.com`,
    );
    if (account.section === "s3 main") lines.push(`kms_keyid = ${KMS_KEY_NAME}`);
    if (account.section === "s3 tenant") lines.push("tenant = testx");
    lines.push("");
  }
  return lines.join("\n");
}
