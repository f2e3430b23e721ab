/**
 * madmin payload encryption (minio-protocol §4): the password is the secret key of the credential that signs
 * the request. Layout: salt(32) ‖ algorithm id(1) ‖ nonce prefix(8) ‖ sio-go stream of 16 KiB fragments, each
 * sealed with nonce = prefix ‖ LE32(seq) and an AAD that marks the final fragment.
 *
 * We encrypt with id 0x02 (PBKDF2 + AES-GCM, what MinIO FIPS builds use) by default: Argon2id with 64 MiB costs
 * about 250 ms in WebAssembly here against a few ms for PBKDF2, and every MinIO server accepts all three ids.
 */
import { createCipheriv, createDecipheriv, createHash } from "node:crypto";
import { concatBytes } from "./bytes.ts";

export const ALG_ARGON2_AES_GCM = 0x00;
export const ALG_ARGON2_CHACHA = 0x01;
export const ALG_PBKDF2_AES_GCM = 0x02;
export type PayloadAlgorithm = 0 | 1 | 2;

const FRAGMENT = 16384;
const TAG = 16;
const HEADER = 41;

type Bytes = Uint8Array<ArrayBuffer>;

export class PayloadCryptoError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PayloadCryptoError";
  }
}

/**
 * Derived keys by algorithm, salt and password (hashed, so no secret is a map key). Key derivation is built to
 * be slow (PBKDF2: 8192 rounds, a few ms), and it ran twice for every encrypted admin call, once per side;
 * with encryptPayload reusing its salt for a while, the same salt comes back and the derivation is skipped.
 */
const derivedKeys = new Map<string, Promise<Bytes>>();
const MAX_DERIVED_KEYS = 512;

function deriveKeyCached(password: string, salt: Uint8Array, algorithm: number): Promise<Bytes> {
  const id = createHash("sha256").update(password).update(salt).update(String(algorithm)).digest("base64");
  let key = derivedKeys.get(id);
  if (key) {
    derivedKeys.delete(id); // most recently used last
  } else {
    key = deriveKey(password, salt, algorithm);
    key.catch(() => derivedKeys.delete(id));
  }
  derivedKeys.set(id, key);
  if (derivedKeys.size > MAX_DERIVED_KEYS) derivedKeys.delete(derivedKeys.keys().next().value as string);
  return key;
}

/**
 * The salt encryptPayload uses per password and algorithm, renewed after a minute or 2^16 messages. Each
 * message still gets its own random 8-byte nonce prefix, so reusing the derived key across messages keeps
 * AES-GCM's nonces distinct (a collision needs around 2^32 messages under one key, far beyond the renewal).
 */
const outgoingSalts = new Map<string, { salt: Bytes; until: number; uses: number }>();
const SALT_REUSE_MS = 60_000;
const SALT_REUSE_MESSAGES = 65_536;

function saltFor(password: string, algorithm: number): Bytes {
  const id = createHash("sha256").update(password).update(String(algorithm)).digest("base64");
  const now = Date.now();
  let entry = outgoingSalts.get(id);
  if (!entry || entry.until <= now || entry.uses >= SALT_REUSE_MESSAGES) {
    entry = { salt: crypto.getRandomValues(new Uint8Array(32)), until: now + SALT_REUSE_MS, uses: 0 };
    outgoingSalts.delete(id);
    outgoingSalts.set(id, entry);
    if (outgoingSalts.size > MAX_DERIVED_KEYS) {
      outgoingSalts.delete(outgoingSalts.keys().next().value as string);
    }
  }
  entry.uses++;
  return entry.salt;
}

async function deriveKey(password: string, salt: Uint8Array, algorithm: number): Promise<Bytes> {
  if (algorithm === ALG_PBKDF2_AES_GCM) {
    const material = await crypto.subtle.importKey(
      "raw",
      new TextEncoder().encode(password),
      "PBKDF2",
      false,
      ["deriveBits"],
    );
    const bits = await crypto.subtle.deriveBits(
      { name: "PBKDF2", hash: "SHA-256", salt: salt as Bytes, iterations: 8192 },
      material,
      256,
    );
    return new Uint8Array(bits);
  }
  // Argon2id(t=1, m=64 MiB, p=4, 32 bytes), as golang.org/x/crypto/argon2.IDKey in madmin. Loaded when a
  // peer first sends an Argon2id payload (mc does): held from start it cost every isolate about 3 MiB.
  const { argon2id } = await import("hash-wasm");
  return await argon2id({
    password,
    salt,
    parallelism: 4,
    iterations: 1,
    memorySize: 65536,
    hashLength: 32,
    outputType: "binary",
  }) as Bytes;
}

interface Aead {
  seal(nonce: Uint8Array, plain: Uint8Array, aad: Uint8Array): Bytes;
  open(nonce: Uint8Array, sealed: Uint8Array, aad: Uint8Array): Bytes;
}

