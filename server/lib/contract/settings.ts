/** Wire types and input schemas of the Settings area (api-index §7, spec 2 §3). */
import * as s from "./schema.ts";

export interface ConfigInfo {
  name: string;
  key_values: { key: string; value: string }[];
}

export interface ConfigDescriptor {
  key: string;
  description: string;
}

/** PUT /api/v1/configs/{name} */
export const SetConfigInput = s.object({
  key_values: s.array(
    s.object({
      key: s.string({ min: 1, max: 128, pattern: /^[a-z_][a-z0-9_]*$/ }),
      value: s.string({ max: 16_384 }),
    }),
    { min: 1, max: 100 },
  ),
  arn_resource_id: s.optional(s.string({ max: 128, pattern: /^[A-Za-z0-9_-]*$/ }), ""),
});
export type SetConfigInput = s.Infer<typeof SetConfigInput>;

/** GET /api/v1/admin/notification_endpoints: one row per configured target (spec 2 §3 "Notification endpoint"). */
export interface NotificationEndpoint {
  service: string;
  account_id: string;
  status: string;
}

/** POST /api/v1/admin/notification_endpoints */
export const AddNotificationEndpointInput = s.object({
  service: s.literal(
    "webhook",
    "amqp",
    "kafka",
    "mqtt",
    "nats",
    "nsq",
    "mysql",
    "postgres",
    "elasticsearch",
    "redis",
  ),
  account_id: s.string({ min: 1, max: 128, pattern: /^[A-Za-z0-9_-]+$/ }),
  properties: s.record(s.string({ max: 16_384 })),
});
export type AddNotificationEndpointInput = s.Infer<typeof AddNotificationEndpointInput>;

const tierCommon = {
  name: s.string({ min: 1, max: 64 }),
  endpoint: s.string({ min: 1, max: 2048 }),
  bucket: s.string({ min: 1, max: 63 }),
  prefix: s.optional(s.string({ max: 1024 }), ""),
  region: s.optional(s.string({ max: 64 }), ""),
};

/** POST /api/v1/admin/tiers: `type` plus the object named after it (MinIO is sent as s3, spec 2 §3). */
export const AddTierInput = s.object({
  type: s.literal("s3", "gcs", "azure", "minio"),
  s3: s.optional(
    s.object({
      ...tierCommon,
      accesskey: s.string({ max: 512 }),
      secretkey: s.string({ max: 512 }),
      storageclass: s.optional(s.string({ max: 64 }), ""),
    }),
  ),
  minio: s.optional(
    s.object({ ...tierCommon, accesskey: s.string({ max: 512 }), secretkey: s.string({ max: 512 }) }),
  ),
  gcs: s.optional(s.object({ ...tierCommon, creds: s.string({ max: 65_536 }) })),
  azure: s.optional(
    s.object({ ...tierCommon, accountname: s.string({ max: 512 }), accountkey: s.string({ max: 512 }) }),
  ),
});
export type AddTierInput = s.Infer<typeof AddTierInput>;

/** PUT /api/v1/admin/tiers/{type}/{name}/credentials */
export const TierCredentialsInput = s.object({
  access_key: s.optional(s.string({ max: 512 }), ""),
  secret_key: s.optional(s.string({ max: 512 }), ""),
  creds: s.optional(s.string({ max: 65_536 }), ""),
});
export type TierCredentialsInput = s.Infer<typeof TierCredentialsInput>;

/** A tier as the list shows it: no secrets. */
export interface TierView {
  type: "s3" | "gcs" | "azure" | "minio";
  s3?: {
    name: string;
    endpoint: string;
    bucket: string;
    prefix: string;
    region: string;
    storageclass: string;
  };
  gcs?: { name: string; endpoint: string; bucket: string; prefix: string; region: string };
  azure?: { name: string; endpoint: string; bucket: string; prefix: string; region: string };
  minio?: { name: string; endpoint: string; bucket: string; prefix: string; region: string };
}

export const TIER_NAME = /^[A-Z0-9_-]+$/;
/** Message keys of the settings catalogue (islands/lib/i18n/<locale>/settings.ts): the contract holds no language. */
export const TIER_NAME_MESSAGE = "settings.tiers.nameRule";
export const TIER_INFO_ERROR = "settings.tiers.infoError";

export type TierKind = "minio" | "gcs" | "s3" | "azure";

/** Default endpoint per tier type (spec 2 §4). */
export const TIER_DEFAULT_ENDPOINT: Record<TierKind, string> = {
  minio: "",
  gcs: "https://storage.googleapis.com/",
  s3: "https://s3.amazonaws.com",
  azure: "http://blob.core.windows.net",
};
