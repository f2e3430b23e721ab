/**
 * What the policy builder offers to choose from, taken from the policy engine itself (through its validator
 * module): the actions grouped as a person looks for them, the condition operators and keys, and resources
 * read and written as `arn:aws:s3:::` names.
 */
import { t } from "../i18n/t.ts";
import {
  ADMIN_ACTIONS,
  CONDITION_KEYS,
  CONDITION_OPERATORS,
  type Decision,
  isKnownAction,
  KMS_ACTIONS,
  S3_ACTIONS,
  wildcardMatch,
} from "../../../server/lib/policy/validate.ts";

export const ARN_PREFIX = "arn:aws:s3:::";

export interface ActionGroup {
  /** The group's heading, in the language in force. */
  label: string;
  actions: string[];
}

/** A group of actions as the engine lists them; its heading is looked up when shown. */
interface ActionGroupSource {
  label: () => string;
  actions: string[];
}

const concrete = (list: readonly string[]) => list.filter((a) => !a.endsWith(":*"));
const IDENTITY = /User|Group|Policy|ServiceAccount|TemporaryAccounts|IAM/;
const OBJECT = /Object|Multipart|Replicate|BypassGovernance/;

/** Every action the engine knows, grouped: wildcards first, then S3 buckets and objects, admin, KMS. */
const ACTION_GROUPS: ActionGroupSource[] = [
  { label: () => t("iam.actions.groupWildcards"), actions: ["*", "s3:*", "admin:*", "kms:*"] },
  {
    label: () => t("iam.actions.groupS3Buckets"),
    actions: concrete(S3_ACTIONS).filter((a) => !OBJECT.test(a)),
  },
  {
    label: () => t("iam.actions.groupS3Objects"),
    actions: concrete(S3_ACTIONS).filter((a) => OBJECT.test(a)),
  },
  {
    label: () => t("iam.actions.groupAdminIdentity"),
    actions: concrete(ADMIN_ACTIONS).filter((a) => IDENTITY.test(a)),
  },
  {
    label: () => t("iam.actions.groupAdminServer"),
    actions: concrete(ADMIN_ACTIONS).filter((a) => !IDENTITY.test(a)),
  },
  { label: () => t("iam.actions.groupKms"), actions: concrete(KMS_ACTIONS) },
];

const ALL_CONCRETE = ACTION_GROUPS.slice(1).flatMap((g) => g.actions);

/** Groups narrowed to the actions whose name holds the query (case and spaces ignored); empty groups go. */
export function searchActions(query: string): ActionGroup[] {
  const q = query.toLowerCase().replace(/\s+/g, "");
  return ACTION_GROUPS
    .map((group) => ({
      label: group.label(),
      actions: group.actions.filter((a) => a.toLowerCase().includes(q)),
    }))
    .filter((group) => group.actions.length > 0);
}

/** Whether text typed in the action search is a pattern the engine accepts (`s3:Get*`), to add as it is. */
export const isActionPattern = (text: string) => /[*?]/.test(text) && isKnownAction(text);

/** The known actions a list of names and patterns covers, in the engine's order. */
export function expandActions(patterns: string[]): string[] {
  return ALL_CONCRETE.filter((action) => patterns.some((p) => wildcardMatch(p, action)));
}

/** Condition operators offered, with what the statement already uses (qualified forms included). */
export function operatorOptions(current?: string): string[] {
  return current && !CONDITION_OPERATORS.includes(current)
    ? [current, ...CONDITION_OPERATORS]
    : CONDITION_OPERATORS;
}

/** Condition keys offered as suggestions; any other key may be typed. */
export const CONDITION_KEY_OPTIONS: readonly string[] = CONDITION_KEYS;

/** Which objects of a bucket a resource covers. */
export type ResourceScope = "bucket" | "objects" | "prefix" | "object";

/**
 * The resource name for a bucket ("*" for every bucket) and what of it: the bucket itself, every object,
 * the objects under a prefix, or one object.
 */
export function resourceArn(bucket: string, scope: ResourceScope, path = ""): string {
  const name = bucket.trim() || "*";
  if (name === "*") return `${ARN_PREFIX}*`;
  if (scope === "bucket") return `${ARN_PREFIX}${name}`;
  if (scope === "objects") return `${ARN_PREFIX}${name}/*`;
  if (scope === "prefix") return `${ARN_PREFIX}${name}/${path.replace(/^\/+/, "").replace(/\*$/, "")}*`;
  return `${ARN_PREFIX}${name}/${path.replace(/^\/+/, "")}`;
}

/** A resource said in words: "every bucket and object", "objects under 2024/ in photos", … */
export function describeResource(arn: string): string {
  if (arn === "*" || arn === `${ARN_PREFIX}*`) return t("iam.resources.everything");
  if (!arn.startsWith(ARN_PREFIX)) return arn;
  const body = arn.slice(ARN_PREFIX.length);
  const slash = body.indexOf("/");
  const bucket = slash < 0 ? body : body.slice(0, slash);
  const path = slash < 0 ? null : body.slice(slash + 1);
  const buckets = /[*?]/.test(bucket)
    ? t("iam.resources.bucketsMatching", { pattern: bucket })
    : t("iam.resources.bucketNamed", { name: bucket });
  if (path === null) return buckets;
  if (path === "*") return t("iam.resources.everyObjectIn", { buckets });
  if (/^[^*?]*\*$/.test(path)) return t("iam.resources.objectsUnder", { prefix: path.slice(0, -1), buckets });
  if (/[*?]/.test(path)) return t("iam.resources.objectsMatching", { pattern: path, buckets });
  return t("iam.resources.objectIn", { key: path, buckets });
}

/** Why the evaluator decided as it did, in the language in force (the evaluator's own reason is English). */
export function decisionReason(decision: Decision): string {
  if (decision.statementIndex !== undefined && decision.policy !== undefined) {
    const statement = decision.sid ? `"${decision.sid}"` : String(decision.statementIndex + 1);
    const params = { statement, policy: decision.policy };
    return decision.effect === "Deny"
      ? t("iam.access.reasonDenied", params)
      : t("iam.access.reasonAllowed", params);
  }
  if (decision.allowed) return t("iam.access.reasonOwner");
  return decision.reason === "no policy" ? t("iam.access.reasonNoPolicy") : t("iam.access.reasonNone");
}

/** Splits an ARN typed in the access check into the bucket and key a request names. */
export function requestTarget(resource: string): { bucket: string; key: string } {
  const body = resource.startsWith(ARN_PREFIX) ? resource.slice(ARN_PREFIX.length) : resource;
  const slash = body.indexOf("/");
  return slash < 0 ? { bucket: body, key: "" } : { bucket: body.slice(0, slash), key: body.slice(slash + 1) };
}
