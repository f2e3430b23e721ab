/**
 * IAM policy evaluation as MinIO does it (minio-protocol §6.3): an explicit Deny wins, then the owner is
 * allowed, then any Allow; otherwise denied. Answers also name the statement that decided, for the console's
 * "Can this user do ACTION on RESOURCE?" check. Pure and browser-safe.
 */
import type { NamedPolicy, Statement } from "./types.ts";
import { parseOperator } from "./validate.ts";

/** What is being asked: an action on a bucket/key with the request's condition values. */
export interface AccessRequest {
  action: string;
  /** "" for service-level calls (ListAllMyBuckets, admin). */
  bucket: string;
  /** "" for bucket-level calls. */
  key: string;
  /** Condition key → values; keys compared case-insensitively. */
  conditions?: Record<string, string[]>;
  /** Root / owner: allowed unless a Deny matches. */
  isOwner?: boolean;
}

export interface Decision {
  allowed: boolean;
  /** The statement that decided, when one did (absent for owner-allowed or nothing-matched). */
  policy?: string;
  statementIndex?: number;
  sid?: string;
  effect?: "Allow" | "Deny";
  /** Human-readable reason. */
  reason: string;
}

const regexCache = new Map<string, RegExp>();

/** `*` any run, `?` one character, case-sensitive (as MinIO's wildcard.Match). */
export function wildcardMatch(pattern: string, text: string): boolean {
  if (!pattern.includes("*") && !pattern.includes("?")) return pattern === text;
  let regex = regexCache.get(pattern);
  if (!regex) {
    regex = new RegExp(
      "^" +
        pattern.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, "[\\s\\S]*").replace(/\?/g, "[\\s\\S]") +
        "$",
    );
    if (regexCache.size > 5000) regexCache.clear();
    regexCache.set(pattern, regex);
  }
  return regex.test(text);
}

function substitute(text: string, conditions: Record<string, string[]>): string {
  return text.replace(/\$\{([^}]+)\}/g, (whole, name: string) => {
    const value = conditions[name.toLowerCase()]?.[0];
    return value ? value : whole;
  });
}

/** Whether an ARN pattern covers the request's bucket/key, including MinIO's bucket-level quirk. */
export function resourceMatches(
  pattern: string,
  bucket: string,
  key: string,
  conditions: Record<string, string[]>,
): boolean {
  const p = substitute(pattern === "*" ? "arn:aws:s3:::*" : pattern, conditions);
  if (!p.startsWith("arn:aws:s3:::")) return false;
  const body = p.slice(13);
  const resource = key ? `${bucket}/${key}` : bucket;
  if (wildcardMatch(body, resource)) return true;
  // Bucket-level calls are `bucket/`: "photos/*" covers them, and "photos/" equals "photos" after cleaning.
  if (!key && bucket && (wildcardMatch(body, `${bucket}/`) || body.replace(/\/+$/, "") === bucket)) {
    return true;
  }
  return false;
}

const actionMatches = (patterns: string[], action: string) =>
  patterns.some((p) => wildcardMatch(p === "*" ? "*" : p, action));

function ipInCidr(ip: string, cidr: string): boolean {
  const [net, bitsText] = cidr.split("/");
  const toNum = (a: string) => a.split(".").reduce((n, part) => n * 256 + Number(part), 0);
  if (!/^\d+\.\d+\.\d+\.\d+$/.test(ip) || !/^\d+\.\d+\.\d+\.\d+$/.test(net)) return ip === net;
  const bits = bitsText === undefined ? 32 : Number(bitsText);
  const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
  return ((toNum(ip) & mask) >>> 0) === ((toNum(net) & mask) >>> 0);
}

function compareOne(base: string, actual: string, expected: string): boolean {
  switch (base) {
    case "StringEquals":
    case "ArnEquals":
      return actual === expected;
    case "StringNotEquals":
    case "ArnNotEquals":
      return actual !== expected;
    case "StringEqualsIgnoreCase":
      return actual.toLowerCase() === expected.toLowerCase();
    case "StringNotEqualsIgnoreCase":
      return actual.toLowerCase() !== expected.toLowerCase();
    case "StringLike":
    case "ArnLike":
      return wildcardMatch(expected, actual);
    case "StringNotLike":
    case "ArnNotLike":
      return !wildcardMatch(expected, actual);
    case "Bool":
      return actual.toLowerCase() === expected.toLowerCase();
    case "BinaryEquals":
      return actual === expected;
    case "IpAddress":
      return ipInCidr(actual, expected);
    case "NotIpAddress":
      return !ipInCidr(actual, expected);
  }
  if (base.startsWith("Numeric")) {
    const a = Number(actual), e = Number(expected);
    if (Number.isNaN(a) || Number.isNaN(e)) return false;
    return ({
      NumericEquals: a === e,
      NumericNotEquals: a !== e,
      NumericLessThan: a < e,
      NumericLessThanEquals: a <= e,
      NumericGreaterThan: a > e,
      NumericGreaterThanEquals: a >= e,
    } as Record<string, boolean>)[base] ?? false;
  }
  if (base.startsWith("Date")) {
    const a = Date.parse(actual), e = Date.parse(expected);
    if (Number.isNaN(a) || Number.isNaN(e)) return false;
    return ({
      DateEquals: a === e,
      DateNotEquals: a !== e,
      DateLessThan: a < e,
      DateLessThanEquals: a <= e,
      DateGreaterThan: a > e,
      DateGreaterThanEquals: a >= e,
    } as Record<string, boolean>)[base] ?? false;
  }
  return false;
}

