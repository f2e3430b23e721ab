/**
 * What the object browser says in place of the buckets, a folder or an object it could not read, rather than
 * an empty table or a bare "cannot be shown": shared by the server's first render and the island's later views.
 */
import { BUCKETS_REFUSED } from "../../server/lib/contract/buckets.ts";

export interface Refusal {
  status: number;
  message: string;
}

const reason = (message: string) => message.replace(/\.$/, "");

/** In place of the bucket list (an empty list may be a refusal too: services/buckets.ts bucketListRefusal). */
export function bucketsRefusal(error: Refusal): string {
  return error.status === 403
    ? BUCKETS_REFUSED
    : `The buckets could not be listed: ${reason(error.message)}.`;
}

/** In place of a folder's rows. */
export function folderRefusal(error: Refusal): string {
  return error.status === 403
    ? "You do not have permission to list the objects in this folder."
    : `This folder could not be listed: ${reason(error.message)}.`;
}

/** In place of an object's page. */
export function objectRefusal(error: Refusal): string {
  if (error.status === 403) return "You do not have permission to read this object.";
  if (error.status === 404) return "This object does not exist.";
  return `This object cannot be shown: ${reason(error.message)}.`;
}
