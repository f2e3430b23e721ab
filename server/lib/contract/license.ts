/** Subscription / licence wire types (api-index §11, spec 3 §3 "Subscription info"). */
import * as s from "./schema.ts";

/** GET /api/v1/subscription/info (and the answer of validate and refresh). */
export interface SubscriptionInfo {
  email: string;
  organization: string;
  account_id: number;
  /** Registered capacity in TiB (1099511627776 bytes each). */
  storage_capacity: number;
  /** STANDARD or ENTERPRISE; other values are treated as Standard when highlighting the plan. */
  plan: string;
  /** RFC 3339. */
  expires_at: string;
}

/** POST /api/v1/subscription/validate: a licence key, or SUBNET credentials. */
export const ValidateLicenseInput = s.object({
  license: s.optional(s.string({ max: 16384 }), ""),
  email: s.optional(s.string({ max: 320 }), ""),
  password: s.optional(s.string({ max: 1024 }), ""),
});
export type ValidateLicenseInput = s.Infer<typeof ValidateLicenseInput>;

export const TIB = 1099511627776;

export type PlanName = "Community" | "Standard" | "Enterprise";

/** The plan the page highlights: none → Community, ENTERPRISE → Enterprise, anything else → Standard. */
export function currentPlan(info: SubscriptionInfo | null): PlanName {
  if (!info) return "Community";
  return info.plan.toUpperCase() === "ENTERPRISE" ? "Enterprise" : "Standard";
}