function aeadFor(key: Uint8Array, algorithm: number): Aead {
  const cipher = algorithm === ALG_ARGON2_CHACHA ? "chacha20-poly1305" : "aes-256-gcm";
  return {
    seal(nonce, plain, aad) {
      // deno-lint-ignore no-explicit-any
      const c = createCipheriv(cipher as any, key, nonce, { authTagLength: TAG } as any) as any;
      c.setAAD(aad, { plaintextLength: plain.length });
      const out = new Uint8Array(plain.length + TAG);
      out.set(c.update(plain), 0);
      c.final();
      out.set(c.getAuthTag(), plain.length);
      return out;
    },
    open(nonce, sealed, aad) {
      if (sealed.length < TAG) throw new PayloadCryptoError("sio: data is not authentic");
      // deno-lint-ignore no-explicit-any
      const d = createDecipheriv(cipher as any, key, nonce, { authTagLength: TAG } as any) as any;
      d.setAAD(aad, { plaintextLength: sealed.length - TAG });
      d.setAuthTag(sealed.subarray(sealed.length - TAG));
      try {
        const plain = new Uint8Array(d.update(sealed.subarray(0, sealed.length - TAG)));
        d.final();
        return plain;
      } catch {
        throw new PayloadCryptoError("sio: data is not authentic");
      }
    },
  };
}

function nonceOf(prefix: Uint8Array, seq: number): Bytes {
  const nonce = new Uint8Array(12);
  nonce.set(prefix, 0);
  new DataView(nonce.buffer).setUint32(8, seq, true);
  return nonce;
}

/** The two 17-byte AADs: 0x00 ‖ T0 for non-final fragments, 0x80 ‖ T0 for the final one (§4.4 step 1). */
function associatedData(aead: Aead, prefix: Uint8Array): { more: Bytes; final: Bytes } {
  const t0 = aead.seal(nonceOf(prefix, 0), new Uint8Array(0), new Uint8Array(0));
  const more = new Uint8Array(17);
  const final = new Uint8Array(17);
  more.set(t0, 1);
  final[0] = 0x80;
  final.set(t0, 1);
  return { more, final };
}

/** Encrypts `plain` for the holder of `password` (the signing secret key). */
export async function encryptPayload(
  password: string,
  plain: Uint8Array,
  algorithm: PayloadAlgorithm = ALG_PBKDF2_AES_GCM,
  fixed?: { salt: Uint8Array; noncePrefix: Uint8Array },
): Promise<Bytes> {
  const salt = fixed?.salt ?? saltFor(password, algorithm);
  const prefix = fixed?.noncePrefix ?? crypto.getRandomValues(new Uint8Array(8));
  const aead = aeadFor(await deriveKeyCached(password, salt, algorithm), algorithm);
  const ad = associatedData(aead, prefix);
  const fragments = Math.max(1, Math.ceil(plain.length / FRAGMENT));
  const out = new Uint8Array(HEADER + plain.length + TAG * fragments);
  out.set(salt, 0);
  out[32] = algorithm;
  out.set(prefix, 33);
  let offset = HEADER;
  for (let i = 0; i < fragments; i++) {
    const part = plain.subarray(i * FRAGMENT, Math.min(plain.length, (i + 1) * FRAGMENT));
    const sealed = aead.seal(nonceOf(prefix, i + 1), part, i === fragments - 1 ? ad.final : ad.more);
    out.set(sealed, offset);
    offset += sealed.length;
  }
  return out;
}

/** Decrypts any of the three algorithm ids; throws PayloadCryptoError on a wrong password or tampering. */
export async function decryptPayload(password: string, data: Uint8Array): Promise<Bytes> {
  if (data.length < HEADER + TAG) throw new PayloadCryptoError("unexpected header");
  const algorithm = data[32];
  if (algorithm > 2) throw new PayloadCryptoError("madmin: invalid encryption algorithm ID");
  const prefix = data.subarray(33, 41);
  const aead = aeadFor(await deriveKeyCached(password, data.subarray(0, 32), algorithm), algorithm);
  const ad = associatedData(aead, prefix);
  const parts: Uint8Array[] = [];
  let offset = HEADER;
  let seq = 1;
  while (data.length - offset > FRAGMENT + TAG) {
    parts.push(aead.open(nonceOf(prefix, seq++), data.subarray(offset, offset + FRAGMENT + TAG), ad.more));
    offset += FRAGMENT + TAG;
  }
  parts.push(aead.open(nonceOf(prefix, seq), data.subarray(offset), ad.final));
  return concatBytes(parts);
}

/** madmin.IsEncrypted heuristic. */
export function looksEncrypted(data: Uint8Array): boolean {
  return data.length > 32 && data[32] <= 2;
}
