/**
 * The headers GET, HEAD and PUT responses carry about a version's next lifecycle action (minio-protocol-2
 * §6.2), as MinIO sends them: `x-amz-expiration: expiry-date="<RFC 1123>", rule-id="<id>"` when an expiry comes
 * next, `X-Minio-Transition: transition-date="…", rule-id="…"` when a transition does (only one of the two).
 * The rules and the day length are the scanner's, so what is announced is what the scanner will do.
 */
import type { LifecyclePredictions } from "../fs/store.ts";
import type { LifecycleScanner } from "./scanner.ts";
import { type UpcomingAction, upcomingAction } from "./rules.ts";
import type { BucketState, VersionRecord } from "../core/records.ts";

/** The header announcing `next` (HTTP dates carry whole seconds). */
export function predictionHeader(next: UpcomingAction): Record<string, string> {
  const date = new Date(next.due).toUTCString();
  return next.kind === "expiration"
    ? { "x-amz-expiration": `expiry-date="${date}", rule-id="${next.rule}"` }
    : { "x-minio-transition": `transition-date="${date}", rule-id="${next.rule}"` };
}

export function lifecyclePredictions(scanner: LifecycleScanner): LifecyclePredictions {
  return {
    async headers(state: BucketState, key: string, version: VersionRecord) {
      const record = state.objects.get(key);
      if (!record) return {};
      const rules = await scanner.rules(state.name);
      if (rules.length === 0) return {};
      const next = upcomingAction(record, version, rules, scanner.dayMs);
      return next ? predictionHeader(next) : {};
    },
  };
}
