/**
 * Storage clients for a signed-in session: every console call to the storage server is made with the
 * session's own temporary credentials, so the storage server enforces the user's IAM.
 */
import type { StorageEndpoint } from "../config/endpoints.ts";
import { S3Client } from "../../lib/s3/client.ts";
import type { SessionData } from "./token.ts";

/** What a storage call needs of the console: where the storage is and the fetch that reaches it. */
export interface StorageAccess {
  storage: StorageEndpoint;
  fetch: typeof fetch;
}

/** A client signed with the session's temporary credentials. */
export function clientFor(deps: StorageAccess, session: SessionData): S3Client {
  return new S3Client({
    endpoint: deps.storage.url,
    region: deps.storage.region || undefined,
    credentials: {
      accessKey: session.accessKey,
      secretKey: session.secretKey,
      sessionToken: session.sessionToken || undefined,
    },
    fetch: deps.fetch,
  });
}

/** A client signed with long-term credentials the user typed (sign-in, change own password). */
export function clientWithKeys(
  deps: StorageAccess,
  accessKey: string,
  secretKey: string,
): S3Client {
  return new S3Client({
    endpoint: deps.storage.url,
    region: deps.storage.region || undefined,
    credentials: { accessKey, secretKey },
    fetch: deps.fetch,
  });
}
