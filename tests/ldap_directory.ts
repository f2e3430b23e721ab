/**
 * Debian's OpenLDAP as the directory the LDAP tests sign in against: a slapd of the test's own, configured
 * from scratch in a temporary directory (slapd.conf, an mdb database filled with slapadd) and listening on a
 * free loopback port. Nothing of the machine's own slapd service is used; the packages are installed with
 * apt-get when missing (build/system_deps.ts).
 *
 * The directory, under dc=deck,dc=test:
 *   ou=people   alice (in group readers), bob (policy on his own DN), dave (disabled), and a user whose
 *               name and password need escaping (ESCAPED)
 *   ou=staff    carol (in group admins), erin (no policy anywhere)
 *   ou=groups   readers, admins (groupOfNames)
 *   cn=lookup   the read-only service account for lookup-bind mode
 *
 * A disabled account is marked `employeeType: disabled`, and the user search filter the tests configure
 * leaves such entries out, as Active Directory sites do with the userAccountControl bit: MinIO has no notion
 * of a disabled directory account beyond "the lookup no longer finds it" (docs/notes.md, LDAP).
 * Anonymous clients may not read anything, so lookups need the service account's bind.
 */
import { ensureSystemPrograms, LDAP_UTILS, SLAPD } from "../build/system_deps.ts";
import {
  delConfigKV,
  formatConfigLine,
  serviceRestart,
  setConfigKV,
} from "../server/lib/s3/admin/config_kv.ts";
import type { S3Client } from "../server/lib/s3/client.ts";
import { eventually } from "./eventually.ts";
import { freePort } from "./storage_process.ts";

export const SUFFIX = "dc=deck,dc=test";
export const PEOPLE = `ou=people,${SUFFIX}`;
export const STAFF = `ou=staff,${SUFFIX}`;
export const GROUPS = `ou=groups,${SUFFIX}`;
export const LOOKUP = { dn: `cn=lookup,${SUFFIX}`, password: "lookup secret" };
const ADMIN = { dn: `cn=admin,${SUFFIX}`, password: "admin secret" };

export interface DirectoryUser {
  uid: string;
  password: string;
  dn: string;
}

const user = (uid: string, password: string, dn: string): DirectoryUser => ({ uid, password, dn });

/** A name with the characters RFC 4514 (DN) and RFC 4515 (filter) make special, and a password likewise. */
export const ESCAPED = user(
  "dana+ops, (eu)*",
  "p*(a)\\ss, wörd 🔑",
  `uid=dana\\+ops\\, (eu)*,${PEOPLE}`,
);
export const USERS = {
  alice: user("alice", "alice password", `uid=alice,${PEOPLE}`),
  bob: user("bob", "bob password", `uid=bob,${PEOPLE}`),
  dave: user("dave", "dave password", `uid=dave,${PEOPLE}`),
  carol: user("carol", "carol password", `uid=carol,${STAFF}`),
  erin: user("erin", "erin password", `uid=erin,${STAFF}`),
  escaped: ESCAPED,
};
export const GROUP_DNS = { readers: `cn=readers,${GROUPS}`, admins: `cn=admins,${GROUPS}` };

export interface LdapDirectory {
  /** 127.0.0.1:<port>, as identity_ldap's server_addr takes it (plain LDAP; StartTLS too with certificates). */
  address: string;
  /** With certificates: 127.0.0.1:<port> of LDAPS. */
  ldapsAddress?: string;
  /** The identity_ldap settings for lookup-bind mode against this directory (plain LDAP on loopback). */
  settings: Record<string, string>;
  /** Applies LDIF changes as the directory's administrator (ldapmodify). */
  modify(ldif: string): Promise<void>;
  stop(): Promise<void>;
}

/** An LDIF line; values that are not plain ASCII, or start with a space, colon or "<", go base64 (RFC 2849). */
function line(attribute: string, value: string): string {
  const safe = /^[\x20-\x7e]*$/.test(value) && !/^[ :<]/.test(value) && !value.endsWith(" ");
  return safe ? `${attribute}: ${value}` : `${attribute}:: ${new TextEncoder().encode(value).toBase64()}`;
}

const entry = (dn: string, attributes: [string, string][]) =>
  [line("dn", dn), ...attributes.map(([a, v]) => line(a, v))].join("\n");

function person(u: DirectoryUser, extra: [string, string][] = []): string {
  return entry(u.dn, [
    ["objectClass", "inetOrgPerson"],
    ["uid", u.uid],
    ["cn", u.uid],
    ["sn", u.uid],
    ["userPassword", u.password],
    ...extra,
  ]);
}

function contents(): string {
  return [
    entry(SUFFIX, [["objectClass", "dcObject"], ["objectClass", "organization"], ["dc", "deck"], [
      "o",
      "Deck",
    ]]),
    entry(LOOKUP.dn, [
      ["objectClass", "organizationalRole"],
      ["objectClass", "simpleSecurityObject"],
      ["cn", "lookup"],
      ["userPassword", LOOKUP.password],
    ]),
    ...[PEOPLE, STAFF, GROUPS].map((dn) =>
      entry(dn, [["objectClass", "organizationalUnit"], ["ou", dn.slice(3, dn.indexOf(","))]])
    ),
    person(USERS.alice),
    person(USERS.bob),
    person(USERS.dave, [["employeeType", "disabled"]]),
    person(USERS.carol),
    person(USERS.erin),
    person(ESCAPED),
    entry(GROUP_DNS.readers, [
      ["objectClass", "groupOfNames"],
      ["cn", "readers"],
      ["member", USERS.alice.dn],
      ["member", ESCAPED.dn],
    ]),
    entry(GROUP_DNS.admins, [["objectClass", "groupOfNames"], ["cn", "admins"], ["member", USERS.carol.dn]]),
  ].join("\n\n") + "\n";
}

