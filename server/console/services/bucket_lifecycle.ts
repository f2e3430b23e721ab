/**
 * Bucket lifecycle rules (spec 2 Lifecycle, Add Lifecycle Rule, Edit Lifecycle Configuration): expiry and
 * transition by days or date, noncurrent versions, tags, expired delete markers; enable/disable; refused
 * duplicates and rules that do nothing.
 */
import type {
  AddLifecycleInput,
  LifecycleRuleView,
  UpdateLifecycleInput,
} from "../../lib/contract/buckets.ts";
import { ApiError } from "../http/errors.ts";
import type { S3Client } from "../../lib/s3/client.ts";
import { getBucketLifecycle, type LifecycleRule, putBucketLifecycle } from "../../lib/s3/ops/lifecycle.ts";
import { parseTagString } from "./bucket_replication.ts";
import { unlessUnsupported } from "./unsupported.ts";
import { t } from "../../../islands/lib/i18n/t.ts";

const ZERO_DATE = "0001-01-01T00:00:00Z";

export function toLifecycleView(r: LifecycleRule): LifecycleRuleView {
  return {
    id: r.id,
    prefix: r.prefix ?? "",
    status: r.status,
    expiration: {
      date: r.expiration?.date ?? ZERO_DATE,
      days: r.expiration?.days ?? 0,
      delete_marker: !!r.expiration?.expiredObjectDeleteMarker,
    },
    transition: {
      date: r.transition?.date ?? ZERO_DATE,
      days: r.transition?.days ?? 0,
      storage_class: r.transition?.storageClass ?? "",
    },
    tags: r.tags ?? [],
  };
}

export async function listLifecycle(
  client: S3Client,
  bucket: string,
): Promise<{ lifecycle: LifecycleRuleView[] }> {
  return {
    lifecycle:
      (await unlessUnsupported(t("buckets.unsupported.lifecycle"), getBucketLifecycle(client, bucket))).map(
        toLifecycleView,
      ),
  };
}

/** The day of a date the browser sent (date at 23:59:59Z or a plain date) as S3 wants it: midnight UTC. */
function lifecycleDate(text: string, field: "expiry" | "transition"): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(text);
  const date = match ? new Date(`${match[1]}-${match[2]}-${match[3]}T00:00:00Z`) : null;
  if (!date || Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== text.slice(0, 10)) {
    throw ApiError.badRequest(
      field === "expiry" ? t("buckets.error.invalidExpiryDate") : t("buckets.error.invalidTransitionDate"),
      t("buckets.lifecycle.notADate", { text }),
    );
  }
  return date.toISOString().replace(".000Z", "Z");
}

/** Builds the rule from the form; at least one action, days at least 1, a tier for transitions. */
export function lifecycleRuleFrom(input: AddLifecycleInput, id: string): LifecycleRule {
  const rule: LifecycleRule = {
    id,
    status: input.disable ? "Disabled" : "Enabled",
    prefix: input.prefix || undefined,
  };
  const tags = parseTagString(input.tags ?? "");
  if (tags.length) rule.tags = tags;
  if (input.expiry_date) rule.expiration = { date: lifecycleDate(input.expiry_date, "expiry") };
  else if (input.expiry_days) rule.expiration = { days: input.expiry_days };
  if (input.expired_object_delete_marker) {
    rule.expiration = { ...rule.expiration, expiredObjectDeleteMarker: true };
  }
  if (input.noncurrentversion_expiration_days) {
    rule.noncurrentExpiration = { noncurrentDays: input.noncurrentversion_expiration_days };
  }
  if (input.transition_date || input.transition_days) {
    if (!input.storage_class) {
      throw ApiError.badRequest(
        t("buckets.error.storageClassRequired"),
        t("buckets.lifecycle.transitionNeedsTier"),
      );
    }
    rule.transition = input.transition_date
      ? { date: lifecycleDate(input.transition_date, "transition"), storageClass: input.storage_class }
      : { days: input.transition_days, storageClass: input.storage_class };
  }
  if (input.noncurrentversion_transition_days) {
    if (!input.noncurrentversion_transition_storage_class) {
      throw ApiError.badRequest(
        t("buckets.error.storageClassRequired"),
        t("buckets.lifecycle.noncurrentNeedsTier"),
      );
    }
    rule.noncurrentTransition = {
      noncurrentDays: input.noncurrentversion_transition_days,
      storageClass: input.noncurrentversion_transition_storage_class,
    };
  }
  if (!rule.expiration && !rule.transition && !rule.noncurrentExpiration && !rule.noncurrentTransition) {
    throw ApiError.badRequest(t("buckets.error.ruleDoesNothing"), t("buckets.lifecycle.nothingSet"));
  }
  return rule;
}

const scopeOf = (r: LifecycleRule) =>
  `${r.prefix ?? ""}|${(r.tags ?? []).map((t) => `${t.key}=${t.value}`).sort().join("&")}`;
const actionsOf = (r: LifecycleRule) =>
  [
    r.expiration && "expiration",
    r.transition && "transition",
    r.noncurrentExpiration && "noncurrent-expiration",
    r.noncurrentTransition && "noncurrent-transition",
  ].filter(Boolean) as string[];

export async function addLifecycleRule(
  client: S3Client,
  bucket: string,
  input: AddLifecycleInput,
): Promise<void> {
  const rules = await unlessUnsupported(
    t("buckets.unsupported.lifecycle"),
    getBucketLifecycle(client, bucket),
  );
  const rule = lifecycleRuleFrom(input, crypto.randomUUID().replace(/-/g, "").slice(0, 20));
  const clash = rules.find((r) =>
    scopeOf(r) === scopeOf(rule) && actionsOf(r).some((a) => actionsOf(rule).includes(a))
  );
  if (clash) {
    throw new ApiError(409, t("buckets.error.duplicateLifecycle"), {
      detail: t("buckets.lifecycle.duplicate", { rule: clash.id }),
    });
  }
  await unlessUnsupported(
    t("buckets.unsupported.lifecycle"),
    putBucketLifecycle(client, bucket, [...rules, rule]),
  );
}

export async function updateLifecycleRule(
  client: S3Client,
  bucket: string,
  id: string,
  input: UpdateLifecycleInput,
): Promise<void> {
  const rules = await getBucketLifecycle(client, bucket);
  const rule = rules.find((r) => r.id === id);
  if (!rule) throw ApiError.notFound("not found", t("buckets.lifecycle.noSuchRule", { rule: id }));
  rule.status = input.disable ? "Disabled" : "Enabled";
  if (input.tags !== undefined) {
    const tags = parseTagString(input.tags);
    rule.tags = tags.length ? tags : undefined;
  }
  await putBucketLifecycle(client, bucket, rules);
}
