/**
 * Checks web identity tokens against the configured OpenID provider (identity_openid, minio-protocol §2.3):
 * the discovery document at `config_url` names the issuer and the key set; the token's signature must verify
 * with one of those keys (RS256/384/512, PS256/384/512, ES256/384), its issuer must be the provider, its
 * audience (or authorized party) the `client_id`, and it must be current. The policies come from the claim
 * `claim_prefix` + `claim_name` (default "policy"): a list or a comma-separated string.
 */

export interface OpenIdSettings {
  configUrl: string;
  clientId: string;
  claimName: string;
  claimPrefix: string;
}

export interface WebIdentity {
  subject: string;
  issuer: string;
  audience: string;
  /** The policy names the claim gives; null when the token has no such claim. */
  policies: string[] | null;
  /** Token expiry, epoch seconds. */
  expiresAt: number;
}

export class WebIdentityError extends Error {
  constructor(readonly code: "InvalidParameterValue" | "ExpiredToken", message: string) {
    super(message);
  }
}

/** Settings from the identity_openid values; null when no provider is configured. */
export function openIdSettings(values: Record<string, string> | undefined): OpenIdSettings | null {
  if (!values?.config_url || values.enable === "off") return null;
  return {
    configUrl: values.config_url,
    clientId: values.client_id ?? "",
    claimName: values.claim_name || "policy",
    claimPrefix: values.claim_prefix ?? "",
  };
}

type Jwk = JsonWebKey & { kid?: string; alg?: string };

const ALGORITHMS: Record<
  string,
  {
    import: RsaHashedImportParams | EcKeyImportParams;
    verify: AlgorithmIdentifier | RsaPssParams | EcdsaParams;
  }
