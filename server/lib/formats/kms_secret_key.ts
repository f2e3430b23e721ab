/**
 * MinIO's single static KMS key, as `MINIO_KMS_SECRET_KEY` writes it: `<key-name>:<base64 of 32 bytes>`.
 * Parsed here, apart from the key store, so the console's configuration can check the setting without loading
 * the embedded storage's encryption code.
 */
export interface KmsSecretKey {
  name: string;
  bytes: Uint8Array;
}

/** Parses the setting's value; throws an Error with MinIO's wording when it is malformed. */
export function parseKmsSecretKey(value: string): KmsSecretKey {
  const colon = value.indexOf(":");
  if (colon <= 0) throw new Error("kms: invalid secret key format");
  let bytes: Uint8Array;
  try {
    bytes = Uint8Array.fromBase64(value.slice(colon + 1));
  } catch {
    throw new Error("kms: invalid secret key format");
  }
  if (bytes.length !== 32) throw new Error(`kms: invalid key length ${bytes.length}`);
  return { name: value.slice(0, colon), bytes };
}
