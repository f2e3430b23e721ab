/**
 * The condition operators and keys the policy engine knows (minio-protocol §6.2), shared by the validator, the
 * evaluator and the console's policy builder. Pure and browser-safe.
 */

const STRING_OPS = [
  "StringEquals",
  "StringNotEquals",
  "StringEqualsIgnoreCase",
  "StringNotEqualsIgnoreCase",
  "StringLike",
  "StringNotLike",
];
const NUMERIC_OPS = [
  "NumericEquals",
  "NumericNotEquals",
  "NumericLessThan",
  "NumericLessThanEquals",
  "NumericGreaterThan",
  "NumericGreaterThanEquals",
];
const DATE_OPS = [
  "DateEquals",
  "DateNotEquals",
  "DateLessThan",
  "DateLessThanEquals",
  "DateGreaterThan",
  "DateGreaterThanEquals",
];
const OTHER_OPS = [
  "BinaryEquals",
  "IpAddress",
  "NotIpAddress",
  "Null",
  "Bool",
  "ArnEquals",
  "ArnLike",
  "ArnNotEquals",
  "ArnNotLike",
];
/** Condition operators, without the ForAllValues:/ForAnyValue: qualifiers or the IfExists suffix. */
export const CONDITION_OPERATORS = [...STRING_OPS, ...NUMERIC_OPS, ...DATE_OPS, ...OTHER_OPS];

/**
 * Condition keys the engine fills in from a request, spelled as MinIO spells them (minio/pkg
 * policy/condition/keyname.go); keys are compared case-insensitively. Tag keys take a tag name after the
 * slash (`s3:ExistingObjectTag/team`).
 */
export const CONDITION_KEYS = [
  "aws:SourceIp",
  "aws:Referer",
  "aws:UserAgent",
  "aws:SecureTransport",
  "aws:CurrentTime",
  "aws:EpochTime",
  "aws:username",
  "aws:userid",
  "aws:groups",
  "aws:principaltype",
  "aws:PrincipalArn",
  "aws:SourceVpce",
  "aws:RequestedRegion",
  "s3:prefix",
  "s3:delimiter",
  "s3:max-keys",
  "s3:versionid",
  "s3:x-amz-server-side-encryption",
  "s3:x-amz-server-side-encryption-aws-kms-key-id",
  "s3:x-amz-server-side-encryption-customer-algorithm",
  "s3:x-amz-object-if-match",
  "s3:x-amz-annotation-directive",
  "s3:x-amz-storage-class",
  "s3:x-amz-copy-source",
  "s3:x-amz-metadata-directive",
  "s3:x-amz-content-sha256",
  "s3:LocationConstraint",
  "s3:object-lock-mode",
  "s3:object-lock-retain-until-date",
  "s3:object-lock-remaining-retention-days",
  "s3:object-lock-legal-hold",
  "s3:RequestObjectTagKeys",
  "s3:ExistingObjectTag/",
  "s3:RequestObjectTag/",
  "s3:signatureversion",
  "s3:authType",
  "s3:signatureAge",
  "sts:DurationSeconds",
  "svc:DurationSeconds",
  "jwt:sub",
  "jwt:iss",
  "jwt:aud",
  "jwt:groups",
  "jwt:email",
  "jwt:preferred_username",
  "ldap:user",
  "ldap:username",
  "ldap:groups",
] as const;

const KNOWN_CONDITION_KEYS = new Set([
  ...CONDITION_KEYS.filter((key) => !key.endsWith("/")).map((key) => key.toLowerCase()),
  // MinIO's other keys (minio/pkg policy/condition): they never match here, but policies naming them load.
  "memory:prefix",
  "memory:max-keys",
  "s3express:sessionmode",
  "s3tables:kmskeyarn",
  "s3tables:ssealgorithm",
  "s3tables:namespace",
  "s3tables:tablename",
  "s3tables:viewname",
  "s3tables:functionname",
  "s3tables:registerlocation",
  "s3tables:warehousetag",
  "s3tables:tabletag",
]);

export function isKnownConditionKey(key: string): boolean {
  const lower = key.toLowerCase();
  return KNOWN_CONDITION_KEYS.has(lower) || /^(jwt|ldap):./.test(lower) ||
    /^s3:(existingobjecttag|requestobjecttag)\/./.test(lower);
}

/** Splits `ForAnyValue:StringLikeIfExists` into its parts; null when the operator is unknown. */
export function parseOperator(
  name: string,
): { base: string; qualifier?: "ForAllValues" | "ForAnyValue"; ifExists: boolean } | null {
  let rest = name;
  let qualifier: "ForAllValues" | "ForAnyValue" | undefined;
  for (const q of ["ForAllValues:", "ForAnyValue:"] as const) {
    if (rest.startsWith(q)) {
      qualifier = q.slice(0, -1) as "ForAllValues" | "ForAnyValue";
      rest = rest.slice(q.length);
    }
  }
  const ifExists = rest.endsWith("IfExists");
  const base = ifExists ? rest.slice(0, -8) : rest;
  return CONDITION_OPERATORS.includes(base) ? { base, qualifier, ifExists } : null;
}
