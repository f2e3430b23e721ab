/**
 * Browser-form uploads (POST policy, minio-protocol-2 §9): the form's fields are read up to the file part,
 * the policy's signature proves who sent it, its expiry and conditions decide what may be uploaded, and
 * the file's bytes stream into the store like a PutObject body (never buffered).
 */
import { constantTimeEqual, signatureOf, signingKey } from "../../lib/s3/sigv4.ts";
import { FormError, type FormPart, formParts } from "../../lib/formats/multipart_form.ts";
import type { IdentityAuthority } from "../core/contracts.ts";
import { checkCredential, parseCredential } from "../auth/scope.ts";
import { policyCredentialV2 } from "../auth/sigv2.ts";
import { streamOfPieces } from "../fs/pieces.ts";
import { StoreError } from "../core/errors.ts";
import type { Authenticated } from "../auth/authenticated.ts";

/** Each non-file field may be at most this long (MinIO's maxFormFieldSize). */
const MAX_FIELD_BYTES = 1024 * 1024;
/**
 * All fields before the file together, names included. They are read before the policy's signature is
 * checked, so anyone may send them: a real policy's fields take a few KiB, and one field of MinIO's largest
 * still fits. Without this bound 1,000 fields of 1 MiB were buffered from one anonymous request.
 */
const MAX_FIELDS_BYTES = 2 * 1024 * 1024;
/** MinIO's maxParts. */
const MAX_FIELDS = 1000;
const MAX_OBJECT_SIZE = 5 * 1024 ** 4;

export const malformed = (detail?: string) =>
  new StoreError(
    "MalformedPOSTRequest",
    `The body of your POST request is not well-formed multipart/form-data.${detail ? ` (${detail})` : ""}`,
    400,
  );
/** MinIO's answer to a field, or all of them, past the bounds: Go's multipart.ErrMessageTooLarge. */
const tooLarge = () => malformed("multipart: message too large");
const encoder = new TextEncoder();
const conditionFailed = (condition?: string) =>
  new StoreError(
    "AccessDenied",
    `Invalid according to Policy: Policy Condition failed${condition ? `: ${condition}` : ""}`,
    403,
  );
const badPolicy = (detail: string) =>
  new StoreError(
    "PostPolicyInvalidKeyName",
    `Invalid according to Policy: Policy Condition failed '(${detail})'`,
    403,
  );

/** The form of a POST policy upload once its fields are read and its signature checked. */
export interface PostForm {
  /** Form fields by lower-case name (the server adds `bucket`). */
  fields: Map<string, string>;
  key: string;
  /** The file's bytes, with `auth.body` the same stream checked against content-length-range. */
  auth: Authenticated;
  /** The file part's own Content-Type, used when the form sets none. */
  fileContentType?: string;
}

/** Header-style spelling of a field name, as MinIO names fields in its messages (x-amz-meta-a → X-Amz-Meta-A). */
const canonicalName = (name: string) => name.replace(/(^|-)([a-z])/g, (_, dash, c) => dash + c.toUpperCase());

/**
 * Runs a signature check for an access key behind the storage's guess throttle (GuessThrottle.guard, bound
 * to the client's address): policy signatures are guesses at a secret like any other.
 */
export type SignatureGuard = <T>(accessKey: string, check: () => T) => Promise<T>;

/** Reads the fields up to `file`, authenticates the policy and checks its conditions (except the file's size). */
export async function readPostForm(
  request: Request,
  bucket: string,
  boundary: string,
  authority: IdentityAuthority,
  now: number,
  guard: SignatureGuard,
): Promise<PostForm> {
  if (!request.body) throw malformed();
  const parts = formParts(request.body, boundary);
  try {
    const { fields, file } = await readFields(parts);
    const { policy, credential } = await authenticateForm(fields, authority, now, guard);
    if (!fields.has("key")) throw malformed("The name of the uploaded key is missing");
    const key = fields.get("key")!.replaceAll("${filename}", file.filename ?? "");
    fields.set("key", key);
    fields.set("bucket", bucket);
    const limits = checkConditions(policy, fields, now);
    const body = streamOfPieces({
      pieces: () => sizeChecked(file.data(), limits),
      cancel: () => parts.return(undefined).then(() => {}),
    });
    const signatureVersion = fields.has("signature") ? "AWS" as const : undefined;
    return {
      fields,
      key,
      fileContentType: file.contentType,
      auth: { credential, authType: "header", body, signatureVersion },
    };
  } catch (error) {
    await parts.return(undefined);
    throw error;
  }
}

/**
 * The fields before the file part, within MinIO's bounds (and ours on their total), and the file part itself,
 * unread. Parts are taken with next(), not a for-await loop: leaving such a loop at the file part would
 * return() the generator, which cancels the body, and only the file bytes already read would remain.
 */
