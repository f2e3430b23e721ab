/**
 * Remote tiers (spec 2 Tiers, api-index §7): listed without secrets, added with the fields spec 2 §5
 * requires per type and the tier name rule, and their credentials replaced. The storage's tier admin API
 * (minio-protocol §3.12) does the rest, including the in-use checks.
 */
import {
  type AddTierInput,
  TIER_INFO_ERROR,
  TIER_NAME,
  TIER_NAME_MESSAGE,
  type TierCredentialsInput,
  type TierView,
} from "../../lib/contract/settings.ts";
import { EMPTY_FIELD } from "../../lib/contract/settings_fields.ts";
import { ApiError } from "../http/errors.ts";
import { addTier, editTierCredentials, listTiers, type TierConfig } from "../../lib/s3/admin/buckets.ts";
import type { S3Client } from "../../lib/s3/client.ts";
import { type MessageKey, t } from "../../../islands/lib/i18n/t.ts";

/** Tiers without their secrets. */
export async function listTierViews(client: S3Client): Promise<{ items: TierView[] }> {
  const items = (await listTiers(client)).map((t): TierView => {
    const c = (t.S3 ?? t.MinIO ?? t.GCS ?? t.Azure ?? {}) as {
      Endpoint?: string;
      Bucket?: string;
      Prefix?: string;
      Region?: string;
      StorageClass?: string;
    };
    const view = {
      name: t.Name,
      endpoint: c.Endpoint ?? "",
      bucket: c.Bucket ?? "",
      prefix: c.Prefix ?? "",
      region: c.Region ?? "",
    };
    const type = t.Type === "minio" ? "minio" : t.Type;
    return type === "s3"
      ? { type, s3: { ...view, storageclass: c.StorageClass ?? "" } }
      : { type, [type]: view };
  });
  return { items };
}

/** Refuses a tier form; `problems` are message keys (or texts), sent in the request's language. */
function invalid(problems: Record<string, string>): never {
  const fields = Object.fromEntries(
    Object.entries(problems).map(([key, problem]) => [key, t(problem as MessageKey)]),
  );
  throw new ApiError(400, t("settings.tiers.invalid"), {
    detail: Object.entries(fields).map(([k, m]) => `${k}: ${m}`).join("; "),
    fields,
  });
}

/** Checks a new tier as spec 2 §5 asks and builds MinIO's TierConfig. */
export function tierConfigOf(input: AddTierInput): TierConfig {
  const section = input[input.type];
  if (!section) invalid({ [input.type]: t("settings.tiers.sectionMissing", { type: input.type }) });
  const fields: Record<string, string> = {};
  const required = (name: string, value: string | undefined) => {
    if (!value?.trim()) fields[name] = EMPTY_FIELD;
  };
  for (const name of ["name", "endpoint", "bucket", "prefix", "region"] as const) {
    required(name, section[name]);
  }
  if (!fields.name && !TIER_NAME.test(section.name)) fields.name = TIER_NAME_MESSAGE;
  const s = section as Record<string, string>;
  if (input.type === "s3" || input.type === "minio") {
    (required("accesskey", s.accesskey), required("secretkey", s.secretkey));
  }
  if (input.type === "gcs") required("creds", s.creds);
  if (input.type === "azure") (required("accountname", s.accountname), required("accountkey", s.accountkey));
  if (Object.keys(fields).length) invalid(fields);
  const common = {
    Endpoint: section.endpoint.trim(),
    Bucket: section.bucket.trim(),
    Prefix: section.prefix ?? "",
    Region: section.region ?? "",
  };
  const base = { Version: "v1" as const, Name: section.name };
  switch (input.type) {
    case "s3":
      return {
        ...base,
        Type: "s3",
        S3: {
          ...common,
          AccessKey: s.accesskey,
          SecretKey: s.secretkey,
          StorageClass: s.storageclass || undefined,
        },
      };
    case "minio":
      return { ...base, Type: "minio", MinIO: { ...common, AccessKey: s.accesskey, SecretKey: s.secretkey } };
    case "gcs":
      return { ...base, Type: "gcs", GCS: { ...common, Creds: s.creds } };
    case "azure":
      return {
        ...base,
        Type: "azure",
        Azure: { ...common, AccountName: s.accountname, AccountKey: s.accountkey },
      };
  }
}

export async function createTier(client: S3Client, input: AddTierInput): Promise<void> {
  await addTier(client, tierConfigOf(input));
}

export async function getTier(client: S3Client, type: string, name: string): Promise<TierView> {
  const tier = (await listTierViews(client)).items.find((t) =>
    t.type === type && (t[t.type] as { name: string } | undefined)?.name === name
  );
  if (!tier) throw ApiError.notFound(t("settings.tiers.notFound"), t(TIER_INFO_ERROR as MessageKey));
  return tier;
}

/** Replaces a tier's credentials: access and secret key (s3, azure) or the credentials file (gcs). */
export async function updateTierCredentials(
  client: S3Client,
  type: string,
  name: string,
  input: TierCredentialsInput,
): Promise<void> {
  if (!name) throw ApiError.badRequest(t(TIER_INFO_ERROR as MessageKey));
  const fields: Record<string, string> = {};
  if (type === "gcs") {
    if (!input.creds) fields.creds = EMPTY_FIELD;
  } else if (type === "s3" || type === "azure" || type === "minio") {
    if (!input.access_key.trim()) fields.access_key = EMPTY_FIELD;
    if (!input.secret_key.trim()) fields.secret_key = EMPTY_FIELD;
  } else {
    throw ApiError.badRequest(
      t("settings.tiers.invalidType"),
      t("settings.tiers.invalidTypeDetail", { type }),
    );
  }
  if (Object.keys(fields).length) invalid(fields);
  await editTierCredentials(
    client,
    name,
    type === "gcs"
      ? { creds: input.creds }
      : { access: input.access_key.trim(), secret: input.secret_key.trim() },
  );
}
