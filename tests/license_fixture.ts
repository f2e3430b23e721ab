/**
 * Test licences: a P-384 key pair of our own (its public key given to Deck as CONSOLE_SUBNET_PUBLIC_KEY_FILE)
 * and ES384-signed licence JWTs with SUBNET's claims.
 */
export interface LicenseSigner {
  publicKeyFile: string;
  sign(claims: Record<string, unknown>): Promise<string>;
  cleanup(): Promise<void>;
}

const b64url = (bytes: Uint8Array) => bytes.toBase64({ alphabet: "base64url", omitPadding: true });

export async function createLicenseSigner(): Promise<LicenseSigner> {
  const pair = await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-384" }, true, [
    "sign",
    "verify",
  ]);
  const spki = new Uint8Array(await crypto.subtle.exportKey("spki", pair.publicKey));
  const pem = `-----BEGIN PUBLIC KEY-----\n${
    spki.toBase64().match(/.{1,64}/g)!.join("\n")
  }\n-----END PUBLIC KEY-----\n`;
  const dir = await Deno.makeTempDir({ prefix: "deck-license-" });
  const publicKeyFile = `${dir}/license-pubkey.pem`;
  await Deno.writeTextFile(publicKeyFile, pem);
  return {
    publicKeyFile,
    async sign(claims) {
      const input = `${b64url(new TextEncoder().encode(JSON.stringify({ alg: "ES384", typ: "JWT" })))}.${
        b64url(new TextEncoder().encode(JSON.stringify(claims)))
      }`;
      const signature = new Uint8Array(
        await crypto.subtle.sign(
          { name: "ECDSA", hash: "SHA-384" },
          pair.privateKey,
          new TextEncoder().encode(input),
        ),
      );
      return `${input}.${b64url(signature)}`;
    },
    cleanup: () => Deno.remove(dir, { recursive: true }),
  };
}

/** Claims of a valid Standard licence for a year from now. */
export function standardClaims(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const now = Math.floor(Date.now() / 1000);
  return {
    sub: "ops@example.com",
    aid: 42,
    org: "Example Corp",
    cap: 50,
    plan: "STANDARD",
    iat: now,
    exp: now + 365 * 86400,
    lid: "lic-1",
    ...overrides,
  };
}
