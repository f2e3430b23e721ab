/**
 * Server configuration calls the bucket screens need (api-index §7): a subsystem's key-values, setting them
 * (notification targets are written this way too), target ARNs, tiers for lifecycle storage classes, restart.
 */
import type { ConfigInfo, SetConfigInput } from "../contract/settings.ts";
import { ApiError } from "../errors.ts";
import { listTiers } from "../s3/admin/buckets.ts";
import { formatConfigLine, getConfigKV, serviceRestart, setConfigKV } from "../s3/admin/config_kv.ts";
import type { S3Client } from "../s3/client.ts";

const SUBSYSTEM = /^[a-z][a-z0-9_]*$/;

export async function getConfig(client: S3Client, name: string): Promise<ConfigInfo> {
  if (!SUBSYSTEM.test(name)) throw ApiError.badRequest("invalid configuration name", name);
  const entries = await getConfigKV(client, name);
  const entry = entries.find((e) => !e.target || e.target === "_") ?? entries[0];
  return { name, key_values: (entry?.kv ?? []).map(({ key, value }) => ({ key, value })) };
}

/** Writes the key-values (empty values dropped, spec 2 §5); `restart` says whether a restart applies them. */
export async function setConfig(client: S3Client, name: string, input: SetConfigInput): Promise<{ restart: boolean }> {
  if (!SUBSYSTEM.test(name)) throw ApiError.badRequest("invalid configuration name", name);
  const kv = input.key_values.filter((p) => p.value !== "");
  if (kv.length === 0) throw ApiError.badRequest("no values to save", "Every value was empty.");
  return await setConfigKV(client, formatConfigLine(name, input.arn_resource_id || undefined, kv));
}

export async function restartService(client: S3Client): Promise<void> {
  await serviceRestart(client);
}

export interface TierView {
  type: "s3" | "gcs" | "azure" | "minio";
  s3?: { name: string; endpoint: string; bucket: string; prefix: string; region: string; storageclass: string };
  gcs?: { name: string; endpoint: string; bucket: string; prefix: string; region: string };
  azure?: { name: string; endpoint: string; bucket: string; prefix: string; region: string };
  minio?: { name: string; endpoint: string; bucket: string; prefix: string; region: string };
}

/** Tiers without their secrets. */
export async function listTierViews(client: S3Client): Promise<{ items: TierView[] }> {
  const items = (await listTiers(client)).map((t): TierView => {
    const c = (t.S3 ?? t.MinIO ?? t.GCS ?? t.Azure ?? {}) as { Endpoint?: string; Bucket?: string; Prefix?: string; Region?: string; StorageClass?: string };
    const view = { name: t.Name, endpoint: c.Endpoint ?? "", bucket: c.Bucket ?? "", prefix: c.Prefix ?? "", region: c.Region ?? "" };
    const type = t.Type === "minio" ? "minio" : t.Type;
    return type === "s3" ? { type, s3: { ...view, storageclass: c.StorageClass ?? "" } } : { type, [type]: view };
  });
  return { items };
}
