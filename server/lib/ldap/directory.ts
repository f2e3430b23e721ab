/**
 * Talking to the configured directory (ldapts, an LDAPv3 client): sign a user in (find the DN, bind as it
 * with the password, find the groups), look a user up again later with the service account (is the account
 * still there?), and check that a DN exists (before a policy is attached to it). Every failure is an
 * LdapFailure naming the step, so the STS answer, the console's sign-in and the diagnostics can say which
 * step failed; messages follow MinIO's where it has one.
 */
import { rootCertificates } from "node:tls";
import type { Client } from "ldapts";
import { dnKey, fillDn, fillFilter } from "./names.ts";
import { describeTransport, type LdapSettings, usesLookupBind } from "./settings.ts";

export type LdapStep =
  | "reach"
  | "lookup-bind"
  | "search-base"
  | "user-not-found"
  | "user-bind"
  | "groups"
  | "input";

export class LdapFailure extends Error {
  constructor(readonly step: LdapStep, message: string) {
    super(message);
  }
}

export interface DirectoryUser {
  /** The DN as the directory answers it. */
  dn: string;
  /** Normal form of the DN: the key policies are mapped under (names.ts dnKey). */
  key: string;
  /** The groups' DNs as the directory answers them. */
  groups: string[];
}

const CONNECT_TIMEOUT_MS = 10_000;
const OPERATION_TIMEOUT_MS = 30_000;

/**
 * ldapts, loaded by the first directory call (open, which every other call here follows): a console or
 * storage without a directory never loads it (issue 25).
 */
let ldapts: typeof import("ldapts");

/** A connected, not yet bound client; the TLS mode is the configured one. */
async function open(s: LdapSettings): Promise<Client> {
  ldapts ??= await import("ldapts");
  // SNI carries host names only (RFC 6066 §3); an address is checked against the certificate without it.
  const isAddress = /^[\d.]+$/.test(s.host) || s.host.includes(":");
  const tlsOptions = {
    rejectUnauthorized: !s.tlsSkipVerify,
    ...(isAddress ? {} : { servername: s.host }),
    // `ca` replaces Node's roots, so the system's go along with the extra ones.
    ...(s.caCerts.length ? { ca: [...rootCertificates, ...s.caCerts] } : {}),
  };
  const host = s.host.includes(":") ? `[${s.host}]` : s.host;
  const client = new ldapts.Client({
    url: `${s.tls === "ldaps" ? "ldaps" : "ldap"}://${host}:${s.port}`,
    connectTimeout: CONNECT_TIMEOUT_MS,
    timeout: OPERATION_TIMEOUT_MS,
    // ldapts speaks TLS from the first byte whenever it is given TLS options, whatever the URL's scheme.
    ...(s.tls === "ldaps" ? { tlsOptions } : {}),
  });
  if (s.tls === "starttls") {
    try {
      await client.startTLS(tlsOptions);
    } catch (error) {
      await close(client);
      throw unreachable(s, error);
    }
  }
  return client;
}

async function close(client: Client): Promise<void> {
  await client.unbind().catch(() => {});
}

const reason = (
  error: unknown,
) => (error instanceof Error ? error.message.trim() || error.name : String(error));

function unreachable(s: LdapSettings, error: unknown): LdapFailure {
  return new LdapFailure(
    "reach",
    `the directory at ${describeTransport(s)} cannot be reached: ${reason(error)}`,
  );
}

/** A bind; a failure that is not an LDAP answer means the server was never reached. */
async function bind(s: LdapSettings, client: Client, dn: string, password: string, step: LdapStep) {
  try {
    await client.bind(dn, password);
  } catch (error) {
    if (!(error instanceof ldapts.ResultCodeError)) throw unreachable(s, error);
    if (step === "lookup-bind") {
      throw new LdapFailure(
        "lookup-bind",
        error instanceof ldapts.InvalidCredentialsError
          ? `LDAP Lookup Bind user invalid credentials error: the directory refused lookup_bind_dn '${dn}' and its password`
          : `LDAP Lookup Bind failed for '${dn}': ${reason(error)}`,
      );
    }
    throw new LdapFailure(step, `LDAP auth failed for DN ${dn}: ${reason(error)}`);
  }
}

/** DNs of the entries matching `filter` under `base` (whole subtree, no attributes). */
async function searchDns(client: Client, base: string, filter: string, what: string): Promise<string[]> {
  try {
    const { searchEntries } = await client.search(base, { scope: "sub", filter, attributes: ["1.1"] });
    return searchEntries.map((e) => e.dn);
  } catch (error) {
    if (error instanceof ldapts.NoSuchObjectError) {
      throw new LdapFailure("search-base", `Base DN (${base}) for ${what} search does not exist`);
    }
    if (!(error instanceof ldapts.ResultCodeError)) throw error;
    throw new LdapFailure(
      what === "user DN" ? "search-base" : "groups",
      `LDAP ${what} search under ${base} failed: ${reason(error)}`,
    );
  }
}

/** Finds the one DN of `username` under the user search bases (the client bound as the service account). */
async function findUser(s: LdapSettings, client: Client, username: string): Promise<string | null> {
  if (!s.userDnSearchFilter || s.userDnSearchBaseDns.length === 0) {
    throw new LdapFailure(
      "search-base",
      "lookup-bind mode needs user_dn_search_base_dn and user_dn_search_filter to find users",
    );
  }
  const found: string[] = [];
  for (const base of s.userDnSearchBaseDns) {
    found.push(...await searchDns(client, base, fillFilter(s.userDnSearchFilter, username), "user DN"));
  }
  if (found.length > 1) {
    throw new LdapFailure(
      "user-not-found",
      `Multiple DNs for ${username} found - please fix the search filter`,
    );
  }
  return found[0] ?? null;
}

