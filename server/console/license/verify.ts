/**
 * Offline verification of a SUBNET licence key: a JWT signed with ES384 by SUBNET's licence key, whose
 * claims carry the subscription (`sub` email, `org`, `aid` account id, `cap` capacity in TiB, `plan`,
 * `iat`, `exp`). Verified against SUBNET's published public key and any key the administrator adds
 * (CONSOLE_SUBNET_PUBLIC_KEY_FILE); nothing is fetched. https://www.rfc-editor.org/rfc/rfc7518#section-3.4
 */
import type { SubscriptionInfo } from "../../lib/contract/license.ts";

/** SUBNET's licence-signing public key (P-384), as published at subnet.min.io/downloads/license-pubkey.pem. */
export const SUBNET_PUBLIC_KEY = `-----BEGIN PUBLIC KEY-----
MHYwEAYHKoZIzj0CAQYFK4EEACIDYgAEaK31xujr6/rZ7ZfXZh3SlwovjC+X8wGq
qkltaKyTLRENd4w3IRktYYCRgzpDLPn/nrf7snV/ERO5qcI7fkEES34IVEr+2Uff
JkO2PfyyAYEO/5dBlPh1Undu9WQl6J7B
-----END PUBLIC KEY-----`;

/** Why a licence was not accepted, in words for the page. */
export class LicenseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "LicenseError";
  }
}

/** Imports a PEM "PUBLIC KEY" (SPKI) holding a P-384 key for ES384 verification. */
export async function importLicenseKey(pem: string): Promise<CryptoKey> {
  const body = pem.replace(/-----(BEGIN|END) PUBLIC KEY-----/g, "").replace(/\s+/g, "");
  let der: Uint8Array;
  try {
    der = Uint8Array.fromBase64(body);
  } catch {
    throw new LicenseError("the public key is not PEM");
  }
  try {
    return await crypto.subtle.importKey(
      "spki",
      der as Uint8Array<ArrayBuffer>,
      { name: "ECDSA", namedCurve: "P-384" },
      false,
      ["verify"],
    );
  } catch {
    throw new LicenseError("the public key is not an ECDSA P-384 key");
  }
}

function decodeJson(segment: string): Record<string, unknown> {
  try {
    const value = JSON.parse(
      new TextDecoder().decode(Uint8Array.fromBase64(segment, { alphabet: "base64url" })),
    );
    if (value && typeof value === "object" && !Array.isArray(value)) return value;
  } catch {
    // reported below
  }
  throw new LicenseError("the licence key is malformed");
}

/** Verifies `license` with any of `keys`; returns the subscription it grants. `now` in epoch ms. */
export async function verifyLicense(
  license: string,
  keys: CryptoKey[],
  now: number,
): Promise<SubscriptionInfo> {
  const parts = license.trim().split(".");
  if (parts.length !== 3 || parts.some((p) => !/^[A-Za-z0-9_-]+$/.test(p))) {
    throw new LicenseError("the licence key is malformed");
  }
  const header = decodeJson(parts[0]);
  if (header.alg !== "ES384") throw new LicenseError("the licence key is not signed with ES384");
  const signature = Uint8Array.fromBase64(parts[2], { alphabet: "base64url" }) as Uint8Array<ArrayBuffer>;
  const signed = new TextEncoder().encode(`${parts[0]}.${parts[1]}`);
  let valid = false;
  for (const key of keys) {
    if (await crypto.subtle.verify({ name: "ECDSA", hash: "SHA-384" }, key, signature, signed)) {
      valid = true;
      break;
    }
  }
  if (!valid) throw new LicenseError("the licence key's signature does not match a trusted key");
  const claims = decodeJson(parts[1]);
  const exp = claims.exp;
  if (typeof exp !== "number") throw new LicenseError("the licence key has no expiry");
  if (exp * 1000 <= now) {
    throw new LicenseError(`the licence expired on ${new Date(exp * 1000).toISOString().slice(0, 10)}`);
  }
  if (typeof claims.nbf === "number" && claims.nbf * 1000 > now) {
    throw new LicenseError("the licence is not valid yet");
  }
  const missing = (name: string) => new LicenseError(`the licence key has no valid "${name}" claim`);
  const text = (name: string): string => {
    const value = claims[name];
    if (typeof value !== "string") throw missing(name);
    return value;
  };
  const count = (name: string): number => {
    const value = claims[name];
    if (typeof value !== "number" || value < 0) throw missing(name);
    return value;
  };
  return {
    email: typeof claims.sub === "string" ? claims.sub : "",
    organization: text("org"),
    account_id: count("aid"),
    storage_capacity: count("cap"),
    plan: text("plan"),
    expires_at: new Date(exp * 1000).toISOString(),
  };
}
