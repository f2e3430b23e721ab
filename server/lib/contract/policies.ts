/** Wire types and input schemas of the Policies area (api-index §4, spec 2 §7). */
import * as s from "./schema.ts";

export interface PolicySummary {
  name: string;
  /** The policy document as JSON text. */
  policy: string;
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
