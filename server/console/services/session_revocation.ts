/**
 * Ending sessions on the storage server. Console sessions hold STS credentials, and the console keeps no
 * state of its own (any replica serves any request), so a session ends where every replica will notice it:
 * its credentials are revoked on the storage server (revoke-tokens, minio-protocol-2 §13.1), after which
 * each storage call made with them fails with InvalidAccessKeyId and the console answers 401.
 */
import * as iam from "../../lib/s3/admin/iam.ts";
import type { S3Client } from "../../lib/s3/client.ts";
import { S3Error } from "../../lib/s3/errors.ts";
import { forgetAccess } from "../session/live_access.ts";

/** A fresh TokenRevokeType per sign-in, so signing out ends this session and not the user's others. */
export function newSessionRevokeType(): string {
  return `deck-${crypto.randomUUID()}`;
}

/**
 * Storage answers that mean "this server cannot revoke for this caller": no revoke-tokens API (MinIO before
 * RELEASE.2025-04-03 answers XMinioAdminVersionMismatch), or the caller lacks admin:RemoveServiceAccount.
 */
const CANNOT_REVOKE = new Set([
  "XMinioAdminVersionMismatch",
  "AccessDenied",
  "XMinioIAMActionNotAllowed",
  "NotImplemented",
]);

/** Codes that say the signing credentials are already gone: the session being ended is over anyway. */
const ALREADY_ENDED = new Set(["InvalidAccessKeyId", "InvalidTokenId", "ExpiredToken"]);

/**
 * Revokes STS credentials: `{}` the signer's own session (its own revoke type), `{ user, fullRevoke }` every
 * session of a user, `{ fullRevoke }` every session of the signer's user (signed with its own keys). Resolves
 * false when the storage server cannot do it (see CANNOT_REVOKE); other failures throw. The sessions' live
 * access answers are forgotten either way, so this replica asks the storage again at once.
 */
export async function endSessions(
  client: S3Client,
  target: { user?: string; fullRevoke?: boolean } = {},
): Promise<boolean> {
  const signer = client.credentials.accessKey;
  try {
    await iam.revokeTokens(client, target);
    return true;
  } catch (error) {
    if (!(error instanceof S3Error)) throw error;
    if (ALREADY_ENDED.has(error.code) && !target.user) return true;
    if (CANNOT_REVOKE.has(error.code)) return false;
    throw error;
  } finally {
    forgetAccess(
      client.endpoint,
      target.user
        ? { account: target.user }
        : target.fullRevoke
        ? { account: signer }
        : { accessKey: signer },
    );
  }
}
