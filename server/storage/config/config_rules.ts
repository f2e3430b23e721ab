/**
 * What each subsystem's values must mean beyond their key types (server_config.ts checks required keys and
 * on/off, number and URL forms): region names, compression patterns, identity provider settings, and each
 * notification target's own rules. Subsystems the embedded storage cannot act on are refused with
 * NotImplemented rather than stored and ignored.
 */
import { durationSeconds } from "../notify/target.ts";
import { TARGET_TYPES, validateTargetConfig } from "../notify/targets.ts";
import { StoreError } from "../core/errors.ts";

const bad = (message: string) => new StoreError("XMinioAdminConfigBadJSON", message, 400);
const csv = (value: string | undefined) => (value ?? "").split(",").map((v) => v.trim()).filter(Boolean);

/** MinIO's region rule (internal/config/config.go validRegionRegex). */
export const REGION_NAME = /^[a-zA-Z][a-zA-Z0-9-_]+$/;

function checkUrl(name: string, value: string | undefined): void {
  if (!value) return;
  try {
    const url = new URL(value);
    if (url.protocol === "http:" || url.protocol === "https:") return;
  } catch { /* reported below */ }
  throw bad(`'${name}' must be an http:// or https:// URL`);
}

/** Throws when the values of an enabled subsystem target cannot work. */
export function checkSubsystemValues(name: string, values: Record<string, string>): void {
  if (TARGET_TYPES[name]) {
    try {
      validateTargetConfig(name, values);
    } catch (error) {
      throw bad(`${name}: ${error instanceof Error ? error.message : error}`);
    }
    return;
  }
  switch (name) {
    case "region":
      if (!REGION_NAME.test(values.name ?? "")) {
        throw bad(
          "region name must start with a letter and hold only letters, digits, '-' and '_' (e.g. us-west-2)",
        );
      }
      return;
    case "cache":
      throw new StoreError(
        "NotImplemented",
        "The embedded storage keeps objects on one local disk and has no cache tier: the 'cache' subsystem is not implemented",
        501,
      );
    case "etcd":
      throw new StoreError(
        "NotImplemented",
        "The embedded storage is not federated: the 'etcd' subsystem is not implemented",
        501,
      );
    case "compression":
      for (const ext of csv(values.extensions)) {
        if (!/^\.?[A-Za-z0-9_+-]+$/.test(ext)) {
          throw bad(`compression extension '${ext}' must look like .txt`);
        }
      }
      for (const mime of csv(values.mime_types)) {
        if (!/^[a-z0-9.+-]+\/(\*|[a-z0-9.+-]+\*?)$/i.test(mime)) {
          throw bad(`compression MIME type '${mime}' must look like text/* or application/json`);
        }
      }
      return;
    case "identity_openid":
      checkUrl("config_url", values.config_url);
      if (values.config_url && !values.client_id) {
        throw bad("'client_id' is required with 'config_url' for identity_openid");
      }
      if (values.redirect_uri) checkUrl("redirect_uri", values.redirect_uri);
      return;
    case "identity_ldap": {
      if (!/^[^\s:]+:\d+$/.test(values.server_addr ?? "")) {
        throw bad("'server_addr' must be host:port, e.g. myldapserver.com:636");
      }
      // Lookup-bind mode (a service account finds users) or username-format mode (the DN is made from the name).
      if (!values.lookup_bind_dn && !values.username_format) {
        throw bad(
          "set 'lookup_bind_dn' (with 'user_dn_search_base_dn' and 'user_dn_search_filter') or 'username_format'",
        );
      }
      if (values.lookup_bind_dn && !(values.user_dn_search_base_dn || values.username_search_base_dn)) {
        throw bad("'user_dn_search_base_dn' is required with 'lookup_bind_dn'");
      }
      if (values.lookup_bind_dn && !(values.user_dn_search_filter || values.username_search_filter)) {
        throw bad("'user_dn_search_filter' is required with 'lookup_bind_dn'");
      }
      if (values.user_dn_search_filter && !values.user_dn_search_filter.includes("%s")) {
        throw bad("'user_dn_search_filter' must contain %s");
      }
      // A list of bind DNs separated by ";" (DNs contain commas themselves).
      for (const format of (values.username_format ?? "").split(";").filter(Boolean)) {
        if (!format.includes("%s")) throw bad(`username_format '${format}' must contain %s`);
      }
      if (values.username_search_filter && !values.username_search_filter.includes("%s")) {
        throw bad("'username_search_filter' must contain %s");
      }
      if (values.group_search_filter && !/%[sd]/.test(values.group_search_filter)) {
        throw bad("'group_search_filter' must contain %s or %d");
      }
      if (values.sts_expiry) {
        const seconds = durationSeconds(values.sts_expiry);
        if (!seconds || seconds < 900 || seconds > 365 * 86400) {
          throw bad("'sts_expiry' must be a duration between 15m and 365d (e.g. 1h)");
        }
      }
      return;
    }
    case "logger_webhook":
    case "audit_webhook":
      checkUrl("endpoint", values.endpoint);
      if (values.proxy) checkUrl("proxy", values.proxy);
      if (values.queue_dir && !values.queue_dir.startsWith("/")) {
        throw bad(`${name}: queueDir path should be absolute`);
      }
      for (const key of ["batch_size", "queue_size"]) {
        if (values[key] && !/^[1-9]\d{0,8}$/.test(values[key])) {
          throw bad(`${name}: '${key}' must be a whole number above 0`);
        }
      }
      if (values.max_retry && !/^\d{1,9}$/.test(values.max_retry)) {
        throw bad(`${name}: 'max_retry' must be a whole number (0 retries for ever)`);
      }
      for (const key of ["retry_interval", "http_timeout"]) {
        if (!values[key]) continue;
        const seconds = durationSeconds(values[key]);
        if (!(seconds > 0) || (key === "retry_interval" && seconds > 60)) {
          throw bad(
            `${name}: '${key}' must be a duration${
              key === "retry_interval" ? " of at most 1m" : ""
            }, e.g. 3s`,
          );
        }
      }
      if (!values.client_cert !== !values.client_key) {
        throw bad(`${name}: client_cert and client_key must be given together`);
      }
      return;
  }
}
