/**
 * What a live stream says besides its messages: the relay's error, why it ended when its session did, and
 * messages dropped for a slow page.
 */
import { STREAM_CLOSE } from "../../server/lib/contract/tools.ts";
import { basePath } from "../lib/request.ts";
import { t } from "../lib/i18n/t.ts";
import type { LiveSocket } from "../lib/live_socket.ts";

/** The explanation of a stream that ended with its session (server/console/ws/session_watch.ts), or null. */
export function sessionEndNotice(closeCode: number | null): string | null {
  if (closeCode === STREAM_CLOSE.sessionEnded) {
    return t("monitoring.live.sessionEnded");
  }
  if (closeCode === STREAM_CLOSE.accessRemoved) {
    return t("monitoring.live.accessRemoved");
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
            {t("monitoring.live.refused")}
          </div>
        )
        : null}
      {ended
        ? (
          <div role="alert" className="alert alert-warning alert-soft mb-3" data-testid="live-ended">
            <span>
              {ended} {socket.closeCode === STREAM_CLOSE.sessionEnded
                ? (
                  <a className="link font-semibold" href={`${basePath()}login`}>
                    {t("monitoring.live.signInAgain")}
                  </a>
                )
                : null}
            </span>
          </div>
        )
        : null}
      {socket.dropped > 0
        ? (
          <p className="text-sm text-warning mb-2" role="status">
            {t("monitoring.live.dropped", { count: String(socket.dropped) })}
          </p>
        )
        : null}
    </>
  );
}
