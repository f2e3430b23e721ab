/**
 * Header and cookie handling for a reverse proxy: hop-by-hop headers stay on their own connection
 * (RFC 9110 §7.6.1), and cookies are read and written as RFC 6265 §4 defines them.
 */

/** Connection-specific fields, plus those named by Connection (RFC 9110 §7.6.1). */
const HOP_BY_HOP = [
  "connection",
  "proxy-connection",
  "keep-alive",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
  "proxy-authenticate",
  "proxy-authorization",
];

/** Removes hop-by-hop fields, including any listed in Connection, in place. */
export function dropHopByHop(headers: Headers): Headers {
  for (const name of (headers.get("connection") ?? "").split(",")) {
    if (name.trim()) headers.delete(name.trim());
  }
  for (const name of HOP_BY_HOP) headers.delete(name);
  return headers;
}

/** The name=value pairs of a Cookie header (RFC 6265 §4.2.1). */
export function parseCookieHeader(header: string | null): [string, string][] {
  if (!header) return [];
  return header.split(";").map((part) => {
    const eq = part.indexOf("=");
    return eq < 0 ? [part.trim(), ""] : [part.slice(0, eq).trim(), part.slice(eq + 1).trim()];
  }).filter(([name]) => name !== "") as [string, string][];
}

export interface SetCookie {
  name: string;
  value: string;
  /** Attributes other than Path, Domain, Secure, HttpOnly and SameSite, as written (Max-Age, Expires). */
  lifetime: string[];
}

/** Reads a Set-Cookie field (RFC 6265 §4.1): name, value and its lifetime attributes. */
export function parseSetCookie(field: string): SetCookie {
  const [pair, ...attributes] = field.split(";");
  const eq = pair.indexOf("=");
  return {
    name: pair.slice(0, eq).trim(),
    value: pair.slice(eq + 1).trim(),
    lifetime: attributes.map((a) => a.trim()).filter((a) => /^(max-age|expires)=/i.test(a)),
  };
}

/** Writes a Set-Cookie for the proxy's own scope: its path, HttpOnly, SameSite=Strict, Secure over HTTPS. */
export function formatSetCookie(cookie: SetCookie, path: string, secure: boolean): string {
  return [
    `${cookie.name}=${cookie.value}`,
    `Path=${path}`,
    ...cookie.lifetime,
    "HttpOnly",
    "SameSite=Strict",
    ...(secure ? ["Secure"] : []),
  ].join("; ");
}
