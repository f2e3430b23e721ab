/**
 * The bearer token MinIO's metrics endpoints accept, made as `mc admin prometheus generate` makes it
 * (part 2 §4.1): a JWT signed with HS512 using the secret key, claims `exp` (now + 100 years), `sub` (the
 * access key) and `iss` "prometheus". The console signs one for the storage credentials it samples with.
 */

const encoder = new TextEncoder();
const base64url = (bytes: Uint8Array) => bytes.toBase64({ alphabet: "base64url", omitPadding: true });
const segment = (value: unknown) => base64url(encoder.encode(JSON.stringify(value)));

const HUNDRED_YEARS_SECONDS = 100 * 365 * 24 * 3600;

/** `now` in epoch milliseconds. */
export async function prometheusBearerToken(
  credentials: { accessKey: string; secretKey: string },
  now = Date.now(),
): Promise<string> {
  const claims = {
    exp: Math.floor(now / 1000) + HUNDRED_YEARS_SECONDS,
    sub: credentials.accessKey,
    iss: "prometheus",
  };
  const signingInput = `${segment({ alg: "HS512", typ: "JWT" })}.${segment(claims)}`;
  const key = await crypto.subtle.importKey(
    "raw",
    encoder.encode(credentials.secretKey),
    { name: "HMAC", hash: "SHA-512" },
    false,
    ["sign"],
  );
  const signature = new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(signingInput)));
  return `${signingInput}.${base64url(signature)}`;
}
