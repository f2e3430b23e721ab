/** The storage protocol client's public surface: `import * as s3 from "../s3/mod.ts"`. */
export * from "./client.ts";
export * from "./errors.ts";
export * from "./sts.ts";
export * from "./ops/buckets.ts";
export * from "./ops/bucket_config.ts";
export * from "./ops/lifecycle.ts";
export * from "./ops/replication.ts";
export * from "./ops/notification.ts";
export * from "./ops/objects.ts";
export * from "./ops/object_lock.ts";
export * from "./ops/multipart.ts";
export * from "./admin/info.ts";
export * from "./admin/iam.ts";
export * from "./admin/service_accounts.ts";
export * from "./admin/config_kv.ts";
export * from "./admin/buckets.ts";
