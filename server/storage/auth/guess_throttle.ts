/**
 * Password guessing straight at the storage port: signature failures are counted per claimed access key and
 * client address, and after a few of them that pair must wait before its next attempt (250 ms, doubling up to
 * 30 s); attempts that come earlier get 503 SlowDown before any signature is computed. Correct requests pay
 * one map lookup: only a pair that keeps failing waits, and its first success clears it.
 *
 * The key counted is the one the signature check verifies: both read the request's claim (claim.ts), parsed
 * once and strictly. Header signatures, presigned URLs and browser-form (POST policy) signatures all count.
 */
import { FailureThrottle } from "../../lib/http/failure_throttle.ts";
import type { IdentityAuthority } from "../core/contracts.ts";
import { claimOf } from "./claim.ts";
import { authenticate, type AuthOptions } from "./verify.ts";
import { StoreError } from "../core/errors.ts";
import type { Authenticated } from "./authenticated.ts";

/**
 * Answers that mean a guessed secret was wrong. An unknown, expired or revoked key (InvalidAccessKeyId) is not
 * a guess at a secret, and counting it per key would only slow a dead session's way back to sign-in.
 */
const GUESS_FAILURES = new Set(["SignatureDoesNotMatch"]);

/** The throttle itself: one per storage front, shared by every kind of signature. */
export class GuessThrottle {
  readonly #failures: FailureThrottle;

  constructor(now: () => number = Date.now) {
    this.#failures = new FailureThrottle({ freeFailures: 5, firstDelayMs: 250, maxDelayMs: 30_000 }, now);
  }

  /**
   * Runs `check`, a signature check for `accessKey` from `sourceIp`, unless that pair must wait (503
   * SlowDown, with Retry-After); a wrong signature counts against the pair, a right one clears it.
   */
  async guard<T>(accessKey: string, sourceIp: string, check: () => T | Promise<T>): Promise<T> {
    if (!accessKey) return await check(); // anonymous: nothing to guess
    const pair = `${accessKey}\u0000${sourceIp}`;
    const wait = this.#failures.waitFor(pair);
    if (wait > 0) {
      throw new StoreError(
        "SlowDown",
        "Please reduce your request rate: too many failed signatures for this access key.",
        503,
        { "retry-after": String(Math.ceil(wait / 1000)) },
      );
    }
    try {
      const result = await check();
      this.#failures.recordSuccess(pair);
      return result;
    } catch (error) {
      if (error instanceof StoreError && GUESS_FAILURES.has(error.code)) this.#failures.recordFailure(pair);
      throw error;
    }
  }
}

export type Authenticator = (
  request: Request,
  url: URL,
  sourceIp: string,
  options: AuthOptions,
) => Promise<Authenticated>;

/** `authenticate` behind the throttle: the request's claim is read once, throttled on, then verified. */
export function throttledAuthenticate(authority: IdentityAuthority, throttle: GuessThrottle): Authenticator {
  return async (request, url, sourceIp, options) => {
    const claim = claimOf(request, url); // a malformed header is refused here: it tests no secret
    // A generated secret cannot be guessed, and its access key is often public (a share link carries it):
    // refusing early would only let anyone lock the key out for everyone behind the same address, e.g. all
    // recipients of a link opened through the console.
    if (claim.accessKey && authority.lookupCredential(claim.accessKey)?.generatedSecret) {
      return await authenticate(request, url, authority, options, claim);
    }
    return await throttle.guard(
      claim.accessKey,
      sourceIp,
      () => authenticate(request, url, authority, options, claim),
    );
  };
}