async function readFields(
  parts: AsyncGenerator<FormPart>,
): Promise<{ fields: Map<string, string>; file: FormPart }> {
  const fields = new Map<string, string>();
  let left = MAX_FIELDS_BYTES;
  try {
    while (true) {
      const next = await parts.next();
      if (next.done) break;
      const part = next.value;
      const name = part.name.toLowerCase();
      if (name === "file") return { fields, file: part };
      if (fields.has(name)) {
        throw new StoreError(
          "AccessDenied",
          `Invalid according to Policy: "${canonicalName(name)}" was given more than once.`,
          403,
        );
      }
      left -= encoder.encode(name).length;
      if (fields.size >= MAX_FIELDS || left < 0) throw tooLarge();
      const value = await part.text(Math.min(MAX_FIELD_BYTES, left));
      left -= encoder.encode(value).length;
      fields.set(name, value);
    }
  } catch (error) {
    if (error instanceof FormError) throw /larger than/.test(error.message) ? tooLarge() : malformed();
    throw error;
  }
  throw malformed("The file or text content is missing");
}

/**
 * Checks the policy's signature (V4 over the base64 policy text as sent, or V2's HMAC-SHA1 of it) and decodes
 * the policy. Both kinds of signature count as guesses for the throttle (`guard`).
 */
async function authenticateForm(
  fields: Map<string, string>,
  authority: IdentityAuthority,
  now: number,
  guard: SignatureGuard,
) {
  if (fields.has("signature")) {
    const accessKey = fields.get("awsaccesskeyid") ?? "";
    const credential = await guard(accessKey, () => policyCredentialV2(fields, authority, now));
    return { policy: decodePolicy(fields.get("policy") ?? ""), credential };
  }
  if (fields.get("x-amz-algorithm") !== "AWS4-HMAC-SHA256") {
    throw new StoreError("AccessDenied", 'X-Amz-Algorithm only supports "AWS4-HMAC-SHA256"', 403);
  }
  const credentialText = fields.get("x-amz-credential");
  const signature = fields.get("x-amz-signature");
  const policyText = fields.get("policy");
  if (!credentialText || !signature || policyText === undefined) {
    throw new StoreError("AccessDenied", "Access Denied.", 403);
  }
  const scope = parseCredential(credentialText);
  if (scope.service !== "s3") {
    throw new StoreError(
      "AuthorizationHeaderMalformed",
      "The authorization header is malformed; expected service 's3'.",
      400,
    );
  }
  const credential = await guard(scope.accessKey, () => {
    const found = checkCredential(
      authority,
      scope.accessKey,
      fields.get("x-amz-security-token") ?? null,
      now,
    );
    const expected = signatureOf(
      signingKey(found.secretKey, scope.date, scope.region, scope.service),
      policyText,
    );
    if (!constantTimeEqual(expected, signature.toLowerCase())) {
      throw new StoreError(
        "SignatureDoesNotMatch",
        "The request signature we calculated does not match the signature you provided. Check your key and signing method.",
        403,
      );
    }
    return found;
  });
  return { policy: decodePolicy(policyText), credential };
}

function decodePolicy(policyText: string): unknown {
  if (policyText === "") return null;
  try {
    return JSON.parse(new TextDecoder().decode(Uint8Array.fromBase64(policyText)));
  } catch {
    throw malformed("the policy is not base64-encoded JSON");
  }
}

interface SizeLimits {
  min: number;
  max: number;
}

/**
 * Checks the policy document against the form (minio-protocol-2 §9.2): expiry, each condition, and that
 * every field the form sends is covered by a condition. Returns the content-length-range to apply.
 */
