/**
 * Parses and checks IAM policy documents (minio-protocol §6.2) and returns every problem with the line it
 * points at, so the console can mark it inline. The result is also the normalised policy the evaluator uses.
 * Pure and browser-safe.
 */
import { ALL_ACTIONS } from "./actions.ts";
import { type JsonNode, JsonSyntaxError, parseJsonSource, type Position } from "./json_source.ts";
import type { Policy, Statement } from "./types.ts";

export interface PolicyProblem {
  message: string;
  line: number;
  column: number;
}

export interface PolicyCheck {
  policy: Policy | null;
  problems: PolicyProblem[];
}

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

const KNOWN_CONDITION_KEYS = new Set([
  "aws:sourceip",
  "aws:referer",
  "aws:useragent",
  "aws:securetransport",
  "aws:currenttime",
  "aws:epochtime",
  "aws:username",
  "aws:userid",
  "aws:groups",
  "aws:principaltype",
  "aws:principalarn",
  "aws:sourcevpce",
  "aws:requestedregion",
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
  "s3:locationconstraint",
  "s3:object-lock-mode",
  "s3:object-lock-retain-until-date",
  "s3:object-lock-remaining-retention-days",
  "s3:object-lock-legal-hold",
  "s3:requestobjecttagkeys",
  "s3:signatureversion",
  "s3:authtype",
  "s3:signatureage",
  "sts:durationseconds",
  "svc:durationseconds",
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

const ACTION_PATTERN = /^(s3|admin|kms|sts):[A-Za-z*?]+$/;

/** Whether an action name (or wildcard pattern) can match at least one known action. */
export function isKnownAction(action: string): boolean {
  if (action === "*") return true;
  if (!ACTION_PATTERN.test(action)) return false;
  if (!/[*?]/.test(action)) return ALL_ACTIONS.includes(action) || action.startsWith("sts:");
  const regex = new RegExp(
    "^" + action.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*").replace(/\?/g, ".") + "$",
  );
  return ALL_ACTIONS.some((known) => regex.test(known));
}

class Checker {
  problems: PolicyProblem[] = [];
  add(at: Position, message: string) {
    this.problems.push({ message, line: at.line, column: at.column });
  }
  /** A string or list of strings (IAM allows both). */
  strings(node: JsonNode, field: string): string[] | null {
    if (node.kind === "string") return [node.value];
    if (node.kind === "array" && node.items.every((i) => i.kind === "string")) {
      return node.items.map((i) => (i as { value: string }).value);
    }
    this.add(node.at, `${field} must be a string or a list of strings`);
    return null;
  }
}

function checkStatement(
  c: Checker,
  node: JsonNode,
  options: { bucketPolicy: boolean; index: number },
): Statement | null {
  if (node.kind !== "object") {
    c.add(node.at, `Statement ${options.index + 1} must be an object`);
    return null;
  }
  const statement: Statement = { Effect: "Allow" };
  const seen = new Set<string>();
  for (const { key, keyAt, value } of node.entries) {
    if (seen.has(key)) c.add(keyAt, `duplicate field ${key}`);
    seen.add(key);
    switch (key) {
      case "Sid":
        if (value.kind !== "string") c.add(value.at, "Sid must be a string");
        else statement.Sid = value.value;
        break;
      case "Effect":
        if (value.kind !== "string" || (value.value !== "Allow" && value.value !== "Deny")) {
          c.add(value.at, 'Effect must be "Allow" or "Deny"');
        } else statement.Effect = value.value;
        break;
      case "Action":
      case "NotAction": {
        const actions = c.strings(value, key);
        if (!actions) break;
        if (actions.length === 0) c.add(value.at, `${key} must not be empty`);
        const items = value.kind === "array" ? value.items : [value];
        actions.forEach((a, i) => {
          if (!isKnownAction(a)) c.add(items[i].at, `unknown action "${a}"`);
        });
        statement[key] = actions;
        break;
      }
      case "Resource":
      case "NotResource": {
        const resources = c.strings(value, key);
        if (!resources) break;
        const items = value.kind === "array" ? value.items : [value];
        resources.forEach((r, i) => {
          // Keys may hold spaces (MinIO's ParseResource takes any pattern); a bucket name never does, and
          // control characters are typos.
          // deno-lint-ignore no-control-regex -- control characters are exactly what is refused
          if (r !== "*" && !/^arn:aws:s3:::[^\s/]*(\/[^\u0000-\u001f\u007f]*)?$/.test(r)) {
            c.add(items[i].at, `invalid resource "${r}": expected arn:aws:s3:::bucket[/key]`);
          } else if (r.startsWith("arn:aws:s3:::") && r.length === 13) {
            c.add(items[i].at, `invalid resource "${r}": bucket name missing`);
          }
        });
        statement[key] = resources;
        break;
      }
      case "Principal": {
        if (value.kind === "string") statement.Principal = [value.value];
        else if (value.kind === "object" && value.entries.length === 1 && value.entries[0].key === "AWS") {
          statement.Principal = c.strings(value.entries[0].value, "Principal.AWS") ?? [];
        } else c.add(value.at, 'Principal must be "*" or {"AWS": [...]}');
        if (statement.Principal && !statement.Principal.every((p) => p === "*")) {
          c.add(value.at, 'MinIO supports only the anonymous principal "*"');
        }
        break;
      }
      case "Condition":
        statement.Condition = checkCondition(c, value) ?? undefined;
        break;
      default:
        c.add(keyAt, `unknown field "${key}" in a statement`);
    }
  }
  if (!seen.has("Effect")) c.add(node.at, `Statement ${options.index + 1} needs an Effect`);
  if (!seen.has("Action") && !seen.has("NotAction")) {
    c.add(node.at, `Statement ${options.index + 1} needs an Action`);
  }
  if (seen.has("Action") && seen.has("NotAction")) c.add(node.at, "use either Action or NotAction, not both");
  if (seen.has("Resource") && seen.has("NotResource")) {
    c.add(node.at, "use either Resource or NotResource, not both");
  }
  const needsResource = [...(statement.Action ?? []), ...(statement.NotAction ?? [])].some((a) =>
    a.startsWith("s3:") || a === "*"
  );
  if (needsResource && !seen.has("Resource") && !seen.has("NotResource")) {
    c.add(node.at, `Statement ${options.index + 1} needs a Resource for its s3 actions`);
  }
  if (options.bucketPolicy && !seen.has("Principal")) {
    c.add(node.at, "a bucket policy statement needs a Principal");
  }
  if (!options.bucketPolicy && seen.has("Principal")) {
    c.add(node.at, "Principal is only allowed in bucket policies");
  }
  return statement;
}

function checkCondition(c: Checker, node: JsonNode): Statement["Condition"] | null {
  if (node.kind !== "object") {
    c.add(node.at, "Condition must be an object of operators");
    return null;
  }
  const out: NonNullable<Statement["Condition"]> = {};
  for (const { key: op, keyAt, value } of node.entries) {
    if (!parseOperator(op)) {
      c.add(keyAt, `unknown condition operator "${op}"`);
      continue;
    }
    if (value.kind !== "object") {
      c.add(value.at, `${op} must map condition keys to values`);
      continue;
    }
    out[op] = {};
    for (const entry of value.entries) {
      if (!isKnownConditionKey(entry.key)) c.add(entry.keyAt, `unsupported condition key "${entry.key}"`);
      const v = entry.value;
      let values: string[] | null = null;
      if (v.kind === "string") values = [v.value];
      else if (v.kind === "boolean" || v.kind === "number") values = [String(v.value)];
      else if (
        v.kind === "array" &&
        v.items.every((i) => i.kind === "string" || i.kind === "boolean" || i.kind === "number")
      ) {
        values = v.items.map((i) => String((i as { value: unknown }).value));
      } else c.add(v.at, `values of ${entry.key} must be strings`);
      if (values) out[op][entry.key] = values;
    }
  }
  return out;
}

/**
 * Checks policy text. `bucketPolicy` requires Principal and, with `bucket`, resources inside that bucket.
 * Returns the normalised policy (null on JSON syntax errors) and every problem found.
 */
export function checkPolicy(
  text: string,
  options: { bucketPolicy?: boolean; bucket?: string } = {},
): PolicyCheck {
  let root: JsonNode;
  try {
    root = parseJsonSource(text);
  } catch (error) {
    if (error instanceof JsonSyntaxError) {
      return {
        policy: null,
        problems: [{
          message: error.message.replace(/ \(line.*\)$/, ""),
          line: error.at.line,
          column: error.at.column,
        }],
      };
    }
    throw error;
  }
  const c = new Checker();
  if (root.kind !== "object") {
    c.add(root.at, "a policy must be a JSON object");
    return { policy: null, problems: c.problems };
  }
  const policy: Policy = { Version: "", Statement: [] };
  let hasStatement = false;
  for (const { key, keyAt, value } of root.entries) {
    if (key === "Version") {
      if (value.kind !== "string" || (value.value !== "2012-10-17" && value.value !== "2008-10-17")) {
        c.add(value.at, 'Version must be "2012-10-17"');
      } else policy.Version = value.value;
    } else if (key === "Id") {
      if (value.kind !== "string") c.add(value.at, "Id must be a string");
      else policy.Id = value.value;
    } else if (key === "Statement") {
      hasStatement = true;
      const items = value.kind === "array" ? value.items : [value];
      if (value.kind === "array" && items.length === 0) c.add(value.at, "Statement must not be empty");
      items.forEach((item, index) => {
        const statement = checkStatement(c, item, { bucketPolicy: !!options.bucketPolicy, index });
        if (statement) policy.Statement.push(statement);
      });
    } else c.add(keyAt, `unknown field "${key}" in a policy`);
  }
  if (!policy.Version && !root.entries.some((e) => e.key === "Version")) {
    c.add(root.at, "the policy needs a Version");
  }
  if (!hasStatement) c.add(root.at, "the policy needs a Statement");
  if (options.bucket) {
    const inside = (r: string) =>
      r === `arn:aws:s3:::${options.bucket}` || r.startsWith(`arn:aws:s3:::${options.bucket}/`);
    policy.Statement.forEach((s, index) => {
      const resources = [...(s.Resource ?? []), ...(s.NotResource ?? [])];
      if (resources.some((r) => !inside(r))) {
        const items = root.kind === "object"
          ? root.entries.find((e) => e.key === "Statement")?.value
          : undefined;
        const at = items?.kind === "array" ? items.items[index]?.at : items?.at;
        c.add(at ?? root.at, `Statement ${index + 1}: resources must be inside bucket ${options.bucket}`);
      }
    });
  }
  return { policy, problems: c.problems };
}
