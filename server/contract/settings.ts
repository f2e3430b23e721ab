/** Wire types and input schemas of the server configuration calls used so far (api-index §7). */
import * as s from "./schema.ts";

export interface ConfigInfo {
  name: string;
  key_values: { key: string; value: string }[];
}

/** PUT /api/v1/configs/{name} */
export const SetConfigInput = s.object({
  key_values: s.array(s.object({ key: s.string({ min: 1, max: 128, pattern: /^[a-z_][a-z0-9_]*$/ }), value: s.string({ max: 16_384 }) }), { min: 1, max: 100 }),
  arn_resource_id: s.optional(s.string({ max: 128, pattern: /^[A-Za-z0-9_-]*$/ }), ""),
});
export type SetConfigInput = s.Infer<typeof SetConfigInput>;
