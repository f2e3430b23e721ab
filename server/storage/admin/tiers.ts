/**
 * Remote tiers for lifecycle transitions (minio-protocol §3.12): add (checking S3/MinIO backends are reachable
 * and their prefix empty; GCS and Azure ones validated and stored), list with secrets redacted, edit
 * credentials, remove (refused while versions have their data there), verify, stats (from the store).
 */
import { S3Client } from "../../lib/s3/client.ts";
import { listObjectsV2 } from "../../lib/s3/ops/objects.ts";
import type { TierDoc, TierType } from "../tiers/store.ts";
import { type AdminContext, adminFail, decryptJson, empty, json, requireAction } from "./context.ts";

const SECTION: Record<TierType, "S3" | "MinIO" | "GCS" | "Azure"> = {
  s3: "S3",
  minio: "MinIO",
  gcs: "GCS",
  azure: "Azure",
};
const SECRET_FIELDS = ["SecretKey", "AccountKey", "Creds"];

interface BackendFields {
  Endpoint?: string;
  AccessKey?: string;
  SecretKey?: string;
  Bucket?: string;
  Prefix?: string;
  Region?: string;
}

/**
 * Whether the tier's remote bucket/prefix holds anything (MinIO's in-use test, minio-protocol-2 §6.4): lists
 * one key with the tier's own credentials, so bad credentials or an unreachable backend fail here too.
 */
async function backendHasObjects(ctx: AdminContext, tier: TierDoc): Promise<boolean> {
  const b = tier[SECTION[tier.Type]] as BackendFields;
  const client = new S3Client({
    endpoint: b.Endpoint!,
    region: b.Region || undefined,
    credentials: { accessKey: b.AccessKey!, secretKey: b.SecretKey! },
    fetch: ctx.fetch,
  });
  try {
    const page = await listObjectsV2(client, b.Bucket!, {
      prefix: b.Prefix ?? "",
      delimiter: "/",
      maxKeys: 1,
    });
    return page.objects.length > 0 || page.prefixes.length > 0;
  } catch (error) {
    if (error instanceof Error && error.name === "S3Error") {
      const code = (error as Error & { code: string }).code;
      if (code === "InvalidAccessKeyId" || code === "SignatureDoesNotMatch" || code === "AccessDenied") {
        throw adminFail(
          "XMinioAdminTierMissingCredentials",
          "Specified remote credentials are not valid or have insufficient permissions",
          403,
        );
      }
      throw adminFail(
        "XMinioAdminTierInvalidConfig",
        `Unable to setup remote tier, check tier configuration: the backend answered ${code}`,
        400,
      );
    }
    if (error instanceof TypeError) {
      // fetch says "fetch failed"; why (a refused connection, a certificate no trusted CA signed) is its cause.
      const reason = error.cause instanceof Error ? error.cause.message : error.message;
      throw adminFail(
        "XMinioAdminTierInvalidConfig",
        `Unable to setup remote tier, check tier configuration: ${b.Endpoint} cannot be reached (${reason})`,
        400,
      );
    }
    throw error;
  }
}

export async function addTier(ctx: AdminContext): Promise<Response> {
  requireAction(ctx, "admin:SetTier");
  const tier = await decryptJson<TierDoc>(ctx);
  if (tier.Version !== "v1") {
    throw adminFail("XMinioAdminInvalidArgument", "unsupported tier config version", 400);
  }
  if (!tier.Name || tier.Name !== tier.Name.toUpperCase()) {
    throw adminFail("XMinioAdminTierNameNotUpperCase", "Tier name must be in uppercase", 400);
  }
  if (!/^[A-Z0-9_-]+$/.test(tier.Name)) {
    throw adminFail(
      "XMinioAdminInvalidArgument",
      "Tier name must hold only upper-case letters, digits, dashes and underscores",
      400,
    );
  }
  if (!(tier.Type in SECTION) || !tier[SECTION[tier.Type]]) {
    throw adminFail("XMinioAdminTierTypeUnsupported", "Specified tier type is unsupported", 400);
  }
  if (ctx.tiers.names().includes(tier.Name)) {
    throw adminFail("XMinioAdminTierAlreadyExists", "Specified remote tier already exists", 409);
  }
  const section = tier[SECTION[tier.Type]] as BackendFields & Record<string, string>;
  if (tier.Type === "gcs" || tier.Type === "azure") {
    // Validated and stored; a lifecycle rule naming one is refused (the embedded storage has no GCS/Azure client).
    validateCloudTier(tier.Type, section);
    await ctx.tiers.save([...ctx.tiers.tiers, {
      Version: "v1",
      Type: tier.Type,
      Name: tier.Name,
      [SECTION[tier.Type]]: section,
    }]);
    return empty(204);
  }
  if (!section.Endpoint || !section.Bucket) {
    throw adminFail("XMinioAdminInvalidArgument", "a tier needs an endpoint and a bucket", 400);
  }
  if (!section.AccessKey || !section.SecretKey) {
    throw adminFail("XMinioAdminTierMissingCredentials", "Specified remote credentials are empty", 403);
  }
  const inUse = ctx.tiers.tiers.find((t) => {
    const other = t[SECTION[t.Type]] as BackendFields;
    return other.Endpoint === section.Endpoint && other.Bucket === section.Bucket &&
      (other.Prefix ?? "") === (section.Prefix ?? "");
  });
  if (inUse) throw adminFail("XMinioAdminTierBackendInUse", "Specified remote tier is already in use", 409);
  if (await backendHasObjects(ctx, tier) && ctx.query.get("force") !== "true") {
    throw adminFail("XMinioAdminTierBackendInUse", "Specified remote tier is already in use", 409);
  }
  await ctx.tiers.save([...ctx.tiers.tiers, {
    Version: "v1",
    Type: tier.Type,
    Name: tier.Name,
    [SECTION[tier.Type]]: section,
  }]);
  return empty(204);
}

