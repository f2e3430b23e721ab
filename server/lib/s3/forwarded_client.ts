/**
 * The address of the person behind a console sign-in, vouched for by the console so the storage can slow
 * password guessing per guesser. The console signs users in through the storage (STS AssumeRole), so every
 * attempt reaches the storage from the console's own address: a storage that counted failed signatures per
 * (access key, address) would count every stranger's wrong passwords against the account's owner too.
 *
 * The console sends `X-Forwarded-For: <client address>` with `X-Deck-Forwarded-Proof: <unix seconds>.<HMAC>`,
 * an HMAC-SHA256 of the time and the address under a key derived from the storage's root secret key, which
 * only the storage and the console that started it know. The embedded storage takes the address as the
 * request's source only with a proof at most PROOF_MAX_AGE_S old; anyone else naming an address gets counted
 * under their own. MinIO ignores the proof header (and logs X-Forwarded-For as the source, as it always does).
 */

export const FORWARDED_FOR_HEADER = "x-forwarded-for";
export const FORWARDED_PROOF_HEADER = "x-deck-forwarded-proof";
/** How long a proof is accepted: longer than any clock skew between threads, short enough not to matter. */
const PROOF_MAX_AGE_S = 300;
/** An IPv4 or IPv6 address as a socket reports it; anything else is never forwarded or believed. */
const ADDRESS = /^[0-9A-Fa-f.:]{2,45}$/;

const encoder = new TextEncoder();

async function hmacHex(key: string, text: string): Promise<string> {
  const cryptoKey = await crypto.subtle.importKey(
    "raw",
    encoder.encode(key),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  return new Uint8Array(await crypto.subtle.sign("HMAC", cryptoKey, encoder.encode(text))).toHex();
}

/** The vouching key of a storage, derived from its root credentials (never the secret itself). */
export function forwardingKey(root: { secretKey: string }): Promise<string> {
  return hmacHex(root.secretKey, "deck: console-forwarded client address");
}

/** Whether `address` is an IP address that may be forwarded. */
export function isForwardableAddress(address: string): boolean {
  return ADDRESS.test(address) && /[.:]/.test(address);
}

/** The headers that vouch for `address`; none when it is not an IP address. */
export async function forwardedHeaders(
  key: string,
  address: string,
  now = Date.now(),
): Promise<Record<string, string>> {
  if (!isForwardableAddress(address)) return {};
  const seconds = Math.floor(now / 1000);
  return {
    [FORWARDED_FOR_HEADER]: address,
    [FORWARDED_PROOF_HEADER]: `${seconds}.${await hmacHex(key, `${seconds}\n${address}`)}`,
  };
}

/** The address a request's proof vouches for, or null without a valid, recent proof. */
export async function vouchedAddress(
  key: string,
  headers: Headers,
  now = Date.now(),
): Promise<string | null> {
  const address = headers.get(FORWARDED_FOR_HEADER)?.trim() ?? "";
  const match = /^(\d{1,12})\.([0-9a-f]{64})$/.exec(headers.get(FORWARDED_PROOF_HEADER) ?? "");
  if (!match || !isForwardableAddress(address)) return null;
  if (Math.abs(now / 1000 - Number(match[1])) > PROOF_MAX_AGE_S) return null;
  const expected = await hmacHex(key, `${match[1]}\n${address}`);
  // Compared in full whatever the first difference, so the time taken says nothing about the expected value.
  let difference = 0;
  for (let i = 0; i < expected.length; i++) difference |= expected.charCodeAt(i) ^ match[2].charCodeAt(i);
  return difference === 0 ? address : null;
}
