/**
 * The two LDAP string forms a user name reaches: search filters (RFC 4515) and distinguished names (RFC 4514).
 * A typed name is always escaped before it goes into either, so "*" or ")(uid=*" is a name, never a filter.
 * DNs are compared in one normal form (attribute types lower-cased, values unescaped then re-escaped, case
 * folded), since a directory answers `uid=dana\2Bops` for the entry written as `uid=dana\+ops`.
 */

/** RFC 4515 §3: `*`, `(`, `)`, `\` and NUL become `\XX`; every other character stands for itself. */
export function escapeFilterValue(value: string): string {
  return value.replace(/[*()\\\0]/g, (c) => `\\${c.charCodeAt(0).toString(16).padStart(2, "0")}`);
}

/** RFC 4514 §2.4: escapes an attribute value for a DN. */
export function escapeDnValue(value: string): string {
  let out = value.replace(/[\\,+"<>;=\0]/g, (c) => (c === "\0" ? "\\00" : `\\${c}`));
  if (/^[ #]/.test(out)) out = `\\${out}`;
  if (out.endsWith(" ") && !out.endsWith("\\ ")) out = `${out.slice(0, -1)}\\ `;
  return out;
}

/** Puts a user name into a configured template: `%s` escaped for a filter or a DN, `%d` (a DN) for a filter. */
export function fillFilter(template: string, username: string, dn = ""): string {
  return template.replaceAll("%s", escapeFilterValue(username)).replaceAll("%d", escapeFilterValue(dn));
}

export function fillDn(template: string, username: string): string {
  return template.replaceAll("%s", escapeDnValue(username));
}

export interface Rdn {
  type: string;
  value: string;
}

/** Parses a DN string into its RDNs (multi-valued RDNs flattened in order); throws on a malformed DN. */
export function parseDn(dn: string): Rdn[][] {
  const rdns: Rdn[][] = [];
  let current: Rdn[] = [];
  let i = 0;
  const text = dn.trim();
  if (!text) return [];
  while (i <= text.length) {
    const eq = text.indexOf("=", i);
    if (eq < 0) throw new Error(`'${dn}' is not a distinguished name`);
    const type = text.slice(i, eq).trim().toLowerCase();
    if (!/^([a-z][a-z0-9-]*|\d+(\.\d+)*)$/.test(type)) throw new Error(`'${dn}' is not a distinguished name`);
    i = eq + 1;
    while (text[i] === " ") i++;
    let value = "";
    const bytes: number[] = [];
    const flush = () => {
      if (bytes.length) value += new TextDecoder().decode(new Uint8Array(bytes.splice(0)));
    };
    let trailingSpaces = 0;
    for (; i < text.length; i++) {
      const c = text[i];
      if (c === "\\") {
        const hex = /^[0-9a-fA-F]{2}/.exec(text.slice(i + 1, i + 3));
        if (hex) {
          bytes.push(parseInt(hex[0], 16));
          i += 2;
        } else {
          flush();
          if (i + 1 >= text.length) throw new Error(`'${dn}' ends in an escape`);
          value += text[++i];
        }
        trailingSpaces = 0;
        continue;
      }
      if (c === "," || c === "+" || c === ";") break;
      flush();
      value += c;
      trailingSpaces = c === " " ? trailingSpaces + 1 : 0;
    }
    flush();
    if (trailingSpaces) value = value.slice(0, -trailingSpaces);
    current.push({ type, value });
    const sep = text[i];
    i++;
    if (sep !== "+") {
      rdns.push(current);
      current = [];
    }
    if (sep === undefined) break;
  }
  return rdns;
}

/** The DN in RFC 4514 form with attribute types lower-cased (as the directory compares them). */
export function formatDn(rdns: Rdn[][]): string {
  return rdns.map((rdn) => rdn.map((a) => `${a.type}=${escapeDnValue(a.value)}`).join("+")).join(",");
}

/** The key a DN is stored and compared under: parsed, re-escaped, case folded. Throws on a malformed DN. */
export function dnKey(dn: string): string {
  return formatDn(parseDn(dn)).toLowerCase();
}

/** Whether `text` reads as a DN (admin calls take a DN or a login name). */
export function parsesAsDn(text: string): boolean {
  try {
    return parseDn(text).length > 0;
  } catch {
    return false;
  }
}

/** Whether `dn` is `base` or below it. */
export function isUnder(dn: string, base: string): boolean {
  const a = dnKey(dn), b = dnKey(base);
  return a === b || a.endsWith(`,${b}`);
}