async function findGroups(s: LdapSettings, client: Client, username: string, dn: string): Promise<string[]> {
  if (!s.groupSearchFilter) return [];
  const groups: string[] = [];
  for (const base of s.groupSearchBaseDns) {
    try {
      groups.push(...await searchDns(client, base, fillFilter(s.groupSearchFilter, username, dn), "group"));
    } catch (error) {
      if (error instanceof LdapFailure) {
        throw new LdapFailure("groups", `Error finding groups of ${dn}: ${error.message}`);
      }
      throw error;
    }
  }
  return groups;
}

const userNotFound = (s: LdapSettings, username: string) =>
  new LdapFailure(
    "user-not-found",
    `User DN not found for: ${username} (searched ${s.userDnSearchBaseDns.join("; ")})`,
  );

/** Signs `username` in with `password`: its DN and groups, or an LdapFailure naming the failed step. */
export async function authenticate(
  s: LdapSettings,
  username: string,
  password: string,
): Promise<DirectoryUser> {
  // An empty password would be an "unauthenticated bind" (RFC 4513 §5.1.2), which many servers accept.
  if (!username || !password) {
    throw new LdapFailure("input", "LDAPUsername and LDAPPassword must not be empty");
  }
  const client = await open(s);
  try {
    let dn: string | null = null;
    if (usesLookupBind(s)) {
      await bind(s, client, s.lookupBindDn, s.lookupBindPassword, "lookup-bind");
      dn = await findUser(s, client, username);
      if (!dn) throw userNotFound(s, username);
      await bind(s, client, dn, password, "user-bind");
      await bind(s, client, s.lookupBindDn, s.lookupBindPassword, "lookup-bind");
    } else {
      if (s.usernameFormats.length === 0) {
        throw new LdapFailure(
          "search-base",
          "set lookup_bind_dn (with the user search settings) or username_format",
        );
      }
      let last: LdapFailure | null = null;
      for (const format of s.usernameFormats) {
        const candidate = fillDn(format, username);
        try {
          await bind(s, client, candidate, password, "user-bind");
          dn = candidate;
          break;
        } catch (error) {
          if (!(error instanceof LdapFailure) || error.step !== "user-bind") throw error;
          last = error;
        }
      }
      if (!dn) throw last!;
    }
    const groups = await findGroups(s, client, username, dn);
    return { dn, key: dnKey(dn), groups };
  } finally {
    await close(client);
  }
}

/**
 * Looks `username` up with the service account (no password): its DN and groups, or null when the directory
 * no longer has it under the search bases (deleted, moved, or left out by the filter as disabled).
 * Lookup-bind mode only.
 */
export async function lookupUser(s: LdapSettings, username: string): Promise<DirectoryUser | null> {
  const client = await open(s);
  try {
    await bind(s, client, s.lookupBindDn, s.lookupBindPassword, "lookup-bind");
    const dn = await findUser(s, client, username);
    if (!dn) return null;
    return { dn, key: dnKey(dn), groups: await findGroups(s, client, username, dn) };
  } finally {
    await close(client);
  }
}

/** The DN as the directory spells it when an entry with it exists, else null (lookup-bind mode). */
export async function lookupDn(s: LdapSettings, dn: string): Promise<string | null> {
  const client = await open(s);
  try {
    await bind(s, client, s.lookupBindDn, s.lookupBindPassword, "lookup-bind");
    try {
      const { searchEntries } = await client.search(dn, {
        scope: "base",
        filter: "(objectClass=*)",
        attributes: ["1.1"],
      });
      return searchEntries[0]?.dn ?? null;
    } catch (error) {
      if (error instanceof ldapts.NoSuchObjectError) return null;
      throw error;
    }
  } finally {
    await close(client);
  }
}

/** Step by step for the diagnostics panel: reach, lookup bind, each search base. */
export async function probe(
  s: LdapSettings,
  step: (name: string, run: () => Promise<string>) => Promise<boolean>,
): Promise<void> {
  let client: Client | null = null;
  try {
    const reached = await step("reach", async () => {
      client = await open(s);
      // An anonymous read of the root DSE makes the connection (and the TLS handshake) happen now.
      try {
        await client.search("", { scope: "base", filter: "(objectClass=*)", attributes: ["1.1"] });
      } catch (error) {
        if (!(error instanceof ldapts.ResultCodeError)) throw unreachable(s, error);
      }
      return `connected to ${describeTransport(s)}`;
    });
    if (!reached || !client) return;
    const c: Client = client;
    if (!usesLookupBind(s)) return;
    const bound = await step("lookup-bind", async () => {
      await bind(s, c, s.lookupBindDn, s.lookupBindPassword, "lookup-bind");
      return `bound as ${s.lookupBindDn}`;
    });
    if (!bound) return;
    for (const base of [...new Set([...s.userDnSearchBaseDns, ...s.groupSearchBaseDns])]) {
      await step("search-base", async () => {
        try {
          await c.search(base, { scope: "base", filter: "(objectClass=*)", attributes: ["1.1"] });
        } catch (error) {
          if (error instanceof ldapts.NoSuchObjectError) {
            throw new LdapFailure("search-base", `Base DN (${base}) does not exist in the directory`);
          }
          throw new LdapFailure("search-base", `Base DN (${base}) cannot be searched: ${reason(error)}`);
        }
        return `${base} exists`;
      });
    }
  } finally {
    if (client) await close(client);
  }
}
