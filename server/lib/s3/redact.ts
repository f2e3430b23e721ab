/**
 * Secrets a request carries that no record of it may keep: what the embedded storage's trace, audit entries
 * and audit webhooks show, and what the log search stores from any server. One list, applied once where a
 * record is made.
 *
 * - Authorization keeps its Credential (log search reads the access key there) but not its Signature: a
 *   signed request can be replayed while it is fresh.
 * - Session tokens (X-Amz-Security-Token), in headers and presigned URLs, and the signature of a presigned
 *   URL, for the same reason.
 * - SSE-C customer keys, of the object and of a copy's source: the only thing protecting those objects.
 *   MinIO strips them and the unencrypted size and MD5 it keeps about sealed objects
 *   (crypto.RemoveSensitiveHeaders), and its STS audit drops the token.
 * - Cookies, and the LDAP password and web-identity tokens STS calls may carry in their query (MinIO's trace
 *   masks LDAPPassword).
 */

export const REDACTED = "*REDACTED*";

const SECRET_HEADERS = new Set([
  "x-amz-security-token",
  "x-amz-server-side-encryption-customer-key",
  "x-amz-copy-source-server-side-encryption-customer-key",
  "x-amz-meta-x-amz-unencrypted-content-length",
  "x-amz-meta-x-amz-unencrypted-content-md5",
  "cookie",
]);

const SECRET_QUERY = new Set([
  "x-amz-signature",
  "x-amz-security-token",
  "signature",
  "ldappassword",
  "webidentitytoken",
  "token",
]);

/** Whether a query parameter's value is a secret (its name compared in any case). */
export const isSecretParameter = (name: string) => SECRET_QUERY.has(name.toLowerCase());

/** A header's value as records may show it. */
export function redactHeader(name: string, value: string): string {
  const lower = name.toLowerCase();
  if (SECRET_HEADERS.has(lower)) return REDACTED;
  if (lower === "authorization") {
    return value.replace(/Signature=[0-9a-fA-F]+/g, `Signature=${REDACTED}`).replace(
      /^(AWS [^:\s]+:).+$/,
      `$1${REDACTED}`,
    );
  }
  return value;
}

/** Header names as Go's http.Header keeps them ("x-amz-date" → "X-Amz-Date"), known ones remembered. */
const canonicalNames = new Map<string, string>();
export function canonicalHeaderName(name: string): string {
  let canonical = canonicalNames.get(name);
  if (canonical === undefined) {
    canonical = name.split("-").map((p) => (p ? p[0].toUpperCase() + p.slice(1) : p)).join("-");
    // Names are the client's to choose: only a bounded number are remembered.
    if (canonicalNames.size < 512) canonicalNames.set(name, canonical);
  }
  return canonical;
}

/**
 * `headers` as records keep them: one entry per name, in Go's canonical form, every secret value replaced.
 * A plain object read in one pass: a record is built for every request, and a copied Headers (each append
 * validated, each later read sorting the list again) took about a tenth of the storage thread under load.
 */
export function redactedHeaderMap(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  // forEach, not for…of: Deno's Headers iterator costs about three times as much per header set.
  headers.forEach((value, name) => {
    out[canonicalHeaderName(name)] = redactHeader(name, value);
  });
  return out;
}

/** A raw query string (no "?") with secret parameters' values replaced; the rest stays as sent. */
export function redactQuery(rawQuery: string): string {
  if (rawQuery === "") return rawQuery;
  return rawQuery.split("&").map((pair) => {
    const eq = pair.indexOf("=");
    if (eq === -1) return pair;
    let name = pair.slice(0, eq);
    try {
      name = decodeURIComponent(name.replace(/\+/g, " "));
    } catch { /* an undecodable name is no parameter of ours */ }
    return isSecretParameter(name) ? `${pair.slice(0, eq)}=${REDACTED}` : pair;
  }).join("&");
}
