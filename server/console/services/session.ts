/**
 * Sign-in: trade the typed access key and secret for temporary credentials with STS AssumeRole, read the
 * account's effective policy, and derive what the console shows (api-index §13, §14). The long-term secret is
 * never stored.
 */
import type {
  LoginInput,
  LoginStrategy,
  OAuthCallbackInput,
  SessionInfo,
} from "../../lib/contract/session.ts";
import type { AppConfig } from "../config/config.ts";
import type { OperatorDeps } from "../k8s/connection.ts";
import type { Logger } from "../../lib/http/log.ts";
import { ApiError } from "../http/errors.ts";
import { t } from "../../../islands/lib/i18n/t.ts";
import { accountInfo } from "../../lib/s3/admin/info.ts";
import { S3Error } from "../../lib/s3/errors.ts";
import { forwardedHeaders } from "../../lib/s3/forwarded_client.ts";
import { assumeRole, assumeRoleWithWebIdentity, type TemporaryCredentials } from "../../lib/s3/sts.ts";
import { checkCallback, exchangeCode, startSignIn } from "../session/oidc.ts";
import { ssoRefusal, storageRefusal } from "../session/sso_reasons.ts";
import { accessFrom, liveAccess, type LiveAccessDeps, rememberAccess } from "../session/live_access.ts";
import type { SessionData } from "../session/token.ts";
import { operatorSessionInfo, signInOperator } from "./operator/session.ts";
import { clientFor, clientWithKeys } from "../session/clients.ts";
import { serverCapabilities } from "../session/capabilities.ts";
import { signInWithKeys } from "../session/direct_keys.ts";
import { endSessions, newSessionRevokeType } from "./session_revocation.ts";
import { type LogSearchDeps, sessionFeatures } from "./tools.ts";
import { signInWithDirectory } from "./session_ldap.ts";

/** What signing in and out needs of the console (the areas hand their AppDeps, which has all of it). */
export interface SessionDeps extends LiveAccessDeps, LogSearchDeps {
  config: AppConfig;
  log: Logger;
  sessionKey: CryptoKey;
  operator?: OperatorDeps;
}

/**
 * Which sign-in page to show: the SSO redirect when an OpenID provider is configured, else the form. The
 * redirect is the console's own /login/sso, which starts each sign-in with fresh state, nonce and PKCE.
 */
export function loginStrategy(deps: SessionDeps): Promise<LoginStrategy> {
  if (!deps.config.idp) return Promise.resolve({ loginStrategy: deps.operator ? "service-account" : "form" });
  return Promise.resolve({ loginStrategy: "redirect", redirect: `${deps.config.subpath}login/sso` });
}

/**
 * Starts single sign-on for a browser that opened the console at `origin`: the provider's authorisation URL
 * and the sealed pending sign-in the browser keeps meanwhile. Refused when the provider would send the
 * browser back to another address than the one it uses (the pending sign-in would stay behind).
 */
export async function beginSso(deps: SessionDeps, origin: string): Promise<{ url: string; pending: string }> {
  if (!deps.config.idp) throw ApiError.badRequest(t("common.login.ssoNotConfigured"));
  checkCallback(deps.config.idp, origin, deps.config.subpath);
  return await startSignIn(deps.config.idp, deps.sessionKey, deps.fetch, deps.now());
}

const invalidLogin = (detail: string) => ApiError.unauthorized(t("common.login.invalid"), detail);

/**
 * Builds the session from temporary credentials: the backend type gives distributed mode; the account's
 * policy read here is remembered as the session's first live answer (its permissions are never sealed in).
 */
async function sessionFrom(
  deps: SessionDeps,
  creds: TemporaryCredentials,
  account: string,
  sso: boolean,
): Promise<SessionData> {
  const expiration = Date.parse(creds.expiration);
  const base: SessionData = {
    accessKey: creds.accessKey,
    secretKey: creds.secretKey,
    sessionToken: creds.sessionToken,
    account,
    distributed: true,
    sso,
    expiresAt: Math.min(
      Number.isNaN(expiration) ? Infinity : expiration,
      deps.now() + deps.config.sessionSeconds * 1000,
    ),
  };
  try {
    const info = await accountInfo(clientFor(deps, base));
    base.distributed = info.Server?.Type === 2;
    rememberAccess(deps, base, accessFrom(info, sso));
  } catch (error) {
    // As the original console: without account info the session still works, with the legacy default
    // of distributed mode and no admin pages (api-index §13.7).
    deps.log.warn("account info unavailable at sign-in", {
      error: error instanceof Error ? error.message : String(error),
    });
  }
  return base;
}

/**
 * Form sign-in from `clientAddress`, which the console vouches for to a storage it started, so the storage
 * slows a guesser's attempts and not everyone's. Wrong keys → 401 "invalid Login"; an unreachable storage
 * server → 503.
 */
