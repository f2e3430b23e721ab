/**
 * identity_ldap's values as the directory client uses them. Two modes, as MinIO has them: lookup-bind (a
 * read-only service account finds the user's DN under `user_dn_search_base_dn` with `user_dn_search_filter`,
 * then the user's password is checked by binding as that DN) and username-format (the DN is made from
 * `username_format` and bound directly). The transport is LDAPS unless `server_insecure` (plain) or
 * `server_starttls` (plain, upgraded with StartTLS) says otherwise.
 */

export type TlsMode = "ldaps" | "starttls" | "plain";

export interface LdapSettings {
  host: string;
  port: number;
  tls: TlsMode;
  tlsSkipVerify: boolean;
  lookupBindDn: string;
  lookupBindPassword: string;
  userDnSearchBaseDns: string[];
  userDnSearchFilter: string;
  usernameFormats: string[];
  groupSearchBaseDns: string[];
  groupSearchFilter: string;
  groupNameAttribute: string;
  /** Default lifetime of the credentials a sign-in gets (sts_expiry, default 1h). */
  stsExpirySeconds: number;
  /** PEM certificates trusted besides the system's (the storage's certs dir, as MinIO trusts it). */
  caCerts: readonly string[];
}

/** "1h", "90m", "3600s", "2d" or bare seconds; 0 when unreadable. */
function durationSeconds(value: string): number {
  const m = /^(\d+)(s|m|h|d)?$/.exec(value.trim());
  if (!m) return 0;
  return Number(m[1]) * ({ s: 1, m: 60, h: 3600, d: 86400 }[m[2] ?? "s"] ?? 1);
}

const list = (value: string | undefined) => (value ?? "").split(";").map((v) => v.trim()).filter(Boolean);

/** The settings from identity_ldap's values; null when no directory is configured. */
export function ldapSettings(
  values: Record<string, string> | undefined,
  caCerts: readonly string[] = [],
): LdapSettings | null {
  const addr = values?.server_addr;
  if (!addr || values.enable === "off") return null;
  const at = addr.lastIndexOf(":");
  const host = at > 0 ? addr.slice(0, at).replace(/^\[|\]$/g, "") : addr;
  const port = at > 0 ? Number(addr.slice(at + 1)) : 636;
  const on = (key: string) => values[key] === "on";
  const userBases = list(values.user_dn_search_base_dn);
  return {
    host,
    port,
    tls: on("server_insecure") ? "plain" : on("server_starttls") ? "starttls" : "ldaps",
    tlsSkipVerify: on("tls_skip_verify"),
    lookupBindDn: values.lookup_bind_dn ?? "",
    lookupBindPassword: values.lookup_bind_password ?? "",
    // The older names (username_search_base_dn / username_search_filter) stand in for the lookup ones.
    userDnSearchBaseDns: userBases.length ? userBases : list(values.username_search_base_dn),
    userDnSearchFilter: values.user_dn_search_filter || values.username_search_filter || "",
    usernameFormats: list(values.username_format),
    groupSearchBaseDns: list(values.group_search_base_dn).length
      ? list(values.group_search_base_dn)
      : list(values.username_search_base_dn),
    groupSearchFilter: values.group_search_filter ?? "",
    groupNameAttribute: values.group_name_attribute ?? "",
    stsExpirySeconds: durationSeconds(values.sts_expiry || "1h") || 3600,
    caCerts,
  };
}

/** How an administrator reads the transport: "LDAPS", "StartTLS" or "plain LDAP (no TLS)". */
export function describeTransport(s: LdapSettings): string {
  const mode = s.tls === "ldaps" ? "LDAPS" : s.tls === "starttls" ? "StartTLS" : "plain LDAP, no TLS";
  return `${s.host}:${s.port} (${mode}${
    s.tls !== "plain" && s.tlsSkipVerify ? ", certificate not verified" : ""
  })`;
}

/** Lookup-bind mode: a service account is configured. */
export const usesLookupBind = (s: LdapSettings) => s.lookupBindDn !== "";
