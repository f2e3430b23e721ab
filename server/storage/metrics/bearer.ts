/**
 * The bearer token MinIO's metrics endpoints accept (part 2 §4.1): a JWT signed with HMAC (HS256, HS384 or
 * HS512) using the secret key of the access key named in its `accessKey` claim (else `sub`), with issuer
 * `prometheus`; `exp` and `nbf` are honoured when present. `mc admin prometheus generate` makes such tokens
 * for the root credentials (HS512, exp 100 years, iss prometheus, sub = access key).
 */
import type { Credential, IdentityAuthority } from "../core/contracts.ts";

const HASHES: Record<string, string> = { HS256: "SHA-256", HS384: "SHA-384", HS512: "SHA-512" };

function decodeSegment(segment: string): Uint8Array | null {
  try {
    return Uint8Array.fromBase64(segment, { alphabet: "base64url" });
  } catch {
    return null;
  }
}

function parseJson(bytes: Uint8Array | null): Record<string, unknown> | null {
  if (!bytes) return null;
  try {
    const value = JSON.parse(new TextDecoder().decode(bytes));
    return value && typeof value === "object" && !Array.isArray(value) ? value : null;
  } catch {
    return null;
  }
}

/**
 * Returns the credential a valid token speaks for (allowed to read metrics), or null. `now` is epoch ms.
 */
export async function verifyMetricsBearer(
  authorization: string | null,
  authority: IdentityAuthority,
  now: number,
): Promise<Credential | null> {
  const match = /^Bearer\s+([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)$/.exec(authorization ?? "");
  if (!match) return null;
  const [, headerPart, payloadPart, signaturePart] = match;
  const header = parseJson(decodeSegment(headerPart));
  const claims = parseJson(decodeSegment(payloadPart));
  const signature = decodeSegment(signaturePart);
  const hash = typeof header?.alg === "string" ? HASHES[header.alg] : undefined;
  if (!header || !claims || !signature || !hash) return null;
  const accessKey = typeof claims.accessKey === "string"
    ? claims.accessKey
    : typeof claims.sub === "string"
    ? claims.sub
    : "";
  const credential = accessKey ? authority.lookupCredential(accessKey) : undefined;
  if (
    !credential || !credential.enabled || (credential.expiresAt !== undefined && credential.expiresAt <= now)
  ) return null;
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(credential.secretKey),
    { name: "HMAC", hash },
    false,
    ["verify"],
  );
  const signed = new TextEncoder().encode(`${headerPart}.${payloadPart}`);
  if (!(await crypto.subtle.verify("HMAC", key, signature as Uint8Array<ArrayBuffer>, signed))) return null;
  const seconds = now / 1000;
  if (typeof claims.exp === "number" && claims.exp <= seconds) return null;
  if (typeof claims.nbf === "number" && claims.nbf > seconds) return null;
  if (claims.iss !== "prometheus") return null;
  if (credential.kind !== "root" && !authority.isAllowed(credential, "admin:Prometheus", "", "", {})) {
    return null;
  }
  return credential;
}
