/**
 * Who a signature claims to come from, and whether that key may sign now: the credential scope
 * (`<access key>/<date>/<region>/<service>/aws4_request`), the region it names, and the key's state (enabled,
 * unexpired, used with its session token). Shared by header, presigned and POST-policy signatures.
 */
import { constantTimeEqual } from "../../lib/s3/sigv4.ts";
import type { Credential, IdentityAuthority } from "../core/contracts.ts";
import { StoreError } from "../core/errors.ts";

const denied = (code: string, message: string, status = 403) => new StoreError(code, message, status);

export interface Scope {
  accessKey: string;
  date: string;
  region: string;
  service: string;
  scope: string;
}

/** Parses `<AK>/<yyyymmdd>/<region>/<service>/aws4_request` (the access key may contain slashes). */
export function parseCredential(text: string): Scope {
  const parts = text.split("/");
  if (parts.length < 5 || parts[parts.length - 1] !== "aws4_request") {
    throw denied(
      "AuthorizationHeaderMalformed",
      "The authorization header is malformed; the Credential is mal-formed.",
      400,
    );
  }
  const [date, region, service] = parts.slice(-4, -1);
  const accessKey = parts.slice(0, -4).join("/");
  if (accessKey.length < 3) {
    throw denied("InvalidAccessKeyId", "The Access Key Id you provided does not exist in our records.");
  }
  return { accessKey, date, region, service, scope: `${date}/${region}/${service}/aws4_request` };
}

/**
 * MinIO's isValidRegion (minio-protocol §1.7): with a region configured the scope must name it ("US" counts as
 * us-east-1); with none, any region is accepted. The wrong region is refused with the region to use, in the
 * message and in x-amz-bucket-region as AWS does, so clients can re-sign.
 */
export function checkRegion(requestRegion: string, configured: string | undefined): void {
  if (!configured) return;
  const want = configured === "US" ? "us-east-1" : configured;
  if ((requestRegion === "US" ? "us-east-1" : requestRegion) === want) return;
  throw new StoreError(
    "AuthorizationHeaderMalformed",
    `The authorization header is malformed; the region '${requestRegion}' is wrong; expecting '${want}'.`,
    400,
    { "x-amz-bucket-region": want },
  );
}

/** Looks up a key and checks it is enabled, unexpired and used with the right session token. */
export function checkCredential(
  authority: IdentityAuthority,
  accessKey: string,
  token: string | null,
  now: number,
): Credential {
  const cred = authority.lookupCredential(accessKey);
  if (!cred) {
    throw denied("InvalidAccessKeyId", "The Access Key Id you provided does not exist in our records.");
  }
  if (!cred.enabled) {
    throw denied("InvalidAccessKeyId", "Your account is disabled; please contact your administrator.");
  }
  if (cred.expiresAt !== undefined && cred.expiresAt <= now) {
    throw denied("InvalidAccessKeyId", "The access key ID you provided has expired.");
  }
  if (cred.kind === "sts") {
    if (!token || !constantTimeEqual(token, cred.sessionToken ?? "")) {
      throw denied("InvalidTokenId", "The security token included in the request is invalid");
    }
  } else if (token) {
    throw denied("InvalidTokenId", "The security token included in the request is invalid");
  }
  return cred;
}