export async function signIn(
  deps: SessionDeps,
  input: LoginInput,
  clientAddress: string,
): Promise<SessionData> {
  // Only MinIO's STS trades a user's own keys for temporary ones (Ceph's AssumeRole needs a role ARN): any
  // other server takes the typed keys as they are. Asked afresh at each sign-in.
  const caps = await serverCapabilities(deps, null, { fresh: true });
  if (caps.sts === "no" || caps.adminApi === "no") return await signInWithKeys(deps, input);
  const key = deps.storage.forwardingKey;
  let creds: TemporaryCredentials;
  try {
    creds = await assumeRole(clientWithKeys(deps, input.accessKey, input.secretKey), {
      durationSeconds: deps.config.sessionSeconds,
      tokenRevokeType: newSessionRevokeType(),
      headers: key ? await forwardedHeaders(key, clientAddress) : undefined,
    });
  } catch (error) {
    // Not a user of the storage's own: perhaps one of its directory's (CONSOLE_LDAP_ENABLED).
    if (error instanceof S3Error && error.status < 500) {
      const directory = await signInWithDirectory(deps, input.accessKey, input.secretKey);
      if (directory) return await sessionFrom(deps, directory, input.accessKey, false);
    }
    if (error instanceof S3Error) {
      if (error.status >= 500) {
        throw new ApiError(503, t("common.login.storageCannotSignIn"), { detail: error.message });
      }
      throw invalidLogin(
        error.code === "AccessDenied" || error.code === "InvalidAccessKeyId" ||
          error.code === "SignatureDoesNotMatch"
          ? t("common.login.wrongKeys")
          : error.message,
      );
    }
    throw new ApiError(503, t("common.error.storageUnreachable"), {
      detail: error instanceof Error ? error.message : String(error),
    });
  }
  return await sessionFrom(deps, creds, input.accessKey, false);
}

/**
 * SSO sign-in: check state (against `pending`, the browser's sealed pending sign-in), exchange the code,
 * check the nonce, and let the storage server verify the id_token and map its policy claim.
 */
export async function signInWithIdp(
  deps: SessionDeps,
  input: OAuthCallbackInput,
  pending: string | undefined,
): Promise<SessionData> {
  if (!deps.config.idp) throw ApiError.badRequest(t("common.login.ssoNotConfigured"));
  const idToken = await exchangeCode(
    deps.config.idp,
    deps.sessionKey,
    deps.fetch,
    deps.now(),
    input,
    pending,
  );
  // Operator mode: the identity provider vouched for the person (code and state checked above, unlike the
  // original, which skipped both); Kubernetes calls then use the console's own service account.
  if (deps.operator) {
    if (!deps.operator.serviceAccountToken) {
      throw invalidLogin(
        "no service-account token is configured for single sign-on (CONSOLE_OPERATOR_SA_TOKEN)",
      );
    }
    const session = await signInOperator(
      deps.operator,
      deps.operator.serviceAccountToken,
      deps.now() + deps.config.sessionSeconds * 1000,
    );
    return { ...session, sso: true };
  }
  let creds: TemporaryCredentials;
  try {
    creds = await assumeRoleWithWebIdentity(deps.storage.url, deps.fetch, {
      token: idToken,
      durationSeconds: deps.config.sessionSeconds,
      tokenRevokeType: newSessionRevokeType(),
    });
  } catch (error) {
    if (error instanceof S3Error && error.status < 500) throw storageRefusal(error.message);
    throw ssoRefusal(
      "storage",
      `it cannot be reached or failed (${error instanceof Error ? error.message : String(error)}).`,
    );
  }
  return await sessionFrom(deps, creds, "", true);
}

/**
 * GET /api/v1/session. Asks the storage server for the account every time, as the original console did: a
 * session whose credentials the storage server no longer accepts (signed out elsewhere, user disabled or
 * deleted) is a 401 here too. Pages and features come from the same live answer the pages use
 * (server/console/session/live_access.ts), so the menu and the pages agree; `log-search` is listed when a log search
 * is available and the account may search it (api-index §13.6 listed it for every session).
 */
export async function sessionInfo(deps: SessionDeps, session: SessionData): Promise<SessionInfo> {
  if (session.k8sToken) return operatorSessionInfo();
  const access = await liveAccess(deps, session, { fresh: true });
  return {
    status: "ok",
    pages: access.pages,
    features: sessionFeatures(deps, access),
    distributedMode: access.distributed,
  };
}

/**
 * Sign-out: revokes this session's STS credentials on the storage server, so a copy of the cookie stops
 * working on every console replica at once. A storage server without revoke-tokens (MinIO before
 * RELEASE.2025-04-03) keeps them until they expire; that is logged, and the cookie is cleared either way.
 */
export async function signOut(deps: SessionDeps, session: SessionData): Promise<void> {
  if (session.k8sToken) return; // an operator's token is Kubernetes' to revoke; clearing the cookie ends the session here
  if (session.directKeys) return; // long-term keys are not the console's to revoke: clearing the cookie ends it
  if (!(await endSessions(clientFor(deps, session)))) {
    deps.log.warn(
      "the storage server cannot revoke temporary credentials; this session's stay valid until they expire",
      { storage: deps.storage.url },
    );
  }
}