function slapdConf(dir: string, tls?: { cert: string; key: string }): string {
  const tlsLines = tls ? `TLSCertificateFile ${tls.cert}\nTLSCertificateKeyFile ${tls.key}\n` : "";
  return `${tlsLines}include /etc/ldap/schema/core.schema
include /etc/ldap/schema/cosine.schema
include /etc/ldap/schema/inetorgperson.schema
modulepath /usr/lib/ldap
moduleload back_mdb
pidfile ${dir}/slapd.pid
argsfile ${dir}/slapd.args
database mdb
maxsize 16777216
suffix "${SUFFIX}"
rootdn "${ADMIN.dn}"
rootpw "${ADMIN.password}"
directory ${dir}/db
access to attrs=userPassword by self write by anonymous auth by * none
access to * by users read by * none
`;
}

async function run(program: string, args: string[], stdin?: string): Promise<void> {
  const child = new Deno.Command(program, {
    args,
    stdin: stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  })
    .spawn();
  if (stdin !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(stdin));
    await writer.close();
  }
  const out = await child.output();
  if (!out.success) {
    throw new Error(
      `${program} failed: ${new TextDecoder().decode(out.stderr)}${new TextDecoder().decode(out.stdout)}`,
    );
  }
}

/**
 * Starts a fresh directory; stop it at the end of the test. With `tls` (tests/tls_certs.ts) it also serves
 * LDAPS on a port of its own and StartTLS on the plain one.
 */
export async function startDirectory(tls?: { cert: string; key: string }): Promise<LdapDirectory> {
  const missing = await ensureSystemPrograms([SLAPD, LDAP_UTILS]);
  if (missing) throw new Error(missing);
  const dir = await Deno.makeTempDir({ prefix: "deck-ldap-" });
  await Deno.mkdir(`${dir}/db`);
  await Deno.writeTextFile(`${dir}/slapd.conf`, slapdConf(dir, tls));
  await run("/usr/sbin/slapadd", ["-q", "-f", `${dir}/slapd.conf`], contents());
  const port = await freePort();
  const url = `ldap://127.0.0.1:${port}/`;
  const tlsPort = tls ? await freePort() : 0;
  // -d keeps slapd in the foreground (a child of the test, ended by it); level 0 logs nothing.
  const child = new Deno.Command(SLAPD.path, {
    args: ["-d", "0", "-f", `${dir}/slapd.conf`, "-h", tls ? `${url} ldaps://127.0.0.1:${tlsPort}/` : url],
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const stderr = new Response(child.stderr).text();
  const exited = new AbortController();
  child.status.then(() => exited.abort(new Error("slapd exited")));
  const stop = async () => {
    try {
      child.kill("SIGTERM");
    } catch { /* already gone */ }
    await child.status;
    await stderr;
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  };
  const modify = (ldif: string) =>
    run("/usr/bin/ldapmodify", ["-x", "-H", url, "-D", ADMIN.dn, "-w", ADMIN.password], ldif);
  try {
    await eventually("slapd to answer", async () => {
      await run("/usr/bin/ldapwhoami", ["-x", "-H", url, "-D", LOOKUP.dn, "-w", LOOKUP.password]);
      return true;
    }, { signal: exited.signal, timeoutMs: 30_000 });
  } catch (error) {
    await stop();
    throw new Error(`${error instanceof Error ? error.message : error}\n${await stderr}`);
  }
  const address = `127.0.0.1:${port}`;
  return {
    address,
    ldapsAddress: tls ? `127.0.0.1:${tlsPort}` : undefined,
    settings: {
      server_addr: address,
      server_insecure: "on",
      lookup_bind_dn: LOOKUP.dn,
      lookup_bind_password: LOOKUP.password,
      user_dn_search_base_dn: `${PEOPLE};${STAFF}`,
      user_dn_search_filter: "(&(objectClass=inetOrgPerson)(uid=%s)(!(employeeType=disabled)))",
      group_search_base_dn: GROUPS,
      group_search_filter: "(&(objectClass=groupOfNames)(member=%d))",
    },
    modify,
    stop,
  };
}

/**
 * Points a storage server at a directory (identity_ldap) with exactly these settings (earlier ones are
 * removed first: a set merges with what is stored) and restarts it so they take effect.
 */
export async function configureLdap(admin: S3Client, settings: Record<string, string>): Promise<void> {
  await delConfigKV(admin, "identity_ldap").catch((error) => {
    if (!/No such target/.test(String(error?.message))) throw error; // else: nothing stored yet
  });
  const kv = Object.entries(settings).map(([key, value]) => ({ key, value }));
  await setConfigKV(admin, formatConfigLine("identity_ldap", undefined, kv));
  await serviceRestart(admin);
}
