/**
 * Sign-in: trade the typed access key and secret for temporary credentials with STS AssumeRole, read the
 * account's effective policy, and derive what the console shows (api-index §13, §14). The long-term secret is
 * never stored.
 */
import type { LoginInput, LoginStrategy, OAuthCallbackInput, SessionInfo } from "../contract/session.ts";
import type { AppDeps } from "../deps.ts";
import { ApiError } from "../errors.ts";
import { accountInfo } from "../s3/admin/info.ts";
import { S3Error } from "../s3/errors.ts";
import { assumeRole, assumeRoleWithWebIdentity, type TemporaryCredentials } from "../s3/sts.ts";
import { authorizationUrl, exchangeCode } from "../session/oidc.ts";
import { allowActionsOf, allowedPages } from "../session/pages.ts";
import type { SessionData } from "../session/token.ts";
import { clientFor, clientWithKeys } from "./storage_clients.ts";

/** Which sign-in page to show: the SSO redirect when an OpenID provider is configured, else the form. */
export async function loginStrategy(deps: AppDeps): Promise<LoginStrategy> {
  if (!deps.config.idp) return { loginStrategy: "form" };
  return { loginStrategy: "redirect", redirect: await authorizationUrl(deps.config.idp, deps.sessionKey, deps.fetch, deps.now()) };
}

const invalidLogin = (detail: string) => ApiError.unauthorized("invalid Login", detail);

/** Builds the session from temporary credentials: account policy → actions; backend type → distributed mode. */
async function sessionFrom(deps: AppDeps, creds: TemporaryCredentials, account: string, sso: boolean): Promise<SessionData> {
  const expiration = Date.parse(creds.expiration);
  const base: SessionData = {
    accessKey: creds.accessKey,
    secretKey: creds.secretKey,
    sessionToken: creds.sessionToken,
    account,
    actions: [],
    distributed: true,
    sso,
    expiresAt: Math.min(Number.isNaN(expiration) ? Infinity : expiration, deps.now() + deps.config.sessionSeconds * 1000),
  };
  try {
    const info = await accountInfo(clientFor(deps, base));
    base.actions = allowActionsOf(info.Policy);
    base.distributed = info.Server?.Type === 2;
  } catch (error) {
    // As the original console: without account info the session still works, with the legacy default
    // of distributed mode and no admin pages (api-index §13.7).
    deps.log.warn("account info unavailable at sign-in", { error: error instanceof Error ? error.message : String(error) });
  }
  return base;
}

/** Form sign-in. Wrong keys → 401 "invalid Login"; an unreachable storage server → 503. */
export async function signIn(deps: AppDeps, input: LoginInput): Promise<SessionData> {
  let creds: TemporaryCredentials;
  try {
    creds = await assumeRole(clientWithKeys(deps, input.accessKey, input.secretKey), { durationSeconds: deps.config.sessionSeconds });
  } catch (error) {
    if (error instanceof S3Error) {
      if (error.status >= 500) throw new ApiError(503, "the storage server cannot sign you in right now", { detail: error.message });
      throw invalidLogin(error.code === "AccessDenied" || error.code === "InvalidAccessKeyId" || error.code === "SignatureDoesNotMatch" ? "The access key or secret key is wrong, or the account is disabled." : error.message);
    }
    throw new ApiError(503, "the storage server cannot be reached", { detail: error instanceof Error ? error.message : String(error) });
  }
  return await sessionFrom(deps, creds, input.accessKey, false);
}

/** SSO sign-in: verify state, exchange the code, and let the storage server verify the id_token. */
export async function signInWithIdp(deps: AppDeps, input: OAuthCallbackInput): Promise<SessionData> {
  if (!deps.config.idp) throw ApiError.badRequest("single sign-on is not configured");
  const idToken = await exchangeCode(deps.config.idp, deps.sessionKey, deps.fetch, deps.now(), input);
  let creds: TemporaryCredentials;
  try {
    creds = await assumeRoleWithWebIdentity(deps.storage.url, deps.fetch, { token: idToken, durationSeconds: deps.config.sessionSeconds });
  } catch (error) {
    throw invalidLogin(error instanceof Error ? error.message : String(error));
  }
  return await sessionFrom(deps, creds, "", true);
}

/** GET /api/v1/session. */
export function sessionInfo(session: SessionData): SessionInfo {
  return { status: "ok", pages: allowedPages(session.actions, { sso: session.sso }), features: [], distributedMode: session.distributed };
}
