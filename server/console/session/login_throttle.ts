/**
 * Console sign-in's throttle: after three failed sign-ins from one address, each further attempt waits twice
 * as long as the previous one (1 s, 2 s, … capped at 5 minutes), and attempts that come too early get 429
 * without touching the storage server.
 */
import { FailureThrottle } from "../../lib/http/failure_throttle.ts";

export class LoginThrottle extends FailureThrottle {
  constructor(now: () => number = Date.now) {
    super({ freeFailures: 3, firstDelayMs: 1000, maxDelayMs: 5 * 60_000 }, now);
  }
}
