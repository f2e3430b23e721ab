/**
 * What a live stream says besides its messages: the relay's error, why it ended when its session did, and
 * messages dropped for a slow page.
 */
import { STREAM_CLOSE } from "../../server/lib/contract/tools.ts";
import { basePath } from "../lib/request.ts";
import type { LiveSocket } from "../lib/live_socket.ts";

/** The explanation of a stream that ended with its session (server/console/ws/session_watch.ts), or null. */
export function sessionEndNotice(closeCode: number | null): string | null {
  if (closeCode === STREAM_CLOSE.sessionEnded) {
    return "This stream stopped because your session ended: you signed out, it expired, or your account was disabled or removed.";
  }
  if (closeCode === STREAM_CLOSE.accessRemoved) {
    return "This stream stopped because your account is no longer allowed to see it.";
  }
  return null;
}

export function LiveNotices(
  { socket }: { socket: Pick<LiveSocket<unknown>, "error" | "dropped" | "closeCode" | "status"> },
) {
  const refused = socket.status === "closed" && socket.closeCode === 1006 && !socket.error;
  const ended = socket.status === "closed" ? sessionEndNotice(socket.closeCode) : null;
  return (
    <>
      {socket.error
        ? (
          <div role="alert" className="alert alert-error alert-soft mb-3" data-testid="live-error">
            <span>
              <b>{socket.error.message}</b>
              {socket.error.detail && socket.error.detail !== socket.error.message
                ? ` — ${socket.error.detail}`
                : ""}
            </span>
          </div>
        )
        : null}
      {refused
        ? (
          <div role="alert" className="alert alert-error alert-soft mb-3" data-testid="live-error">
            The connection to the console was refused or lost. Sign in again if your session has ended.
          </div>
        )
        : null}
      {ended
        ? (
          <div role="alert" className="alert alert-warning alert-soft mb-3" data-testid="live-ended">
            <span>
              {ended} {socket.closeCode === STREAM_CLOSE.sessionEnded
                ? <a className="link font-semibold" href={`${basePath()}login`}>Sign in again</a>
                : null}
            </span>
          </div>
        )
        : null}
      {socket.dropped > 0
        ? (
          <p className="text-sm text-warning mb-2" role="status">
            {socket.dropped} messages were skipped because they arrived faster than this page could show them.
          </p>
        )
        : null}
    </>
  );
}
