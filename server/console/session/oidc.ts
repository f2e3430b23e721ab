/**
 * OpenID Connect sign-in, console side: discovery, the authorisation URL with a sealed state that expires,
 * and the code-for-id_token exchange. The storage server then trades the id_token for temporary credentials
 * (STS AssumeRoleWithWebIdentity). Unlike the original console, the state is checked for expiry and the IdP
 * response is always verified by the storage server before a session exists.
 */
import type { AppConfig } from "../config/config.ts";
import { ApiError } from "../http/errors.ts";
import { openJson, sealJson } from "./token.ts";

type IdpConfig = NonNullable<AppConfig["idp"]>;

interface Discovery {
  authorization_endpoint: string;
  token_endpoint: string;
}

const STATE_TTL_MS = 10 * 60_000;
const discoveryCache = new Map<string, { value: Discovery; until: number }>();

/** Fetches (and caches for 5 minutes) the provider's discovery document. */
async function discover(idp: IdpConfig, fetcher: typeof fetch, now: number): Promise<Discovery> {
  const cached = discoveryCache.get(idp.url);
  if (cached && cached.until > now) return cached.value;
  const url = idp.url.includes("/.well-known/")
    ? idp.url
    : `${idp.url.replace(/\/+$/, "")}/.well-known/openid-configuration`;
  const res = await fetcher(url, { signal: AbortSignal.timeout(5000) });
  if (!res.ok) {
    throw new ApiError(502, "the identity provider cannot be reached", {
      detail: `discovery answered ${res.status}`,
    });
  }
  const value = await res.json() as Discovery;
  if (typeof value.authorization_endpoint !== "string" || typeof value.token_endpoint !== "string") {
    throw new ApiError(502, "the identity provider's discovery document is incomplete");
  }
  discoveryCache.set(idp.url, { value, until: now + 5 * 60_000 });
  return value;
}

/** The URL the SSO button links to. */
export async function authorizationUrl(
  idp: IdpConfig,
  key: CryptoKey,
  fetcher: typeof fetch,
  now: number,
): Promise<string> {
  const { authorization_endpoint } = await discover(idp, fetcher, now);
  const state = await sealJson(key, "oidc-state", { nonce: crypto.randomUUID(), exp: now + STATE_TTL_MS });
  const url = new URL(authorization_endpoint);
  url.searchParams.set("response_type", "code");
  url.searchParams.set("client_id", idp.clientId);
  url.searchParams.set("redirect_uri", idp.callback);
  url.searchParams.set("scope", idp.scopes.join(" "));
  url.searchParams.set("state", state);
  return url.href;
}

/** Checks the state and exchanges the code for the provider's id_token. */
export async function exchangeCode(
  idp: IdpConfig,
  key: CryptoKey,
  fetcher: typeof fetch,
  now: number,
  input: { code: string; state: string },
): Promise<string> {
  const state = await openJson(key, "oidc-state", input.state) as { exp?: number } | null;
  if (!state || typeof state.exp !== "number" || state.exp < now) {
    throw ApiError.unauthorized("invalid Login", "the sign-in request expired or was not started here");
  }
  const { token_endpoint } = await discover(idp, fetcher, now);
  const res = await fetcher(token_endpoint, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
    body: new URLSearchParams({
      grant_type: "authorization_code",
      code: input.code,
      redirect_uri: idp.callback,
      client_id: idp.clientId,
      client_secret: idp.secret,
    }),
    signal: AbortSignal.timeout(10_000),
  });
  const body = await res.json().catch(() => ({})) as {
    id_token?: string;
    error_description?: string;
    error?: string;
  };
  if (!res.ok || typeof body.id_token !== "string") {
    throw ApiError.unauthorized(
      "invalid Login",
      body.error_description ?? body.error ?? `token endpoint answered ${res.status}`,
    );
  }
  return body.id_token;
}
