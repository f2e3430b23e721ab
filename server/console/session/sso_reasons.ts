/**
 * Why a single sign-on failed, in words an administrator can act on ("sign-in that says why", issue 27).
 * Each refusal names the step that failed and the setting to look at; none repeats a secret (the client
 * secret, a code, a token). The texts reach the login page, which anyone may open: they describe the
 * console's configuration and the provider's answer, never whether some account exists.
 */
import { ApiError } from "../http/errors.ts";
import { openJson, sealJson } from "./token.ts";

export type SsoStep =
  | "unreachable"
  | "callback"
  | "no-cookie"
  | "state"
  | "expired"
  | "exchange"
  | "nonce"
  | "claim"
  | "policy"
  | "storage";

const originOf = (url: string) => {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
};

function explain(step: SsoStep, a = "", b = ""): string {
  switch (step) {
    case "unreachable":
      return `The identity provider cannot be reached at ${a}: ${b}. Check CONSOLE_IDP_URL and that this server can reach the provider.`;
    case "callback":
      return `CONSOLE_IDP_CALLBACK is ${a}, but this console, opened where you opened it, takes sign-ins back at ${b}: the provider would send you to another address, where this sign-in is unknown. Open the console at the address CONSOLE_IDP_CALLBACK names, or set CONSOLE_IDP_CALLBACK to ${b} and register that URL with the provider.`;
    case "no-cookie":
      return `The sign-in came back without the cookie this browser was given when it left for the provider. Start single sign-on from ${
        originOf(a)
      } (the address CONSOLE_IDP_CALLBACK names), and allow cookies for it.`;
    case "state":
      return "The answer from the identity provider does not belong to the sign-in this browser started (state mismatch). Start again from the login page.";
    case "expired":
      return "The sign-in took more than 10 minutes at the identity provider. Start again from the login page.";
    case "exchange":
      return `The identity provider refused to exchange the sign-in code for a token (${a}). Check CONSOLE_IDP_CLIENT_ID and CONSOLE_IDP_SECRET, and that CONSOLE_IDP_CALLBACK is registered with the provider as a redirect URI.`;
    case "nonce":
      return "The identity provider's token was not issued for this sign-in (nonce mismatch). Start again from the login page.";
    case "claim":
      return `Signed in at the identity provider, but its token has no '${a}' claim, so no policy applies. Add a '${a}' claim naming the policies to the client's tokens at the provider, or change claim_name in Settings › Configurations › Identity Openid.`;
    case "policy":
      return `Signed in at the identity provider, but the policy claim names no policy that exists on the storage server (${a}). Create the policy, or correct the claim at the provider.`;
    case "storage":
      return `Signed in at the identity provider, but the storage server refused its token: ${a}`;
  }
}

/** A sign-on refusal: 401 "invalid Login" whose detail says which step failed and what to change. */
export function ssoRefusal(step: SsoStep, a?: string, b?: string): ApiError {
  return ApiError.unauthorized("invalid Login", explain(step, a, b));
}

/**
 * Words the storage server's refusal of the id_token. MinIO's texts (sts-handlers.go) are recognised: a
 * missing policy claim and a claim naming no policy get their own advice; any other refusal is quoted.
 */
export function storageRefusal(message: string): ApiError {
  const missing = /^(.+) claim missing from the JWT token/.exec(message);
  if (missing) return ssoRefusal("claim", missing[1]);
  const undefinedPolicies = /^None of the given policies \(`?([^`)]*)`?\) are defined/.exec(message);
  if (undefinedPolicies) return ssoRefusal("policy", undefinedPolicies[1] || "an empty claim");
  return ssoRefusal("storage", message);
}

/**
 * The refusal travels to the login page sealed in its address (`?sso_error=`), so nobody can make the
 * console's login page show a text of their own; it is shown for five minutes.
 */
export function sealReason(key: CryptoKey, text: string, now: number): Promise<string> {
  return sealJson(key, "sso-error", { text, exp: now + 5 * 60_000 });
}

/** The text sealed by sealReason, or null when forged, foreign or stale. */
export async function openReason(
  key: CryptoKey,
  sealed: string | undefined,
  now: number,
): Promise<string | null> {
  if (!sealed) return null;
  const value = await openJson(key, "sso-error", sealed) as { text?: unknown; exp?: unknown } | null;
  return value && typeof value.text === "string" && typeof value.exp === "number" && value.exp >= now
    ? value.text
    : null;
}