function checkConditions(policy: unknown, fields: Map<string, string>, now: number): SizeLimits {
  const limits: SizeLimits = { min: 0, max: MAX_OBJECT_SIZE };
  if (policy === null) return limits;
  if (typeof policy !== "object" || Array.isArray(policy)) throw badPolicy("the policy is not a JSON object");
  const { expiration, conditions, ...rest } = policy as Record<string, unknown>;
  if (Object.keys(rest).length) throw badPolicy(`unknown policy field ${Object.keys(rest)[0]}`);
  // MinIO parses the expiry as RFC 3339 (Go's time.RFC3339Nano): "2026-11-27 10:00:00" is refused, not guessed.
  const expires = typeof expiration === "string" && RFC3339.test(expiration) ? Date.parse(expiration) : NaN;
  if (Number.isNaN(expires)) throw badPolicy("expiration is not an RFC 3339 date");
  if (expires <= now) {
    throw new StoreError("AccessDenied", "Invalid according to Policy: Policy expired", 403);
  }
  if (!Array.isArray(conditions)) throw badPolicy("conditions must be a list");
  const covered = new Set<string>();
  for (const condition of conditions) {
    const parsed = parseCondition(condition);
    if (parsed.op === "content-length-range") {
      limits.min = parsed.min;
      limits.max = Math.min(parsed.max, MAX_OBJECT_SIZE);
      continue;
    }
    covered.add(parsed.field);
    // MinIO checks the fields it knows and every x-amz-* field; a condition on any other field (tagging,
    // a checksum name S3 added later) only lets the form send that field.
    const prefixAllowed = STARTS_WITH.get(parsed.field);
    if (prefixAllowed === undefined && !parsed.field.startsWith("x-amz-")) continue;
    const value = fields.get(parsed.field) ?? "";
    const shown = JSON.stringify([parsed.op, `$${parsed.field}`, parsed.value]);
    if (parsed.op === "starts-with") {
      if (prefixAllowed === false) throw conditionFailed(shown);
      if (!value.startsWith(parsed.value)) throw conditionFailed(shown);
    } else if (value !== parsed.value) {
      throw conditionFailed(shown);
    }
  }
  // A V2 form's Signature and AWSAccessKeyId need no condition (MinIO's checkPostPolicy).
  const v2 = fields.has("signature");
  const exempt = (name: string) =>
    name === "x-amz-signature" || name === "file" || name === "policy" || name === "bucket" ||
    (v2 && (name === "signature" || name === "awsaccesskeyid")) ||
    name.startsWith("x-ignore-") ||
    name.startsWith("x-amz-server-side-encryption-customer-") ||
    name === "x-amz-server-side-encryption-aws-kms-key-id" || name === "x-amz-server-side-encryption-context";
  for (const name of fields.keys()) {
    if (!exempt(name) && !covered.has(name)) {
      throw new StoreError(
        "AccessDenied",
        `Each form field that you specify in a form must appear in the list of policy conditions. "${
          canonicalName(name)
        }" not specified in the policy.`,
        403,
      );
    }
  }
  return limits;
}

type Condition = { op: "eq" | "starts-with"; field: string; value: string } | {
  op: "content-length-range";
  min: number;
  max: number;
};

function parseCondition(condition: unknown): Condition {
  if (condition && typeof condition === "object" && !Array.isArray(condition)) {
    const entries = Object.entries(condition);
    if (entries.length !== 1 || typeof entries[0][1] !== "string") {
      throw badPolicy("a condition object must have one string value");
    }
    return { op: "eq", field: entries[0][0].toLowerCase().replace(/^\$/, ""), value: entries[0][1] };
  }
  if (!Array.isArray(condition) || condition.length !== 3) {
    throw badPolicy("a condition must be an object or a list of three");
  }
  const op = String(condition[0]).toLowerCase();
  if (op === "content-length-range") {
    const [min, max] = [Number(condition[1]), Number(condition[2])];
    if (!Number.isInteger(min) || !Number.isInteger(max) || min < 0 || max < min) {
      throw badPolicy("content-length-range needs two sizes");
    }
    return { op, min, max };
  }
  if (op !== "eq" && op !== "starts-with") throw badPolicy(`unknown condition ${op}`);
  if (typeof condition[1] !== "string" || typeof condition[2] !== "string" || !condition[1].startsWith("$")) {
    throw badPolicy("a condition names a $field and a string value");
  }
  return { op, field: condition[1].slice(1).toLowerCase(), value: condition[2] };
}

/**
 * The fields MinIO's POST policy knows (its startsWithConds), each with whether starts-with may match it. Other
 * x-amz-* fields are checked with either operator; conditions on the rest are not checked.
 */
const STARTS_WITH = new Map<string, boolean>([
  ["acl", true],
  ["bucket", false],
  ["cache-control", true],
  ["content-type", true],
  ["content-disposition", true],
  ["content-encoding", true],
  ["expires", true],
  ["key", true],
  ["success_action_redirect", true],
  ["redirect", true],
  ["success_action_status", true],
  ["x-amz-algorithm", false],
  ["x-amz-credential", false],
  ["x-amz-date", false],
]);
/** RFC 3339 date-time, fractional seconds and offset included (Go's time.RFC3339Nano layout). */
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** Passes the file's bytes through, failing past the range's maximum and, at the end, under its minimum. */
async function* sizeChecked(
  data: AsyncGenerator<Uint8Array>,
  limits: SizeLimits,
): AsyncGenerator<Uint8Array> {
  let size = 0;
  try {
    for await (const piece of data) {
      size += piece.length;
      if (size > limits.max) {
        throw new StoreError(
          "EntityTooLarge",
          "Your proposed upload exceeds the maximum allowed object size.",
          400,
        );
      }
      yield piece;
    }
  } catch (error) {
    if (error instanceof FormError) throw malformed();
    throw error;
  }
  if (size < limits.min) {
    throw new StoreError(
      "EntityTooSmall",
      "Your proposed upload is smaller than the minimum allowed object size.",
      400,
    );
  }
}
