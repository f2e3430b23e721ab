/**
 * Why a single sign-on failed, in words an administrator can act on ("sign-in that says why", issue 27).
 * Each refusal names the step that failed and the setting to look at; none repeats a secret (the client
 * secret, a code, a token). The texts reach the login page, which anyone may open: they describe the
 * console's configuration and the provider's answer, never whether some account exists.
 */
import { ApiError } from "../http/errors.ts";
import { t } from "../../../islands/lib/i18n/t.ts";
// The server's message source: these texts are English outside a request too (start-up, unit tests).
import "../render/i18n.ts";
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
      return t("common.sso.unreachable", { url: a, reason: b });
    case "callback":
      return t("common.sso.callback", { configured: a, own: b });
    case "no-cookie":
      return t("common.sso.noCookie", { origin: originOf(a) });
    case "state":
      return t("common.sso.state");
    case "expired":
      return t("common.sso.expired");
    case "exchange":
      return t("common.sso.exchange", { reason: a });
    case "nonce":
      return t("common.sso.nonce");
    case "claim":
      return t("common.sso.claim", { claim: a });
    case "policy":
      return t("common.sso.policy", { policies: a });
    case "storage":
      return t("common.sso.storage", { reason: a });
  }
}

/** A sign-on refusal: 401 "invalid Login" whose detail says which step failed and what to change. */
export function ssoRefusal(step: SsoStep, a?: string, b?: string): ApiError {
  return ApiError.unauthorized(t("common.login.invalid"), explain(step, a, b));
}

/**
 * Words the storage server's refusal of the id_token. MinIO's texts (sts-handlers.go) are recognised: a
 * missing policy claim and a claim naming no policy get their own advice; any other refusal is quoted.
 */
export function storageRefusal(message: string): ApiError {
  const missing = /^(.+) claim missing from the JWT token/.exec(message);
  if (missing) return ssoRefusal("claim", missing[1]);
  const undefinedPolicies = /^None of the given policies \(`?([^`)]*)`?\) are defined/.exec(message);
  if (undefinedPolicies) return ssoRefusal("policy", undefinedPolicies[1] || t("common.sso.emptyClaim"));
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
