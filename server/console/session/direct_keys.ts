/**
 * Sign-in to an S3 server without STS (s3rver, Garage, SeaweedFS, Ceph RGW without STS set up): the typed
 * access key and secret key are the session's credentials, used as they are. They are checked with one signed
 * ListBuckets, kept only inside the sealed session cookie (server/console/session/token.ts) like STS
 * credentials are, and never sent to the browser in any readable form. Such a server has no account policy to
 * read, so the console offers every S3 page and lets the server refuse what the keys may not do.
 */
import { ApiError } from "../http/errors.ts";
import { S3Error } from "../../lib/s3/errors.ts";
import { listBuckets } from "../../lib/s3/ops/buckets.ts";
import { clientFor, clientWithKeys, type StorageAccess } from "./clients.ts";
import { allowedPages } from "./pages.ts";
import type { Policy } from "../../lib/policy/types.ts";
import type { SessionData } from "./token.ts";

/** Answers meaning "these keys are not accepted" rather than "the server has trouble". */
const REFUSED = new Set(["InvalidAccessKeyId", "SignatureDoesNotMatch", "AccessDenied", "ExpiredToken"]);

/** The menu of a keys session: what plain S3 serves. The storage server still decides every call. */
const S3_ACTIONS = ["s3:*"];

/** A policy standing for "whatever the server allows": it shapes buttons only, never a decision. */
export const S3_POLICY: Policy = {
  Version: "2012-10-17",
  Statement: [{ Effect: "Allow", Action: S3_ACTIONS, Resource: ["arn:aws:s3:::*"] }],
};

export interface DirectKeysDeps extends StorageAccess {
  now: () => number;
  config: { sessionSeconds: number };
}

/** Checks the keys with one signed, read-only call; 401 "invalid Login" when refused, 503 when unreachable. */
export async function signInWithKeys(
  deps: DirectKeysDeps,
  input: { accessKey: string; secretKey: string },
): Promise<SessionData> {
  try {
    await listBuckets(clientWithKeys(deps, input.accessKey, input.secretKey));
  } catch (error) {
    if (error instanceof S3Error && error.status < 500) {
      throw ApiError.unauthorized(
        "invalid Login",
        REFUSED.has(error.code)
          ? "The access key or secret key is wrong, or the account is disabled."
          : error.message,
      );
    }
    throw new ApiError(503, "the storage server cannot be reached", {
      detail: error instanceof Error ? error.message : String(error),
    });
  }
  return {
    accessKey: input.accessKey,
    secretKey: input.secretKey,
    sessionToken: "",
    account: input.accessKey,
    distributed: false,
    sso: false,
    directKeys: true,
    expiresAt: deps.now() + deps.config.sessionSeconds * 1000,
  };
}

/**
 * The access of a session on a server without MinIO's admin API (keys sessions, or STS credentials from a
 * server with STS only): the credentials still work (one ListBuckets; a refusal ends the session with 401),
 * and every S3 page is offered.
 */
export async function plainS3Access(
  deps: StorageAccess,
  session: SessionData,
): Promise<{ account: string; actions: string[]; policy: Policy; pages: string[]; distributed: boolean }> {
  try {
    await listBuckets(clientFor(deps, session));
  } catch (error) {
    if (error instanceof S3Error && REFUSED.has(error.code)) {
      throw ApiError.unauthorized("invalid session", "the storage server no longer accepts these keys");
    }
    throw error;
  }
  return {
    account: session.account,
    actions: S3_ACTIONS,
    policy: S3_POLICY,
    pages: allowedPages(S3_ACTIONS).filter((page) => !page.startsWith("/account")),
    distributed: false,
  };
}
