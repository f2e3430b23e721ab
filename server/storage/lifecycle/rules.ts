/**
 * Which lifecycle action is due for each version of one key (minio-protocol-2 §6.1), as a pure function of
 * the key's versions, the bucket's rules and the time. Days count from the version's modification time
 * (noncurrent ones from their successor's) to the first "midnight" after it; a lifecycle day normally lasts
 * 24 h, and tests shorten it (the scanner's `dayMs` setting).
 */
import type { LifecycleRule } from "../../lib/s3/ops/lifecycle.ts";
import type { ObjectRecord, VersionRecord } from "../core/records.ts";

export const DAY_MS = 86_400_000;

export type LifecycleAction =
  /** The latest version expires: a delete marker under versioning, a removal otherwise. */
  | { kind: "expire-current"; version: VersionRecord; rule: string }
  /** A noncurrent version or a lone expired delete marker goes for good. */
  | { kind: "expire-version"; version: VersionRecord; rule: string; reason: "noncurrent" | "delete-marker" }
  | { kind: "transition"; version: VersionRecord; tier: string; rule: string };

/** The first day boundary after `t + days` (t itself for 0 days, "immediately"). */
export function dueAfterDays(t: number, days: number, dayMs = DAY_MS): number {
  if (days === 0) return t;
  return Math.floor((t + (days + 1) * dayMs) / dayMs) * dayMs;
}

/** Whether an enabled rule's filter (prefix, every tag, size bounds) selects this key and version. */
export function ruleApplies(rule: LifecycleRule, key: string, version: VersionRecord): boolean {
  if (rule.status !== "Enabled") return false;
  if (rule.prefix && !key.startsWith(rule.prefix)) return false;
  if (rule.sizeGreaterThan !== undefined && !(version.size > rule.sizeGreaterThan)) return false;
  if (rule.sizeLessThan !== undefined && !(version.size < rule.sizeLessThan)) return false;
  return (rule.tags ?? []).every((t) => version.tags?.[t.key] === t.value);
}

const time = (iso: string) => Date.parse(iso);

/** The actions due now for one key's versions (at most one per version). */
export function dueActions(
  record: ObjectRecord,
  rules: LifecycleRule[],
  now: number,
  dayMs = DAY_MS,
): LifecycleAction[] {
  const actions: LifecycleAction[] = [];
  const versions = record.versions;
  const latest = versions[0];
  if (!latest) return actions;
  if (latest.deleteMarker) {
    // A delete marker with nothing left behind it is "expired" (ExpiredObjectDeleteMarker, or Days on it).
    if (versions.length === 1) {
      for (const rule of rules) {
        if (!ruleApplies(rule, record.key, latest) || !rule.expiration) continue;
        const e = rule.expiration;
        const due = e.expiredObjectDeleteMarker
          ? now
          : e.days !== undefined
          ? dueAfterDays(time(latest.lastModified), e.days, dayMs)
          : Infinity;
        if (due <= now) {
          actions.push({ kind: "expire-version", version: latest, rule: rule.id, reason: "delete-marker" });
          break;
        }
      }
    }
  } else {
    let expiry: { due: number; rule: string } | null = null;
    let transition: { due: number; rule: string; tier: string } | null = null;
    for (const rule of rules) {
      if (!ruleApplies(rule, record.key, latest)) continue;
      const e = rule.expiration;
      for (
        const due of [
          e?.date ? time(e.date) : Infinity,
          e?.days !== undefined ? dueAfterDays(time(latest.lastModified), e.days, dayMs) : Infinity,
        ]
      ) {
        if (due <= now && (!expiry || due < expiry.due)) expiry = { due, rule: rule.id };
      }
      const t = rule.transition;
      if (t && !latest.transition) {
        for (
          const due of [
            t.date ? time(t.date) : Infinity,
            t.days !== undefined ? dueAfterDays(time(latest.lastModified), t.days, dayMs) : Infinity,
          ]
        ) {
          if (due <= now && (!transition || due < transition.due)) {
            transition = { due, rule: rule.id, tier: t.storageClass };
          }
        }
      }
    }
    // Expiration wins over a transition that is due as well.
    if (expiry) actions.push({ kind: "expire-current", version: latest, rule: expiry.rule });
    else if (transition) {
      actions.push({ kind: "transition", version: latest, tier: transition.tier, rule: transition.rule });
    }
  }
  // Noncurrent versions, newest first: each one kept counts towards NewerNoncurrentVersions.
  let kept = 0;
  for (let i = 1; i < versions.length; i++) {
    const version = versions[i];
    const noncurrentSince = time(versions[i - 1].lastModified);
    let expire: string | null = null;
    let transition: { rule: string; tier: string } | null = null;
    for (const rule of rules) {
      if (!ruleApplies(rule, record.key, version)) continue;
      const nce = rule.noncurrentExpiration;
      if (
        nce && !expire && dueAfterDays(noncurrentSince, nce.noncurrentDays, dayMs) <= now &&
        kept >= (nce.newerNoncurrentVersions ?? 0)
      ) expire = rule.id;
      const nct = rule.noncurrentTransition;
      if (
        nct && !transition && !version.deleteMarker && !version.transition &&
        dueAfterDays(noncurrentSince, nct.noncurrentDays, dayMs) <= now
      ) {
        transition = { rule: rule.id, tier: nct.storageClass };
      }
    }
    if (expire) {
      actions.push({ kind: "expire-version", version, rule: expire, reason: "noncurrent" });
      continue;
    }
    kept++;
    if (transition) {
      actions.push({ kind: "transition", version, tier: transition.tier, rule: transition.rule });
    }
  }
  return actions;
}

