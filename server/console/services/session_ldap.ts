/**
 * Directory sign-in through the login form (CONSOLE_LDAP_ENABLED): the typed name and password go to the
 * storage's STS AssumeRoleWithLDAPIdentity, and a refusal is turned into words an administrator can act on.
 * The storage's message names the failed step (MinIO's wording, which the embedded storage keeps); what an
 * anonymous visitor sees never tells a wrong name from a wrong password: "no such user under the search
 * base" and "wrong password" get one and the same answer. Steps that say nothing about the account (the
 * directory is down, the service account is refused, the search base is missing) and the one that follows a
 * correct password (no policy mapped) are named in full.
 */
import { S3Error } from "../../lib/s3/errors.ts";
import { assumeRoleWithLdapIdentity, type TemporaryCredentials } from "../../lib/s3/sts.ts";
import type { AppConfig } from "../config/config.ts";
import type { StorageEndpoint } from "../config/endpoints.ts";
import { ApiError } from "../http/errors.ts";
import { newSessionRevokeType } from "./session_revocation.ts";

export type LdapRefusalStep =
  | "not-configured"
  | "reach"
  | "lookup-bind"
  | "search-base"
  | "credentials"
  | "no-policy"
  | "other";

/** The same answer for an unknown name, a disabled account and a wrong password. */
export const CREDENTIALS_REFUSED =
  "The user name or password is wrong, or the directory has no enabled account by that name under its user search base. An administrator can look the user up in Settings › Identity › Diagnostics.";

/** Which step the storage's refusal names (MinIO's messages; the embedded storage words them the same). */
export function ldapRefusalStep(message: string): LdapRefusalStep {
  if (/not configured|not enabled|LDAP is not/i.test(message)) return "not-configured";
  if (/expecting a policy to be set/i.test(message)) return "no-policy";
  if (/Lookup Bind/i.test(message)) return "lookup-bind";
  if (/Base DN \(.*\) .*does not exist|lookup-bind mode needs|Multiple DNs/i.test(message)) {
    return "search-base";
  }
  if (
    /User DN not found|LDAP auth failed|Invalid ?Credentials|cannot be empty|Result Code 49/i.test(message)
  ) {
    return "credentials";
  }
  if (
    /cannot be reached|Network Error|dial tcp|connection refused|ECONNREFUSED|timed? ?out|certificate|TLS/i
      .test(message)
  ) {
    return "reach";
  }
  return "other";
}

/** What the login page says for a refusal; null for a storage without a directory (the caller's answer stands). */
export function ldapRefusal(message: string, mode: AppConfig["ldapSignIn"]): ApiError | null {
  const detail = message.replace(/^LDAP server error:\s*/i, "");
  switch (ldapRefusalStep(message)) {
    case "not-configured":
      return mode === "on"
        ? new ApiError(503, "directory sign-in is not set up on the storage server", {
          detail:
            `CONSOLE_LDAP_ENABLED is on, but the storage server has no directory configured (identity_ldap): ${detail}`,
        })
        : null;
    case "reach":
      return new ApiError(503, "the directory server cannot be reached", {
        detail:
          `${detail}. Check identity_ldap server_addr and its TLS mode (server_insecure, server_starttls, tls_skip_verify).`,
      });
    case "lookup-bind":
      return new ApiError(503, "the directory refused the storage server's lookup account", {
        detail:
          `${detail}. An administrator must correct lookup_bind_dn and lookup_bind_password in identity_ldap.`,
      });
    case "search-base":
      return new ApiError(503, "the directory's user search is misconfigured", {
        detail:
          `${detail}. Check user_dn_search_base_dn, user_dn_search_filter and group_search_base_dn in identity_ldap.`,
      });
    case "no-policy":
      return new ApiError(403, "no policy is mapped to this directory user or its groups", {
        detail: `${
          detail.replace(/ - rejecting this request$/, "")
        }. An administrator can attach one to the user's DN or a group's DN on the Users or Groups page.`,
      });
    case "credentials":
      return ApiError.unauthorized("invalid Login", CREDENTIALS_REFUSED);
    default:
      return ApiError.unauthorized("invalid Login", detail);
  }
}

/**
 * Signs a directory user in: temporary credentials, or null when the storage has no directory (then the
 * caller's own refusal stands). Refusals are thrown as ApiErrors saying which step failed.
 */
export async function signInWithDirectory(
  deps: { config: AppConfig; storage: StorageEndpoint; fetch: typeof fetch },
  username: string,
  password: string,
): Promise<TemporaryCredentials | null> {
  if (deps.config.ldapSignIn === "off") return null;
  try {
    return await assumeRoleWithLdapIdentity(deps.storage.url, deps.fetch, {
      username,
      password,
      durationSeconds: deps.config.sessionSeconds,
      tokenRevokeType: newSessionRevokeType(),
    });
  } catch (error) {
    if (!(error instanceof S3Error)) {
      throw new ApiError(503, "the storage server cannot be reached", {
        detail: error instanceof Error ? error.message : String(error),
      });
    }
    if (error.status >= 500 && error.code !== "InvalidParameterValue") {
      throw new ApiError(503, "the storage server cannot sign you in right now", { detail: error.message });
    }
    const refusal = ldapRefusal(error.message, deps.config.ldapSignIn);
    if (!refusal) return null;
    throw refusal;
  }
}
