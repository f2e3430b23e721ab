/** Wire types and input schemas of the Policies area (api-index §4, spec 2 §7). */
import * as s from "./schema.ts";
import type { PartFailure } from "./screen.ts";

export interface PolicySummary {
  name: string;
  /** The policy document as JSON text. */
  policy: string;
}

/**
 * GET /api/v1/policy/detail?name=: the Policy detail screen (spec 1) as its page renders it and its Refresh
 * reads it again. The policy itself must be readable (else 404, 403); who holds it may not be.
 */
export interface PolicyDetailView {
  policy: PolicySummary;
  users: string[];
  groups: string[];
  /** Why the users or groups holding the policy could not be read, shown in their place. */
  unavailable: { users?: string; groups?: string };
  /** Every failed read, for the page's banner. */
  failures: PartFailure[];
}

export interface PolicyList {
  policies: PolicySummary[];
  total: number;
}

/** POST /api/v1/policies: creates or overwrites (the policy JSON editor's Save reuses it). */
export const AddPolicyInput = s.object({
  name: s.string({
    min: 1,
    max: 128,
    trim: true,
    pattern: /^[^,\s/\\]+$/,
    message: "the policy name must not be blank or contain commas, spaces or slashes",
  }),
  policy: s.string({ min: 1, max: 20_480 }),
});
export type AddPolicyInput = s.Infer<typeof AddPolicyInput>;
