/**
 * What the object browser says in place of the buckets, a folder or an object it could not read, rather than
 * an empty table or a bare "cannot be shown": shared by the server's first render and the island's later views.
 */
import { BUCKETS_REFUSED } from "../../server/lib/contract/buckets.ts";
import { t } from "../lib/i18n/t.ts";

export interface Refusal {
  status: number;
  message: string;
}

const reason = (message: string) => message.replace(/\.$/, "");

/** In place of the bucket list (an empty list may be a refusal too: services/buckets.ts bucketListRefusal). */
export function bucketsRefusal(error: Refusal): string {
  return error.status === 403
    ? BUCKETS_REFUSED
    : t("objects.refusal.buckets", { reason: reason(error.message) });
}

/** In place of a folder's rows. */
export function folderRefusal(error: Refusal): string {
  return error.status === 403
    ? t("objects.refusal.folderDenied")
    : t("objects.refusal.folderFailed", { reason: reason(error.message) });
}

/** In place of an object's page. */
export function objectRefusal(error: Refusal): string {
  if (error.status === 403) return t("objects.refusal.objectDenied");
  if (error.status === 404) return t("objects.refusal.objectMissing");
  return t("objects.refusal.objectFailed", { reason: reason(error.message) });
}