function validateCloudTier(type: "gcs" | "azure", section: Record<string, string>): void {
  if (!section.Bucket) throw adminFail("XMinioAdminInvalidArgument", "a tier needs a bucket", 400);
  if (type === "azure") {
    if (!section.AccountName || !section.AccountKey) {
      throw adminFail("XMinioAdminTierMissingCredentials", "Specified remote credentials are empty", 403);
    }
    return;
  }
  if (!section.Creds) {
    throw adminFail("XMinioAdminTierMissingCredentials", "Specified remote credentials are empty", 403);
  }
  let creds: unknown;
  try {
    creds = JSON.parse(atob(section.Creds));
  } catch {
    creds = null;
  }
  if (!creds || typeof creds !== "object" || Array.isArray(creds)) {
    throw adminFail(
      "XMinioAdminTierInvalidConfig",
      "Unable to setup remote tier, check tier configuration: the GCS credentials are not a base64 JSON credentials file",
      400,
    );
  }
}

export async function listTiers(ctx: AdminContext): Promise<Response> {
  requireAction(ctx, "admin:ListTier");
  return json(ctx.tiers.tiers.map((t) => {
    const section = { ...(t[SECTION[t.Type]] as Record<string, unknown>) };
    for (const field of SECRET_FIELDS) if (field in section) section[field] = "REDACTED";
    return { ...t, [SECTION[t.Type]]: section };
  }));
}

function tierNamed(ctx: AdminContext, name: string): TierDoc {
  const tier = ctx.tiers.tiers.find((t) => t.Name === name);
  if (!tier) throw adminFail("XMinioAdminTierNotFound", "Specified remote tier was not found", 404);
  return tier;
}

export async function editTier(ctx: AdminContext, name: string): Promise<Response> {
  requireAction(ctx, "admin:SetTier");
  const tier = tierNamed(ctx, name);
  const creds = await decryptJson<{ access?: string; secret?: string; creds?: string }>(ctx);
  const section = { ...(tier[SECTION[tier.Type]] as Record<string, unknown>) };
  if (tier.Type === "gcs") {
    if (!creds.creds) {
      throw adminFail("XMinioAdminTierMissingCredentials", "GCS tiers need a credentials file", 403);
    }
    section.Creds = creds.creds;
  } else if (tier.Type === "azure") {
    if (!creds.access || !creds.secret) {
      throw adminFail("XMinioAdminTierMissingCredentials", "Azure tiers need an account name and key", 403);
    }
    section.AccountName = creds.access;
    section.AccountKey = creds.secret;
  } else {
    if (!creds.access || !creds.secret) {
      throw adminFail(
        "XMinioAdminTierMissingCredentials",
        "S3 tiers need an access key and a secret key",
        403,
      );
    }
    section.AccessKey = creds.access;
    section.SecretKey = creds.secret;
  }
  const updated = { ...tier, [SECTION[tier.Type]]: section };
  if (tier.Type === "s3" || tier.Type === "minio") await backendHasObjects(ctx, updated); // the new credentials must work
  await ctx.tiers.save(ctx.tiers.tiers.map((t) => (t.Name === name ? updated : t)));
  return empty(204);
}

export async function removeTier(ctx: AdminContext, name: string): Promise<Response> {
  requireAction(ctx, "admin:SetTier");
  const tier = tierNamed(ctx, name);
  // Versions whose data lives on the tier would become unreadable: refused, force or not.
  const used = ctx.tiers.usage(name);
  if (used.versions > 0) {
    throw adminFail(
      "XMinioAdminTierBackendNotEmpty",
      `Specified remote tier is in use: ${used.versions} object version(s) have their data on tier ${name}`,
      400,
    );
  }
  // Objects transitioned there would become unreadable: a backend still holding data is not let go.
  if (
    ctx.query.get("force") !== "true" && (tier.Type === "s3" || tier.Type === "minio") &&
    await backendHasObjects(ctx, tier)
  ) {
    throw adminFail("XMinioAdminTierBackendNotEmpty", "Specified remote backend is not empty", 400);
  }
  await ctx.tiers.save(ctx.tiers.tiers.filter((t) => t.Name !== name));
  return empty(204);
}

export async function verifyTier(ctx: AdminContext, name: string): Promise<Response> {
  requireAction(ctx, "admin:ListTier");
  const tier = tierNamed(ctx, name);
  if (tier.Type === "gcs" || tier.Type === "azure") {
    throw adminFail(
      "NotImplemented",
      `The embedded storage cannot reach ${
        SECTION[tier.Type]
      } tiers; only S3 and MinIO tiers can be verified and used`,
      501,
    );
  }
  await backendHasObjects(ctx, tier);
  return empty(204);
}

export async function tierStats(ctx: AdminContext): Promise<Response> {
  requireAction(ctx, "admin:ListTier");
  return json(ctx.tiers.tiers.map((t) => {
    const used = ctx.tiers.usage(t.Name);
    return {
      Name: t.Name,
      Type: t.Type,
      Stats: { totalSize: used.bytes, numVersions: used.versions, numObjects: used.objects },
    };
  }));
}
