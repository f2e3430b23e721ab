/**
 * MD5, which S3 still needs (ETags, Content-MD5) and WebCrypto does not offer. Incremental, so the embedded
 * server can hash object bodies while streaming them to disk.
 */
import { createHash, type Hash } from "node:crypto";

/** Incremental MD5 hasher. */
export class Md5 {
  readonly #hash: Hash = createHash("md5");
  update(data: Uint8Array): this {
    this.#hash.update(data);
    return this;
  }
  digest(): Uint8Array {
    return new Uint8Array(this.#hash.digest());
  }
  digestHex(): string {
    return this.#hash.digest("hex");
  }
}

export async function md5Base64(data: string | Uint8Array): Promise<string> {
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
  return await Promise.resolve(new Md5().update(bytes).digest().toBase64());
}

export function md5Hex(data: string | Uint8Array): string {
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
  return new Md5().update(bytes).digestHex();
}
