/**
 * Certificates trusted for outgoing TLS besides the system's, read from MinIO's certificate directory as MinIO
 * reads it: its own `public.crt` and every certificate file in `CAs/`. The console uses them to call its
 * embedded storage; the storage uses them for every call it makes itself (replication targets, tiers,
 * webhooks, OpenID), as MinIO does with the same directory. Deno's `caCerts` adds to the system roots, so a
 * publicly signed endpoint stays trusted.
 */

const PEM_CERTIFICATE = "-----BEGIN CERTIFICATE-----";

/** A PEM file that must hold a certificate; `setting` names what pointed at it in the error. */
export async function readPemCertificates(file: string, setting: string): Promise<string> {
  let text: string;
  try {
    text = await Deno.readTextFile(file);
  } catch (error) {
    throw new Error(`${setting}: cannot read ${file}: ${(error as Error).message}`);
  }
  if (!text.includes(PEM_CERTIFICATE)) throw new Error(`${setting}: ${file} holds no PEM certificate`);
  return text;
}

/**
 * The PEM certificates of a MinIO certificate directory: `public.crt` (which must be there) and each
 * certificate file in `CAs/`, in name order. Other files in CAs/ (a README, a key) are passed over, and a
 * missing CAs/ is none, as MinIO treats them.
 */
export async function readCertsDirTrust(certsDir: string, setting: string): Promise<string[]> {
  const dir = certsDir.replace(/\/+$/, "");
  const pems = [await readPemCertificates(`${dir}/public.crt`, setting)];
  const entries = await Array.fromAsync(Deno.readDir(`${dir}/CAs`)).catch(() => []);
  for (const entry of entries.filter((e) => e.isFile).sort((a, b) => a.name.localeCompare(b.name))) {
    const text = await Deno.readTextFile(`${dir}/CAs/${entry.name}`).catch(() => "");
    if (text.includes(PEM_CERTIFICATE)) pems.push(text);
  }
  return pems;
}

/**
 * An HTTP client with these options that also trusts `caCerts`; undefined (fetch's default client) when there
 * is nothing to set.
 */
export function httpClientTrusting(
  caCerts: readonly string[],
  options: Deno.CreateHttpClientOptions & Partial<Deno.TlsCertifiedKeyPem> = {},
): Deno.HttpClient | undefined {
  const all = caCerts.length ? { ...options, caCerts: [...(options.caCerts ?? []), ...caCerts] } : options;
  return Object.keys(all).length ? Deno.createHttpClient(all) : undefined;
}

/**
 * A fetch that also trusts these certificates, carrying them for what opens TLS sockets of its own (the S3
 * client's streamed uploads: stream_upload.ts), and `close()` for its HTTP client once nothing calls it.
 */
export type TrustingFetch = typeof fetch & { readonly caCerts: readonly string[]; close(): void };

/** `fetch` trusting these certificates too (exactly the global fetch's trust when there are none). */
export function fetchTrusting(caCerts: readonly string[]): TrustingFetch {
  const client = httpClientTrusting(caCerts);
  // `client` is Deno's own option, missing from the RequestInit type.
  const trusting: typeof fetch = client
    ? (input, init) => fetch(input, Object.assign({}, init, { client }))
    : (input, init) => fetch(input, init);
  return Object.assign(trusting, { caCerts: [...caCerts], close: () => client?.close() });
}

/** The certificates a fetch trusts besides the system's: those of fetchTrusting's, none for another. */
export function caCertsOf(fetchImpl: typeof fetch): readonly string[] {
  return (fetchImpl as Partial<TrustingFetch>).caCerts ?? [];
}
