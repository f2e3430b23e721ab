/** German texts for users, groups, policies (list, detail, builder, Access Check), the account page and service accounts. */
import type { iam as english } from "../en/iam.ts";
import type { Translation } from "../types.ts";

export const iam: Translation<typeof english> = {};