const NEGATED = new Set([
  "StringNotEquals",
  "StringNotEqualsIgnoreCase",
  "StringNotLike",
  "NotIpAddress",
  "NumericNotEquals",
  "DateNotEquals",
  "ArnNotEquals",
  "ArnNotLike",
]);

function conditionHolds(
  operator: string,
  key: string,
  expected: string[],
  conditions: Record<string, string[]>,
): boolean {
  const op = parseOperator(operator);
  if (!op) return false;
  const actual = conditions[key.toLowerCase()];
  if (op.base === "Null") {
    const isNull = actual === undefined || actual.length === 0;
    return expected.some((e) => (e.toLowerCase() === "true") === isNull);
  }
  if (actual === undefined || actual.length === 0) {
    return op.ifExists || NEGATED.has(op.base) || op.qualifier === "ForAllValues";
  }
  const values = expected.map((e) => substitute(e, conditions));
  const negated = NEGATED.has(op.base);
  // A negated operator holds when the value matches none of the expected values; others when it matches any.
  const holdsFor = (
    value: string,
  ) => (negated
    ? values.every((e) => compareOne(op.base, value, e))
    : values.some((e) => compareOne(op.base, value, e)));
  if (op.qualifier === "ForAllValues") return actual.every(holdsFor);
  return actual.some(holdsFor);
}

/** Whether one statement applies to the request (action, resource and every condition). */
export function statementApplies(statement: Statement, request: AccessRequest): boolean {
  const conditions = lowerKeys(request.conditions ?? {});
  if (statement.Action && !actionMatches(statement.Action, request.action)) return false;
  if (statement.NotAction && actionMatches(statement.NotAction, request.action)) return false;
  if (!statement.Action && !statement.NotAction) return false;
  const isS3 = request.action.startsWith("s3:");
  if (statement.Resource) {
    // Admin and KMS actions ignore resources (§6.2); s3 actions must match one.
    if (
      isS3 && !statement.Resource.some((r) => resourceMatches(r, request.bucket, request.key, conditions))
    ) return false;
  } else if (statement.NotResource) {
    if (
      isS3 && statement.NotResource.some((r) => resourceMatches(r, request.bucket, request.key, conditions))
    ) return false;
  } else if (isS3) return false;
  for (const [operator, keys] of Object.entries(statement.Condition ?? {})) {
    for (const [key, expected] of Object.entries(keys)) {
      if (!conditionHolds(operator, key, expected, conditions)) return false;
    }
  }
  return true;
}

function lowerKeys(conditions: Record<string, string[]>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [k, v] of Object.entries(conditions)) out[k.toLowerCase()] = v;
  return out;
}

/** Evaluates a set of policies (a user's, its groups', an inline one) for one request. */
export function evaluate(policies: NamedPolicy[], request: AccessRequest): Decision {
  let allow: Decision | undefined;
  for (const { name, policy } of policies) {
    for (let i = 0; i < policy.Statement.length; i++) {
      const statement = policy.Statement[i];
      if (!statementApplies(statement, request)) continue;
      const found: Decision = {
        allowed: statement.Effect === "Allow",
        policy: name,
        statementIndex: i,
        sid: statement.Sid,
        effect: statement.Effect,
        reason: `${statement.Effect === "Allow" ? "allowed" : "denied"} by statement ${
          statement.Sid ? `"${statement.Sid}"` : i + 1
        } of policy ${name}`,
      };
      if (statement.Effect === "Deny") return found;
      allow ??= found;
    }
  }
  if (request.isOwner) return { allowed: true, reason: "the root user may do everything no Deny forbids" };
  return allow ?? { allowed: false, reason: "no policy statement allows it" };
}

/** Allowed only when every policy set allows (parent ∩ session/inline policy, §6.3). */
export function evaluateIntersection(sets: NamedPolicy[][], request: AccessRequest): Decision {
  let last: Decision = { allowed: false, reason: "no policy" };
  for (const set of sets) {
    last = evaluate(set, request);
    if (!last.allowed) return last;
  }
  return last;
}
