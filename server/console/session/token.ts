/**
 * The session token: the signed-in user's temporary storage credentials and facts of the sign-in (never the
 * account's permissions, which are read live: server/console/session/live_access.ts), sealed with AES-256-GCM so the browser holds it but can neither read nor alter it. Stateless, so a
 * restart with the same CONSOLE_PBKDF_* settings or a second replica keeps sessions.
 *
 * Wire form: base64url( version(1) ‖ iv(12) ‖ AES-256-GCM(deflate(JSON)) ‖ tag(16) ), with the version and
 * the token's purpose ("session", "oidc-state") as additional data. The expiry inside is enforced on every request (the cookie's own expiry is advisory).
 */

/** What a session carries. Credentials never leave the server in any other form. */
export interface SessionData {
  /** Temporary access key, secret key and session token from STS. */
  accessKey: string;
  secretKey: string;
  sessionToken: string;
  /** The name typed at sign-in ("" for SSO sessions); used for self-service calls such as change password. */
  account: string;
  /** Whether the storage server runs erasure-coded (distributed) mode. */
  distributed: boolean;
  /** True when signed in through an external identity provider. */
  sso: boolean;
  /** Epoch milliseconds after which the session is refused. */
  expiresAt: number;
  /**
   * Signed in to a server without STS: accessKey/secretKey are the typed long-term keys, used as they are
   * (server/console/session/direct_keys.ts). Sealed in the cookie like temporary credentials; never readable.
   */
  directKeys?: boolean;
  /** Operator mode: the Kubernetes service-account token typed at sign-in, sent with every Kubernetes call. */
  k8sToken?: string;
}

/**
 * Whether the session is an operator-mode session (spec 3 §6: the flag that enables activation and Refresh
 * Licence): operator sign-in keeps the service-account token in the session, console sessions have none.
 */
export function isOperatorSession(session: SessionData): boolean {
  return !!session.k8sToken;
}

const VERSION = 1;
const PBKDF2_ITERATIONS = 210_000;

/** Derives the sealing key from the configured passphrase and salt, or makes a random one per start. */
export async function createSessionKey(
  secret: { passphrase: string; salt: string } | null,
): Promise<CryptoKey> {
  if (!secret) {
    // A random key imported, not generateKey: the same 256 random bits, without the ~40 ms generateKey's
    // first call costs Deno at start.
    const random = crypto.getRandomValues(new Uint8Array(32));
    return await crypto.subtle.importKey("raw", random, "AES-GCM", false, ["encrypt", "decrypt"]);
  }
  const material = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(secret.passphrase),
    "PBKDF2",
    false,
    ["deriveKey"],
  );
  return await crypto.subtle.deriveKey(
    {
      name: "PBKDF2",
      hash: "SHA-256",
      salt: new TextEncoder().encode(secret.salt),
      iterations: PBKDF2_ITERATIONS,
    },
    material,
    { name: "AES-GCM", length: 256 },
    false,
    ["encrypt", "decrypt"],
  );
}

async function transform(
  bytes: Uint8Array<ArrayBuffer>,
  stream: CompressionStream | DecompressionStream,
): Promise<Uint8Array<ArrayBuffer>> {
  return new Uint8Array(await new Response(new Blob([bytes]).stream().pipeThrough(stream)).arrayBuffer());
}

/** Seals any JSON value for `purpose`; a value sealed for one purpose never opens as another. */
export async function sealJson(key: CryptoKey, purpose: string, value: unknown): Promise<string> {
  const plain = await transform(
    new TextEncoder().encode(JSON.stringify(value)),
    new CompressionStream("deflate-raw"),
  );
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const additionalData = new TextEncoder().encode(`${VERSION}:${purpose}`);
  const sealed = new Uint8Array(
    await crypto.subtle.encrypt({ name: "AES-GCM", iv, additionalData }, key, plain),
  );
  const out = new Uint8Array(1 + iv.length + sealed.length);
  out[0] = VERSION;
  out.set(iv, 1);
  out.set(sealed, 1 + iv.length);
  return out.toBase64({ alphabet: "base64url", omitPadding: true });
}

/** Opens a value sealed by sealJson for the same purpose; null when malformed, forged or foreign. */
export async function openJson(key: CryptoKey, purpose: string, token: string): Promise<unknown> {
  if (token.length > 8192 || !/^[A-Za-z0-9_-]+$/.test(token)) return null;
  try {
    const bytes = Uint8Array.fromBase64(token, { alphabet: "base64url" }) as Uint8Array<ArrayBuffer>;
    if (bytes.length < 1 + 12 + 16 || bytes[0] !== VERSION) return null;
    const additionalData = new TextEncoder().encode(`${VERSION}:${purpose}`);
    const plain = await crypto.subtle.decrypt(
      { name: "AES-GCM", iv: bytes.subarray(1, 13), additionalData },
      key,
      bytes.subarray(13),
    );
    return JSON.parse(
      new TextDecoder().decode(
        await transform(new Uint8Array(plain), new DecompressionStream("deflate-raw")),
      ),
    );
  } catch {
    return null;
  }
}

/** Seals session data into the opaque token stored in the cookie. */
export function sealSession(key: CryptoKey, data: SessionData): Promise<string> {
  return sealJson(key, "session", data);
}

/**
 * Sessions already opened, by sealing key and token: every request carries its cookie, and opening it
 * (AES-GCM and inflate) was a measurable share of a request under load. A token maps to one content for ever,
 * so this is memoisation, not state: expiry is still checked on every use, and revocation lives on the
 * storage server. Bounded, least recently used first out.
 */
const opened = new WeakMap<CryptoKey, Map<string, SessionData>>();
const MAX_OPENED = 2048;

/**
 * Opens a session token; null when it is malformed, forged, sealed with another key or expired at `now`.
 * Never throws on bad input: a bad cookie is just "no session".
 */
export async function openSession(key: CryptoKey, token: string, now: number): Promise<SessionData | null> {
  let cache = opened.get(key);
  if (!cache) opened.set(key, cache = new Map());
  let data: SessionData | null | undefined = cache.get(token);
  if (data) cache.delete(token);
  else {
    data = await openJson(key, "session", token) as SessionData | null;
    if (typeof data?.expiresAt !== "number") return null;
    if (typeof data.accessKey !== "string" || typeof data.secretKey !== "string") return null;
  }
  if (data.expiresAt <= now) return null;
  cache.set(token, data);
  if (cache.size > MAX_OPENED) cache.delete(cache.keys().next().value as string);
  return data;
}
