/**
 * Live streams end when their session does. The storage checks a stream's credentials once, when it starts,
 * and then keeps sending: without this, a trace opened before sign-out, before the account was disabled or
 * deleted, or before the session expired would go on delivering for as long as the tab stayed open. Every
 * SESSION_CHECK_MS an open stream asks the same live answer pages use (server/console/session/live_access.ts) and
 * closes with a code the page explains:
 *
 * - CLOSE_SESSION_ENDED (4001): the session expired, or the storage no longer accepts its credentials
 *   (signed out, account disabled or deleted, password reset);
 * - CLOSE_ACCESS_REMOVED (4003): the account's current policy no longer allows the stream's action.
 */
import { STREAM_CLOSE } from "../../lib/contract/tools.ts";
import { toApiError } from "../http/errors.ts";
import { allows, liveAccess, type LiveAccessDeps } from "../session/live_access.ts";
import type { SessionData } from "../session/token.ts";

export const CLOSE_SESSION_ENDED = STREAM_CLOSE.sessionEnded;
export const CLOSE_ACCESS_REMOVED = STREAM_CLOSE.accessRemoved;
/** How often an open stream checks its session (the live answer itself may be a few seconds old). */
export const SESSION_CHECK_MS = 2000;

/** What a stream needs of the account's policy: the storage action it is served under. */
export interface StreamPermission {
  /** "" for streams of the user's own things (their jobs): only the session itself is checked. */
  action: string;
  /** For bucket streams (watch), the bucket the action is on. */
  bucket?: string;
}

export interface StreamEnd {
  code: number;
  reason: string;
}

/** Why the stream must end now, or null while its session stands (an unreachable storage is not a verdict). */
export async function sessionVerdict(
  deps: LiveAccessDeps,
  session: SessionData,
  need: StreamPermission,
): Promise<StreamEnd | null> {
  if (deps.now() >= session.expiresAt) return { code: CLOSE_SESSION_ENDED, reason: "session expired" };
  try {
    const access = await liveAccess(deps, session);
    if (!need.action || allows(access, need.action, need.bucket)) return null;
    return { code: CLOSE_ACCESS_REMOVED, reason: `${need.action} is no longer allowed` };
  } catch (error) {
    return toApiError(error).status === 401 ? { code: CLOSE_SESSION_ENDED, reason: "session ended" } : null;
  }
}

/** Checks the session until `signal` aborts, and calls `end` once when it must stop. */
export function watchSession(
  deps: LiveAccessDeps,
  session: SessionData,
  need: StreamPermission,
  signal: AbortSignal,
  end: (verdict: StreamEnd) => void,
): void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const schedule = () => {
    timer = setTimeout(async () => {
      const verdict = await sessionVerdict(deps, session, need);
      if (signal.aborted) return;
      if (verdict) end(verdict);
      else schedule();
    }, SESSION_CHECK_MS);
  };
  signal.addEventListener("abort", () => clearTimeout(timer), { once: true });
  if (!signal.aborted) schedule();
}
