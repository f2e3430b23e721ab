/**
 * The key store behind SSE-S3 and SSE-KMS: MinIO's single static key, `MINIO_KMS_SECRET_KEY=<name>:<base64
 * of 32 bytes>` (minio-protocol-2 §7.4). The name is the default and only key. Object keys are sealed with
 * AES-256-GCM under a key derived from the master key, bound to the key name and the encryption context.
 */
import { parseKmsSecretKey } from "../../lib/formats/kms_secret_key.ts";
import { StoreError } from "../core/errors.ts";

/** MinIO's answers when the key store cannot serve a request (minio-protocol-2 §7.3). */
export const kmsNotConfigured = () =>
  new StoreError("NotImplemented", "Server side encryption specified but KMS is not configured", 501);
export const kmsKeyNotFound = () =>
  new StoreError("kms:KeyNotFound", "key with given key ID does not exist", 404);
export const kmsInvalidKeyId = () => new StoreError("KMS.NotFoundException", "Invalid keyId", 400);

export class KeyStore {
  private constructor(readonly defaultKey: string, private readonly master: Uint8Array) {}

  /** Parses the setting's value; throws an Error with MinIO's wording when it is malformed. */
  static parse(value: string): KeyStore {
    const { name, bytes } = parseKmsSecretKey(value);
    return new KeyStore(name, bytes);
  }

  /** Whether the store holds a key of this name. */
  has(name: string): boolean {
    return name === this.defaultKey;
  }

  async #kek(name: string): Promise<CryptoKey> {
    if (!this.has(name)) throw kmsKeyNotFound();
    const hmac = await crypto.subtle.importKey(
      "raw",
      this.master as Uint8Array<ArrayBuffer>,
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["sign"],
    );
    const derived = await crypto.subtle.sign(
      "HMAC",
      hmac,
      new TextEncoder().encode(`deck-kms-static/v1/${name}`),
    );
    return await crypto.subtle.importKey("raw", derived, "AES-GCM", false, ["encrypt", "decrypt"]);
  }

  /** Seals `plaintext` (an object key) under key `name`, bound to `context`: nonce || ciphertext || tag. */
  async seal(name: string, plaintext: Uint8Array, context: Record<string, string>): Promise<Uint8Array> {
    const kek = await this.#kek(name);
    const nonce = crypto.getRandomValues(new Uint8Array(12));
    const sealed = new Uint8Array(
      await crypto.subtle.encrypt(
        { name: "AES-GCM", iv: nonce, additionalData: contextBytes(context) },
        kek,
        plaintext as Uint8Array<ArrayBuffer>,
      ),
    );
    const out = new Uint8Array(12 + sealed.length);
    out.set(nonce);
    out.set(sealed, 12);
    return out;
  }

  /** Opens what seal() produced; throws when the key, the context or the bytes differ. */
  async unseal(name: string, sealed: Uint8Array, context: Record<string, string>): Promise<Uint8Array> {
    const kek = await this.#kek(name);
    return new Uint8Array(
      await crypto.subtle.decrypt(
        {
          name: "AES-GCM",
          iv: sealed.subarray(0, 12) as Uint8Array<ArrayBuffer>,
          additionalData: contextBytes(context),
        },
        kek,
        sealed.subarray(12) as Uint8Array<ArrayBuffer>,
      ),
    );
  }
}

/** The context in a canonical form (keys sorted), as authenticated data. */
function contextBytes(context: Record<string, string>): Uint8Array<ArrayBuffer> {
  const sorted = Object.keys(context).sort().map((k) => [k, context[k]]);
  return new TextEncoder().encode(JSON.stringify(sorted));
}

/** The key store each disk store encrypts with (set by the server at start; heal and reads find it here). */
const stores = new WeakMap<object, KeyStore>();

export function setKeyStore(store: object, keys: KeyStore | null): void {
  if (keys) stores.set(store, keys);
  else stores.delete(store);
}

export function keyStoreOf(store: object): KeyStore | null {
  return stores.get(store) ?? null;
}
