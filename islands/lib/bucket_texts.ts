/**
 * The Buckets area's checks shared with the server (server/lib/contract), worded in the language in force: the
 * create dialog and the console's API answer with the same text, while the contract keeps the storage server's
 * English wording.
 */
import { bucketNameIssue } from "../../server/lib/contract/bucket_names.ts";
import { MAX_QUOTA_BYTES } from "../../server/lib/contract/buckets.ts";
import { capitalizeWord } from "./format.ts";
import { type MessageKey, t } from "./i18n/t.ts";

/** What is wrong with a new bucket's name, or null. */
export function bucketNameMessage(name: string): string | null {
  const issue = bucketNameIssue(name);
  if (!issue) return null;
  return issue.kind === "awsReserved"
    ? t("buckets.name.awsReserved", { affix: issue.affix })
    : t(`buckets.name.${issue.kind}` as MessageKey);
}

/** What is wrong with a quota size in bytes, or null (the contract's quotaProblem, translated). */
export function quotaMessage(bytes: number): string | null {
  if (!Number.isFinite(bytes) || bytes < 1) return t("buckets.quota.tooSmall");
  if (bytes > MAX_QUOTA_BYTES) return t("buckets.quota.tooLarge");
  return null;
}

/** The refusal of an Add Access Rule for a prefix that has one already. */
export const accessRuleExistsMessage = (prefix: string, access: string) =>
  t("buckets.accessRules.exists", { prefix, access });

/** "Private", "Public", "Custom" for PRIVATE, PUBLIC, CUSTOM. */
export const accessLevelText = (level: string) => {
  const lower = level.toLowerCase();
  return ["private", "public", "custom"].includes(lower)
    ? t(`buckets.accessLevel.${lower}` as MessageKey)
    : capitalizeWord(level);
};

/** A rule's status as S3 reports it (Enabled or Disabled), in the language in force. */
export const ruleStatusText = (status: string) =>
  status === "Enabled"
    ? t("common.word.enabled")
    : status === "Disabled"
    ? t("common.word.disabled")
    : status;

/** Compliance and Governance, as the create dialog and the Summary's retention dialog offer them. */
export const retentionModes = () =>
  [
    { value: "compliance", label: t("buckets.retention.compliance") },
    { value: "governance", label: t("buckets.retention.governance") },
  ] as const;
export const retentionUnits = () =>
  [
    { value: "days", label: t("buckets.retention.unitDays") },
    { value: "years", label: t("buckets.retention.unitYears") },
  ] as const;
