/**
 * Password guessing straight at the storage port: signature failures are counted per claimed access key and
 * client address, and after a few of them that pair must wait before its next attempt (250 ms, doubling up to
 * 30 s); attempts that come earlier get 503 SlowDown before any signature is computed. Correct requests pay
 * one map lookup: only a pair that keeps failing waits, and its first success clears it.
 */
import { FailureThrottle } from "../../failure_throttle.ts";
import type { IdentityAuthority } from "../contracts.ts";
import { StoreError } from "../fs/store.ts";
import { authenticate, type Authenticated } from "./verify.ts";

/**
 * Answers that mean a guessed secret was wrong. An unknown, expired or revoked key (InvalidAccessKeyId) is not
 * a guess at a secret, and counting it per key would only slow a dead session's way back to sign-in.
 */
const GUESS_FAILURES = new Set(["SignatureDoesNotMatch"]);

/** The access key a request claims (Authorization header or presigned query), before anything is verified. */
function claimedAccessKey(request: Request, url: URL): string {
  const authorization = request.headers.get("authorization") ?? "";
  const header = /Credential=([^/,\s]+)/.exec(authorization)?.[1] ??
    /^AWS ([^:\s]+):/.exec(authorization)?.[1];
  return header ?? url.searchParams.get("X-Amz-Credential")?.split("/")[0] ??
    url.searchParams.get("AWSAccessKeyId") ?? "";
}

export type Authenticator = (
  request: Request,
  url: URL,
  sourceIp: string,
  options: { service: string; now?: number; bodyHash?: string; region?: string; virtualBucket?: string },
) => Promise<Authenticated>;

/** `authenticate` behind the throttle; `now` is the clock the waits are measured with. */
export function throttledAuthenticate(
  authority: IdentityAuthority,
  now: () => number = Date.now,
): Authenticator {
  const throttle = new FailureThrottle({ freeFailures: 5, firstDelayMs: 250, maxDelayMs: 30_000 }, now);
  return async (request, url, sourceIp, options) => {
    const accessKey = claimedAccessKey(request, url);
    if (!accessKey) return await authenticate(request, url, authority, options); // anonymous: nothing to guess
    const pair = `${accessKey}\u0000${sourceIp}`;
    const wait = throttle.waitFor(pair);
    if (wait > 0) {
      throw new StoreError(
        "SlowDown",
        "Please reduce your request rate: too many failed signatures for this access key.",
        503,
        {
          "retry-after": String(Math.ceil(wait / 1000)),
        },
      );
    }
    try {
      const auth = await authenticate(request, url, authority, options);
      throttle.recordSuccess(pair);
      return auth;
    } catch (error) {
      if (error instanceof StoreError && GUESS_FAILURES.has(error.code)) throttle.recordFailure(pair);
      throw error;
    }
  };
}
