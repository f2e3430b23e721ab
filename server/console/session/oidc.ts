/**
 * OpenID Connect sign-in, console side: discovery, the authorisation request and the code-for-id_token
 * exchange. The storage server then trades the id_token for temporary credentials (STS
 * AssumeRoleWithWebIdentity), verifying its signature, issuer, audience and expiry.
 *
 * What the console checks itself (the original checked none of it): the request that comes back is the one
 * this browser started (a random `state` also kept in a short-lived sealed cookie, so a code cannot be
 * planted in someone else's browser), within ten minutes; the id_token carries the `nonce` sent; and, when
 * the provider advertises S256, the code can only be redeemed with this sign-in's PKCE verifier. Every
 * refusal says which step failed (sso_reasons.ts words them).
 */
import type { AppConfig } from "../config/config.ts";
import { openJson, sealJson } from "./token.ts";
import { ssoRefusal } from "./sso_reasons.ts";

type IdpConfig = NonNullable<AppConfig["idp"]>;

interface Discovery {
  authorization_endpoint: string;
  token_endpoint: string;
  code_challenge_methods_supported?: string[];
}

/** What the browser keeps (sealed, in SSO_COOKIE) between leaving for the provider and coming back. */
interface PendingSignIn {
  state: string;
  nonce: string;
  verifier?: string;
  exp: number;
}

/** The cookie holding the pending sign-in: SameSite=Lax, because the provider's redirect back is cross-site. */
export const SSO_COOKIE = "deck_sso";
export const STATE_TTL_MS = 10 * 60_000;
const discoveryCache = new Map<string, { value: Discovery; until: number }>();

const random = (bytes: number) =>
  crypto.getRandomValues(new Uint8Array(bytes)).toBase64({ alphabet: "base64url", omitPadding: true });

/** Fetches (and caches for 5 minutes) the provider's discovery document. */
async function discover(idp: IdpConfig, fetcher: typeof fetch, now: number): Promise<Discovery> {
  const cached = discoveryCache.get(idp.url);
  if (cached && cached.until > now) return cached.value;
  const url = idp.url.includes("/.well-known/")
    ? idp.url
    : `${idp.url.replace(/\/+$/, "")}/.well-known/openid-configuration`;
  let res: Response;
  try {
    res = await fetcher(url, { signal: AbortSignal.timeout(5000) });
  } catch (error) {
    throw ssoRefusal("unreachable", url, error instanceof Error ? error.message : String(error));
  }
  if (!res.ok) {
    await res.body?.cancel();
    throw ssoRefusal("unreachable", url, `its discovery document answered HTTP ${res.status}`);
  }
  const value = await res.json().catch(() => ({})) as Discovery;
  if (typeof value.authorization_endpoint !== "string" || typeof value.token_endpoint !== "string") {
    throw ssoRefusal("unreachable", url, "its discovery document names no authorization or token endpoint");
  }
  discoveryCache.set(idp.url, { value, until: now + 5 * 60_000 });
  return value;
}

/** Starts a sign-in: the provider's authorisation URL, and the sealed pending sign-in for SSO_COOKIE. */
export async function startSignIn(
  idp: IdpConfig,
  key: CryptoKey,
  fetcher: typeof fetch,
  now: number,
): Promise<{ url: string; pending: string }> {
  const discovery = await discover(idp, fetcher, now);
  const pending: PendingSignIn = { state: random(16), nonce: random(16), exp: now + STATE_TTL_MS };
  const url = new URL(discovery.authorization_endpoint);
  url.searchParams.set("response_type", "code");
  url.searchParams.set("client_id", idp.clientId);
  url.searchParams.set("redirect_uri", idp.callback);
  url.searchParams.set("scope", idp.scopes.join(" "));
  url.searchParams.set("state", pending.state);
  url.searchParams.set("nonce", pending.nonce);
  if (discovery.code_challenge_methods_supported?.includes("S256")) {
    pending.verifier = random(32);
    const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(pending.verifier));
    url.searchParams.set(
      "code_challenge",
      new Uint8Array(digest).toBase64({ alphabet: "base64url", omitPadding: true }),
    );
    url.searchParams.set("code_challenge_method", "S256");
  }
  return { url: url.href, pending: await sealJson(key, "oidc-pending", pending) };
}

/** The id_token's claims, unverified: the storage server verifies the signature; here only the nonce matters. */
function claimsOf(idToken: string): Record<string, unknown> {
  try {
    const part = idToken.split(".")[1] ?? "";
    return JSON.parse(new TextDecoder().decode(Uint8Array.fromBase64(part, { alphabet: "base64url" })));
  } catch {
    return {};
  }
}

/**
 * Checks that the callback belongs to the sign-in this browser started (`pending` is SSO_COOKIE's value),
 * exchanges the code for the provider's id_token and checks its nonce.
 */
export async function exchangeCode(
  idp: IdpConfig,
  key: CryptoKey,
  fetcher: typeof fetch,
  now: number,
  input: { code: string; state: string },
  pending: string | undefined,
): Promise<string> {
  if (!pending) throw ssoRefusal("no-cookie", idp.callback);
  const started = await openJson(key, "oidc-pending", pending) as PendingSignIn | null;
  if (!started || typeof started.exp !== "number" || started.state !== input.state) {
    throw ssoRefusal("state");
  }
  if (started.exp < now) throw ssoRefusal("expired");
  const { token_endpoint } = await discover(idp, fetcher, now);
  const form = new URLSearchParams({
    grant_type: "authorization_code",
    code: input.code,
    redirect_uri: idp.callback,
    client_id: idp.clientId,
  });
  if (idp.secret) form.set("client_secret", idp.secret);
  if (started.verifier) form.set("code_verifier", started.verifier);
  let res: Response;
  try {
    res = await fetcher(token_endpoint, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      body: form,
      signal: AbortSignal.timeout(10_000),
    });
  } catch (error) {
    throw ssoRefusal("unreachable", token_endpoint, error instanceof Error ? error.message : String(error));
  }
  const body = await res.json().catch(() => ({})) as {
    id_token?: string;
    error_description?: string;
    error?: string;
  };
  if (!res.ok || typeof body.id_token !== "string") {
    throw ssoRefusal(
      "exchange",
      [body.error, body.error_description].filter(Boolean).join(": ") || `HTTP ${res.status}`,
    );
  }
  if (claimsOf(body.id_token).nonce !== started.nonce) throw ssoRefusal("nonce");
  return body.id_token;
}

/**
 * Where the provider sends the browser back must be this console's /oauth_callback at the address the browser
 * uses (`origin`, scheme://host): at another host the sign-in cookie stays behind, at another path nothing
 * answers.
 */
export function checkCallback(idp: IdpConfig, origin: string, subpath: string): void {
  const own = `${origin}${subpath}oauth_callback`;
  let callback: URL;
  try {
    callback = new URL(idp.callback);
  } catch {
    throw ssoRefusal("callback", idp.callback, own);
  }
  // The host and the path, not the scheme: behind a proxy that ends TLS and is not trusted for
  // X-Forwarded-Proto the console sees http while the browser uses https (cookies follow the host).
  if (callback.host !== new URL(origin).host || callback.pathname !== `${subpath}oauth_callback`) {
    throw ssoRefusal("callback", idp.callback, own);
  }
}
