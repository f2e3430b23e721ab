/** Wire types and input schemas of the Groups area (api-index §4). */
import { iamNameProblem } from "./iam_names.ts";
import * as s from "./schema.ts";
import type { EntityStatus } from "./users.ts";

export interface GroupList {
  groups: string[];
  total: number;
}

export interface Group {
  name: string;
  status: EntityStatus;
  members: string[];
  /** Comma-separated policy names, as the original answered. */
  policy: string;
}

const members = s.optional(s.array(s.string({ min: 1, max: 128 }), { max: 10_000 }), []);

/** POST /api/v1/groups */
export const AddGroupInput = s.object({
  group: s.string({
    min: 1,
    max: 256,
    trim: true,
    pattern: /^[^,]+$/,
    message: "the group name must not be blank or contain commas",
    problem: (name) => iamNameProblem(name, "Group name"),
  }),
  members,
});
export type AddGroupInput = s.Infer<typeof AddGroupInput>;

/** PUT /api/v1/group?name= (a `group` field, sent by the original UI, is ignored). */
export const UpdateGroupInput = s.object({
  members,
  status: s.literal("enabled", "disabled"),
});
export type UpdateGroupInput = s.Infer<typeof UpdateGroupInput>;
