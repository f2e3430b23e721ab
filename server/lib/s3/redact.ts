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

/** A copy of `headers` with every secret value replaced. */
export function redactHeaders(headers: Headers): Headers {
  const out = new Headers();
  for (const [name, value] of headers) out.append(name, redactHeader(name, value));
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
