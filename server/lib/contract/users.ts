/** Wire types and input schemas of the Users area (api-index §4). Imported by the server and islands. */
import { newSecret } from "./account.ts";
import { iamNameProblem } from "./iam_names.ts";
import * as s from "./schema.ts";
import type { PartFailure } from "./screen.ts";

export type EntityStatus = "enabled" | "disabled";

/** A user as the list, detail and create calls return it; lists are never null here. */
export interface User {
  accessKey: string;
  status: EntityStatus;
  memberOf: string[];
  policy: string[];
  /** True when the user or one of its groups has a policy (needed to create service accounts for it). */
  hasPolicy: boolean;
}

/**
 * GET /api/v1/user/detail?name=: the User detail screen (spec 1) as its page renders it and its island reads
 * it again after a change. The user must be readable (else 404, 403); the rest may not be.
 */
export interface UserDetailView {
  user: User;
  serviceAccounts: string[];
  /** Every group and policy name, for the Set Groups and Set Policies dialogs. */
  groups: string[];
  policies: string[];
  /** Why the user's service accounts could not be read, shown in their place. */
  unavailable: { serviceAccounts?: string };
  /** Every failed read, for the page's banner. */
  failures: PartFailure[];
}

export interface UserList {
  users: User[];
}

const accessKey = s.string({
  min: 1,
  max: 128,
  trim: true,
  message: "the access key must not be blank",
  problem: (key) => iamNameProblem(key, "Access key"),
});
const names = s.optional(s.array(s.string({ min: 1, max: 256 }), { max: 1000 }), []);

/** POST /api/v1/users */
export const AddUserInput = s.object({
  accessKey,
  secretKey: newSecret(),
  groups: names,
  policies: names,
});
export type AddUserInput = s.Infer<typeof AddUserInput>;

/**
 * PUT /api/v1/user?name=. `policies` is applied when sent (the Edit User dialog sends it; the original
 * dropped it silently, api-index §12.5); Set Groups and the status toggle omit it and leave policies alone.
 */
export const UpdateUserInput = s.object({
  status: s.literal("enabled", "disabled"),
  groups: names,
  policies: s.optional(s.array(s.string({ min: 1, max: 256 }), { max: 1000 })),
});
export type UpdateUserInput = s.Infer<typeof UpdateUserInput>;

/** PUT /api/v1/users-groups-bulk */
export const BulkUsersGroupsInput = s.object({
  users: s.array(s.string({ min: 1, max: 128 }), { min: 1, max: 10_000 }),
  groups: s.array(s.string({ min: 1, max: 256 }), { min: 1, max: 1000 }),
});
export type BulkUsersGroupsInput = s.Infer<typeof BulkUsersGroupsInput>;

/** PUT /api/v1/set-policy/{names} */
export const SetPolicyInput = s.object({
  entityName: s.string({ min: 1, max: 256 }),
  entityType: s.literal("user", "group"),
});
export type SetPolicyInput = s.Infer<typeof SetPolicyInput>;

/** GET /api/v1/user/access-check?name=&action=&resource= (Deck's effective access check). */
export interface AccessCheck {
  allowed: boolean;
  /** Policy and statement that decided, when one did. */
  policy?: string;
  statementIndex?: number;
  sid?: string;
  effect?: "Allow" | "Deny";
  reason: string;
  /** Policies evaluated: the user's own and its enabled groups'. */
  evaluated: string[];
}
