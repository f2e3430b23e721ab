/**
 * Tier backends: the remote S3-compatible buckets that lifecycle transitions move object data to (MinIO and S3
 * tiers, minio-protocol-2 §6.3). Uploads a version's bytes under a fresh name, reads them back (ranges too)
 * for GET and HEAD-less reads, and removes the remote copy once no version refers to it. A removal the tier
 * refuses (down, unreachable) is kept in <data>/.deck/tier-pending.json and tried again on every scan.
 */
import type { Logger } from "../../lib/http/log.ts";
import { S3Client } from "../../lib/s3/client.ts";
import { writeFileDurable } from "../fs/durable.ts";
import type { TieredData } from "../fs/store.ts";
import { StoreError } from "../core/errors.ts";
import type { TransitionRef, VersionRecord } from "../core/records.ts";
import type { TierDoc, TierStore } from "./store.ts";

const SECTION = { s3: "S3", minio: "MinIO", gcs: "GCS", azure: "Azure" } as const;
const REMOVE_TIMEOUT_MS = 30_000;

interface Backend {
  client: S3Client;
  bucket: string;
  prefix: string;
  storageClass?: string;
}

/** Why a tier cannot take transitions, or null when it can (S3 and MinIO tiers only). */
export function tierProblem(tier: TierDoc | undefined, name: string): string | null {
  if (!tier) return `The tier ${name} does not exist`;
  if (tier.Type !== "s3" && tier.Type !== "minio") {
    return `The tier ${name} is a ${
      SECTION[tier.Type]
    } tier: the embedded storage transitions only to S3 and MinIO tiers`;
  }
  return null;
}

export class TierBackends implements TieredData {
  #pending: TransitionRef[] = [];
  readonly #pendingFile: string;
  readonly #tmpDir: string;

  private constructor(
    private readonly tiers: TierStore,
    private readonly deploymentId: string,
    dataDir: string,
    private readonly fetchImpl: typeof fetch,
    private readonly log?: Logger,
  ) {
    this.#pendingFile = `${dataDir}/.deck/tier-pending.json`;
    this.#tmpDir = `${dataDir}/.deck/tmp`;
  }

  static async open(
    options: { tiers: TierStore; deploymentId: string; dataDir: string; fetch?: typeof fetch; log?: Logger },
  ): Promise<TierBackends> {
    const backends = new TierBackends(
      options.tiers,
      options.deploymentId,
      options.dataDir,
      options.fetch ?? globalThis.fetch,
      options.log,
    );
    backends.#pending = await Deno.readTextFile(backends.#pendingFile).then(
      (t) => JSON.parse(t) as TransitionRef[],
      () => [],
    );
    return backends;
  }

  #backend(name: string): Backend {
    const tier = this.tiers.tiers.find((t) => t.Name === name);
    const problem = tierProblem(tier, name);
    if (problem) throw new StoreError("InvalidObjectState", problem, 503);
    const b = tier![SECTION[tier!.Type]] as {
      Endpoint: string;
      AccessKey: string;
      SecretKey: string;
      Bucket: string;
      Prefix?: string;
      Region?: string;
      StorageClass?: string;
    };
    const client = new S3Client({
      endpoint: b.Endpoint,
      region: b.Region || undefined,
      credentials: { accessKey: b.AccessKey, secretKey: b.SecretKey },
      fetch: this.fetchImpl,
    });
    return {
      client,
      bucket: b.Bucket,
      prefix: (b.Prefix ?? "").replace(/^\/+|\/+$/g, ""),
      storageClass: b.StorageClass || undefined,
    };
  }

  /** Copies `size` bytes to the tier under a new name (`<prefix>/<deployment>/<bucket>/<u[0:2]>/<u[2:4]>/<u>`). */
  async upload(
    tierName: string,
    bucket: string,
    body: ReadableStream<Uint8Array>,
    size: number,
    signal?: AbortSignal,
  ): Promise<TransitionRef & { etag?: string }> {
    const backend = this.#backend(tierName);
    const uuid = crypto.randomUUID();
    const name = [backend.prefix, this.deploymentId, bucket, uuid.slice(0, 2), uuid.slice(2, 4), uuid].filter(
      (p) => p !== "",
    ).join("/");
    const headers: Record<string, string> = { "content-type": "application/octet-stream" };
    if (backend.storageClass) headers["x-amz-storage-class"] = backend.storageClass;
    const res = await backend.client.empty({
      method: "PUT",
      bucket: backend.bucket,
      key: name,
      body,
      contentLength: size,
      headers,
      signal,
    });
    const etag = res.headers.get("etag")?.replace(/"/g, "");
    return {
      tier: tierName,
      object: name,
      remoteVersionId: res.headers.get("x-amz-version-id") ?? undefined,
      etag,
    };
  }

  async read(version: VersionRecord, start: number, length: number): Promise<ReadableStream<Uint8Array>> {
    const ref = version.transition!;
    if (length <= 0) return new Blob([]).stream();
    const backend = this.#backend(ref.tier);
    try {
      const res = await backend.client.send({
        method: "GET",
        bucket: backend.bucket,
        key: ref.object,
        query: { versionId: ref.remoteVersionId },
        headers: { range: `bytes=${start}-${start + length - 1}` },
      });
      if (!res.body) throw new Error("the tier sent no body");
      return res.body;
    } catch (error) {
      if (error instanceof StoreError) throw error;
      this.log?.warn("reading a transitioned object from its tier failed", {
        tier: ref.tier,
        error: String(error),
      });
      throw new StoreError(
        "InternalError",
        `The object's data is on tier ${ref.tier}, which cannot be read now`,
        503,
      );
    }
  }

  /** Removes one remote copy now; false when the tier did not answer (the copy stays pending). */
  async remove(ref: TransitionRef): Promise<boolean> {
    try {
      const backend = this.#backend(ref.tier);
      // A tier that does not answer must not hold up the scan that retries removals.
      const signal = AbortSignal.timeout(REMOVE_TIMEOUT_MS);
      await backend.client.empty({
        method: "DELETE",
        bucket: backend.bucket,
        key: ref.object,
        query: { versionId: ref.remoteVersionId },
        allow: [404],
        signal,
      });
      return true;
    } catch (error) {
      this.log?.warn("removing a transitioned object's remote copy failed; it is retried", {
        tier: ref.tier,
        error: String(error),
      });
      return false;
    }
  }

  forget(version: VersionRecord): void {
    if (version.transition) this.discard(version.transition);
  }

  /** Removes a remote copy, or keeps it pending when the tier does not answer now. */
  discard(ref: TransitionRef): Promise<void> {
    return this.remove(ref).then(async (done) => {
      if (done) return;
      this.#pending.push({ tier: ref.tier, object: ref.object, remoteVersionId: ref.remoteVersionId });
      await this.#savePending();
    }).catch(() => {});
  }

  /** Retries the remote removals that failed before (the scanner calls this every pass). */
  async retryPending(): Promise<void> {
    if (this.#pending.length === 0) return;
    const left: TransitionRef[] = [];
    for (const ref of this.#pending.splice(0)) if (!(await this.remove(ref))) left.push(ref);
    this.#pending.push(...left);
    await this.#savePending();
  }

  get pendingRemovals(): number {
    return this.#pending.length;
  }

  async #savePending(): Promise<void> {
    await writeFileDurable(this.#tmpDir, this.#pendingFile, JSON.stringify(this.#pending)).catch(() => {});
  }
}
