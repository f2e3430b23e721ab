/**
 * A remote server as the replication wizard names it: `host`, `host:port` or `[ipv6]:port`, optionally with
 * `http://` or `https://` in front (which then decides TLS). Nothing else: no path, query, user or fragment,
 * so the console never fetches an arbitrary URL on a user's behalf.
 */

export interface RemoteTarget {
  /** host[:port], as S3 clients and MinIO's remote targets take it. */
  host: string;
  /** From an explicit scheme; undefined when none was typed. */
  secure?: boolean;
}

/** Why a target was refused; the console words it in the visitor's language. */
export type RemoteTargetProblem = "notHostPort" | "portOutOfRange";

const HOST_PORT =
  /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*)(?::(\d{1,5}))?$/;

/** Parses the target; `{ problem }` when it is not a host and port. */
export function parseRemoteTarget(text: string): RemoteTarget | { problem: RemoteTargetProblem } {
  let rest = text.trim();
  let secure: boolean | undefined;
  const scheme = /^(https?):\/\//i.exec(rest);
  if (scheme) {
    secure = scheme[1].toLowerCase() === "https";
    rest = rest.slice(scheme[0].length).replace(/\/$/, "");
  }
  const match = HOST_PORT.exec(rest);
  if (!match) return { problem: "notHostPort" };
  if (match[2] !== undefined && (Number(match[2]) < 1 || Number(match[2]) > 65535)) {
    return { problem: "portOutOfRange" };
  }
  return { host: rest, secure };
}
