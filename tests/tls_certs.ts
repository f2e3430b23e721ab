/**
 * Certificates for the TLS tests, made with OpenSSL's command line as an administrator makes them: a private
 * CA, and a server certificate it signs for `localhost` and `127.0.0.1` (and addresses asked for), laid out as MinIO's certificate
 * directory (`public.crt`, `private.key`, `CAs/ca.crt`). OpenSSL is installed with apt-get when missing.
 */
import { ensureSystemPrograms, OPENSSL } from "../build/system_deps.ts";

export interface TestCertificates {
  /** MinIO's layout: public.crt, private.key and CAs/ca.crt. */
  certsDir: string;
  /** The private CA's certificate (PEM file), for clients: --ca-bundle, CONSOLE_MINIO_CA_FILE. */
  caFile: string;
  cert: string;
  key: string;
  /**
   * The Chromium switch that trusts this server certificate (by its public key), as an administrator's browser
   * trusts their private CA; Chromium reads no CA file of ours.
   */
  chromiumTrust(): Promise<string>;
  remove(): Promise<void>;
}

/** Base64 SHA-256 of a certificate's SubjectPublicKeyInfo: what Chromium's SPKI list names. */
async function spkiHash(certFile: string): Promise<string> {
  const out = await new Deno.Command(OPENSSL.path, {
    args: ["x509", "-in", certFile, "-noout", "-pubkey"],
    stdout: "piped",
  }).output();
  const pem = new TextDecoder().decode(out.stdout);
  const der = Uint8Array.fromBase64(pem.replace(/-----[^-]+-----|\s/g, ""));
  return new Uint8Array(await crypto.subtle.digest("SHA-256", der)).toBase64();
}

async function openssl(cwd: string, ...args: string[]): Promise<void> {
  const out = await new Deno.Command(OPENSSL.path, { args, cwd, stdout: "piped", stderr: "piped" }).output();
  if (!out.success) {
    throw new Error(`openssl ${args.join(" ")} failed: ${new TextDecoder().decode(out.stderr)}`);
  }
}

/**
 * A private CA and a server certificate it signed for localhost, 127.0.0.1 and `ips`, in a fresh temporary
 * certificate directory.
 */
export async function makeCertificates(options: { ips?: string[] } = {}): Promise<TestCertificates> {
  const missing = await ensureSystemPrograms([OPENSSL]);
  if (missing) throw new Error(missing);
  const certsDir = await Deno.makeTempDir({ prefix: "deck-certs-" });
  await Deno.mkdir(`${certsDir}/CAs`);
  const ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"];
  await openssl(
    certsDir,
    "req",
    "-x509",
    ...ec,
    "-keyout",
    "ca.key",
    "-out",
    "CAs/ca.crt",
    "-days",
    "2",
    "-subj",
    "/CN=Deck test CA",
    "-addext",
    "basicConstraints=critical,CA:TRUE",
    "-addext",
    "keyUsage=critical,keyCertSign,cRLSign",
  );
  await openssl(
    certsDir,
    "req",
    ...ec,
    "-keyout",
    "private.key",
    "-out",
    "server.csr",
    "-subj",
    "/CN=localhost",
  );
  await Deno.writeTextFile(
    `${certsDir}/server.ext`,
    [
      "basicConstraints=critical,CA:FALSE",
      "keyUsage=critical,digitalSignature",
      "extendedKeyUsage=serverAuth",
      `subjectAltName=${
        ["DNS:localhost", "IP:127.0.0.1", ...(options.ips ?? []).map((ip) => `IP:${ip}`)].join(",")
      }`,
    ].join("\n"),
  );
  await openssl(
    certsDir,
    "x509",
    "-req",
    "-in",
    "server.csr",
    "-CA",
    "CAs/ca.crt",
    "-CAkey",
    "ca.key",
    "-CAcreateserial",
    "-days",
    "2",
    "-extfile",
    "server.ext",
    "-out",
    "public.crt",
  );
  // Only what MinIO's layout holds stays: the CA's key is not the server's business.
  for (const name of ["ca.key", "server.csr", "server.ext", "CAs/ca.srl"]) {
    await Deno.remove(`${certsDir}/${name}`).catch(() => {});
  }
  return {
    certsDir,
    caFile: `${certsDir}/CAs/ca.crt`,
    cert: `${certsDir}/public.crt`,
    key: `${certsDir}/private.key`,
    chromiumTrust: async () =>
      `--ignore-certificate-errors-spki-list=${await spkiHash(`${certsDir}/public.crt`)}`,
    remove: () => Deno.remove(certsDir, { recursive: true }),
  };
}

/**
 * A self-signed certificate marked as a CA, as MinIO's `certgen` makes by default (without `-no-ca`), in a
 * certificate directory of its own.
 */
export async function makeSelfSignedCaCertificate(): Promise<TestCertificates> {
  const missing = await ensureSystemPrograms([OPENSSL]);
  if (missing) throw new Error(missing);
  const certsDir = await Deno.makeTempDir({ prefix: "deck-certs-" });
  await openssl(
    certsDir,
    "req",
    "-x509",
    "-newkey",
    "ec",
    "-pkeyopt",
    "ec_paramgen_curve:P-256",
    "-nodes",
    "-keyout",
    "private.key",
    "-out",
    "public.crt",
    "-days",
    "2",
    "-subj",
    "/O=Acme Co",
    "-addext",
    "basicConstraints=critical,CA:TRUE",
    "-addext",
    "subjectAltName=DNS:localhost,IP:127.0.0.1",
  );
  return {
    certsDir,
    caFile: `${certsDir}/public.crt`,
    cert: `${certsDir}/public.crt`,
    key: `${certsDir}/private.key`,
    chromiumTrust: async () =>
      `--ignore-certificate-errors-spki-list=${await spkiHash(`${certsDir}/public.crt`)}`,
    remove: () => Deno.remove(certsDir, { recursive: true }),
  };
}