/** Whether an incomplete multipart upload of `key` started at `initiated` is due for abort. */
export function uploadAbortDue(
  rules: LifecycleRule[],
  key: string,
  initiated: number,
  now: number,
  dayMs = DAY_MS,
): string | null {
  for (const rule of rules) {
    if (
      rule.status !== "Enabled" || rule.abortIncompleteMultipartUploadDays === undefined || rule.tags?.length
    ) continue;
    if (rule.sizeGreaterThan !== undefined || rule.sizeLessThan !== undefined) continue;
    if (rule.prefix && !key.startsWith(rule.prefix)) continue;
    if (dueAfterDays(initiated, rule.abortIncompleteMultipartUploadDays, dayMs) <= now) return rule.id;
  }
  return null;
}

/** The lifecycle action a version is heading for, as GET, HEAD and PUT responses announce it (protocol-2 §6.2). */
export interface UpcomingAction {
  kind: "expiration" | "transition";
  /** When it becomes due (ms since the epoch). */
  due: number;
  rule: string;
}

/**
 * The next action of any rule that applies to this version, due or not (MinIO evaluates the rules with no
 * "now"): the earliest, and an expiration over a transition due at the same time. A noncurrent expiration
 * that keeps NewerNoncurrentVersions depends on the other versions and predicts nothing, as in MinIO.
 * Encrypted versions are never transitioned here (actions.ts), so no transition is predicted for them.
 */
export function upcomingAction(
  record: ObjectRecord,
  version: VersionRecord,
  rules: LifecycleRule[],
  dayMs = DAY_MS,
): UpcomingAction | null {
  const index = record.versions.indexOf(version);
  if (index === -1 || version.deleteMarker) return null;
  const movable = !version.transition && !version.sse;
  const candidates: UpcomingAction[] = [];
  const add = (kind: UpcomingAction["kind"], due: number | undefined, rule: string) => {
    if (due !== undefined && Number.isFinite(due)) candidates.push({ kind, due, rule });
  };
  for (const rule of rules) {
    if (!ruleApplies(rule, record.key, version)) continue;
    if (index === 0) {
      const modified = time(version.lastModified);
      const e = rule.expiration;
      add(
        "expiration",
        e?.date ? time(e.date) : e?.days !== undefined ? dueAfterDays(modified, e.days, dayMs) : undefined,
        rule.id,
      );
      const t = rule.transition;
      if (t && movable) {
        add(
          "transition",
          t.date ? time(t.date) : t.days !== undefined ? dueAfterDays(modified, t.days, dayMs) : undefined,
          rule.id,
        );
      }
    } else {
      const noncurrentSince = time(record.versions[index - 1].lastModified);
      const nce = rule.noncurrentExpiration;
      if (nce && !nce.newerNoncurrentVersions) {
        add("expiration", dueAfterDays(noncurrentSince, nce.noncurrentDays, dayMs), rule.id);
      }
      const nct = rule.noncurrentTransition;
      if (nct && movable) {
        add("transition", dueAfterDays(noncurrentSince, nct.noncurrentDays, dayMs), rule.id);
      }
    }
  }
  let next: UpcomingAction | null = null;
  for (const c of candidates) {
    if (
      !next || c.due < next.due ||
      (c.due === next.due && c.kind === "expiration" && next.kind === "transition")
    ) next = c;
  }
  return next;
}
