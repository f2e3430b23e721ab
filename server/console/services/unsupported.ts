/**
 * Requests a plain S3 server may not implement (s3rver has no bucket policies, no versioning, no lifecycle):
 * their refusal becomes a 501 that names the feature, instead of the server's bare NotImplemented or a 405
 * that would read as "the object is a delete marker".
 */
import { ApiError } from "../http/errors.ts";
import { isNotImplemented } from "../../lib/s3/probe.ts";
import { t } from "../../../islands/lib/i18n/t.ts";

/**
 * Runs `work`; a "not implemented" answer becomes 501 "<feature>: not supported by this storage server", in the
 * request's language (`feature` is said in it already).
 */
export async function unlessUnsupported<T>(feature: string, work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (!isNotImplemented(error)) throw error;
    throw new ApiError(501, t("buckets.unsupported.message", { feature }), {
      detail: error instanceof Error ? error.message : String(error),
    });
  }
}