> = {
  RS256: { import: { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" }, verify: { name: "RSASSA-PKCS1-v1_5" } },
  RS384: { import: { name: "RSASSA-PKCS1-v1_5", hash: "SHA-384" }, verify: { name: "RSASSA-PKCS1-v1_5" } },
  RS512: { import: { name: "RSASSA-PKCS1-v1_5", hash: "SHA-512" }, verify: { name: "RSASSA-PKCS1-v1_5" } },
  PS256: { import: { name: "RSA-PSS", hash: "SHA-256" }, verify: { name: "RSA-PSS", saltLength: 32 } },
  PS384: { import: { name: "RSA-PSS", hash: "SHA-384" }, verify: { name: "RSA-PSS", saltLength: 48 } },
  PS512: { import: { name: "RSA-PSS", hash: "SHA-512" }, verify: { name: "RSA-PSS", saltLength: 64 } },
  ES256: { import: { name: "ECDSA", namedCurve: "P-256" }, verify: { name: "ECDSA", hash: "SHA-256" } },
  ES384: { import: { name: "ECDSA", namedCurve: "P-384" }, verify: { name: "ECDSA", hash: "SHA-384" } },
};

/** MinIO's text for ErrSTSWebIdentityExpiredToken. */
const EXPIRED =
  "The web identity token that was passed is expired or is not valid. Get a new identity token from the identity provider and then retry the request.";

const invalid = (message: string) => new WebIdentityError("InvalidParameterValue", message);

function base64url(text: string): Uint8Array<ArrayBuffer> {
  const padded = text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4);
  return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
}

function decodeJson(part: string): Record<string, unknown> {
  try {
    return JSON.parse(new TextDecoder().decode(base64url(part)));
  } catch {
    throw invalid("the web identity token is not a JWT");
  }
}

/** Provider documents, kept briefly so every sign-in does not fetch them again. */
const cache = new Map<string, { at: number; issuer: string; keys: Jwk[] }>();
const CACHE_MS = 5 * 60_000;
/**
 * A token naming a key id the cached set lacks makes the keys be fetched again (the provider rotated them),
 * but not more often than this: made-up key ids from anyone who can reach STS must not turn every request
 * into a fetch from the provider.
 */
const FORCED_REFRESH_MS = 1_000;

async function providerKeys(
  settings: OpenIdSettings,
  fetcher: typeof fetch,
  refresh: boolean,
): Promise<{ issuer: string; keys: Jwk[] }> {
  const cached = cache.get(settings.configUrl);
  const age = cached ? Date.now() - cached.at : Infinity;
  if (cached && (refresh ? age < FORCED_REFRESH_MS : age < CACHE_MS)) return cached;
  const getJson = async (url: string) => {
    const res = await fetcher(url, { signal: AbortSignal.timeout(10_000) });
    if (!res.ok) throw new Error(`${url} answered ${res.status}`);
    return await res.json();
  };
  try {
    const discovery = await getJson(settings.configUrl) as { issuer?: string; jwks_uri?: string };
    if (!discovery.issuer || !discovery.jwks_uri) {
      throw new Error("the discovery document has no issuer or jwks_uri");
    }
    const jwks = await getJson(discovery.jwks_uri) as { keys?: Jwk[] };
    const entry = { at: Date.now(), issuer: discovery.issuer, keys: jwks.keys ?? [] };
    cache.set(settings.configUrl, entry);
    return entry;
  } catch (error) {
    // fetch says "fetch failed"; why (a refused connection, a certificate no trusted CA signed) is its cause.
    const reason = error instanceof Error
      ? (error.cause instanceof Error ? error.cause.message : error.message)
      : String(error);
    throw invalid(`the OpenID provider cannot be reached: ${reason}`);
  }
}

async function verifySignature(
  token: string,
  header: Record<string, unknown>,
  keys: Jwk[],
): Promise<boolean> {
  const alg = String(header.alg ?? "");
  const spec = ALGORITHMS[alg];
  if (!spec) throw invalid(`unsupported token algorithm '${alg}'`);
  const [h, p, s] = token.split(".");
  const candidates = keys.filter((k) =>
    (!header.kid || k.kid === header.kid) && (!k.alg || k.alg === alg) &&
    (k.kty === "RSA" ? !alg.startsWith("ES") : alg.startsWith("ES"))
  );
  for (const jwk of candidates) {
    try {
      const key = await crypto.subtle.importKey(
        "jwk",
        { ...jwk, alg: undefined, key_ops: undefined, use: undefined } as JsonWebKey,
        spec.import,
        false,
        ["verify"],
      );
      if (await crypto.subtle.verify(spec.verify, key, base64url(s), new TextEncoder().encode(`${h}.${p}`))) {
        return true;
      }
    } catch { /* not this key */ }
  }
  return false;
}

/** Verifies a token; throws WebIdentityError saying why it is refused. */
export async function verifyWebIdentity(
  settings: OpenIdSettings,
  token: string,
  now: number,
  fetcher: typeof fetch = fetch,
): Promise<WebIdentity> {
  const parts = token.split(".");
  if (parts.length !== 3) throw invalid("the web identity token is not a JWT");
  const header = decodeJson(parts[0]);
  const claims = decodeJson(parts[1]);
  let provider = await providerKeys(settings, fetcher, false);
  let verified = await verifySignature(token, header, provider.keys);
  if (!verified && header.kid && !provider.keys.some((k) => k.kid === header.kid)) {
    // The provider may have rotated its keys since they were fetched.
    provider = await providerKeys(settings, fetcher, true);
    verified = await verifySignature(token, header, provider.keys);
  }
  if (!verified) throw invalid("the web identity token's signature does not verify with the provider's keys");
  if (claims.iss !== provider.issuer) {
    throw invalid(`the token was issued by '${claims.iss}', not by '${provider.issuer}'`);
  }
  const audiences = Array.isArray(claims.aud)
    ? claims.aud.map(String)
    : claims.aud === undefined
    ? []
    : [String(claims.aud)];
  if (settings.clientId && !audiences.includes(settings.clientId) && claims.azp !== settings.clientId) {
    throw invalid(`the token is not meant for client '${settings.clientId}'`);
  }
  const seconds = Math.floor(now / 1000);
  if (typeof claims.exp !== "number") throw invalid("the token has no expiry");
  if (claims.exp <= seconds) throw new WebIdentityError("ExpiredToken", EXPIRED);
  if (typeof claims.nbf === "number" && claims.nbf > seconds + 60) {
    throw invalid("the web identity token is not valid yet");
  }
  if (typeof claims.sub !== "string" || claims.sub === "") {
    throw invalid("STS JWT Token has `sub` claim missing, `sub` claim is mandatory");
  }
  const raw = claims[`${settings.claimPrefix}${settings.claimName}`];
  // A claim that is present but empty still counts as given (MinIO then reports no policy defined).
  const policies = raw === undefined || raw === null
    ? null
    : (Array.isArray(raw) ? raw.map(String) : String(raw).split(",")).flatMap((p) => p.split(","))
      .map((p) => p.trim()).filter(Boolean);
  return {
    subject: String(claims.sub ?? ""),
    issuer: provider.issuer,
    audience: settings.clientId,
    policies,
    expiresAt: claims.exp,
  };
}
