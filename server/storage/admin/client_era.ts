/**
 * Which answer shapes the calling MinIO admin client (madmin-go) understands, where they changed over time
 * (minio-protocol-2 §12.2, §14 item 1). madmin-go names a library version in its User-Agent
 * (`MinIO (os; arch) madmin-go/<v> [app/<v>]`), but not its module version: v1.x send "0.0.1", v2.0.0 to
 * v3.0.69 all send "2.0.0", later ones their own. "2.0.0" covers clients that decode service accounts as
 * strings (v2.0.x, v2.1.x, until 2023-05-24) and as objects (v2.2.0 on); the app's release date (mc sends
 * `mc/RELEASE.<date>`) settles it when present, otherwise the object form, the longer-lived of the two.
 */

/** madmin v2.2.0, the first to decode service accounts as objects, was released on this day. */
const OBJECT_ACCOUNTS_SINCE = "2023-05-25";

/** Whether the client decodes ListServiceAccounts' `accounts` as a list of access-key strings. */
export function wantsServiceAccountNames(userAgent: string | null): boolean {
  const library = /madmin-go\/(\d+)\.(\d+)\.(\d+)/.exec(userAgent ?? "");
  if (!library) return false; // not madmin: today's shape
  const [major, minor] = [Number(library[1]), Number(library[2])];
  if (major === 0) return true; // madmin-go v1.x
  if (major !== 2 || minor !== 0) return false;
  const released = /RELEASE\.(\d{4}-\d{2}-\d{2})/.exec(userAgent ?? "")?.[1];
  return released !== undefined && released < OBJECT_ACCOUNTS_SINCE;
}
