/** What a live stream says besides its messages: the relay's error, and messages dropped for a slow page. */
import type { LiveSocket } from "../lib/live_socket.ts";

export function LiveNotices(
  { socket }: { socket: Pick<LiveSocket<unknown>, "error" | "dropped" | "closeCode" | "status"> },
) {
  const refused = socket.status === "closed" && socket.closeCode === 1006 && !socket.error;
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
