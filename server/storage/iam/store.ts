/**
 * The embedded server's identity store: users, groups, canned policies, service accounts and STS sessions,
 * indexed in memory for fast lookups and persisted one durable file per entity under <data>/.deck/iam/
 * (names are hashed into file names, so a user called "a/../b" is just data).
 */
import { createHash } from "node:crypto";
import { CANNED_POLICIES } from "../../lib/policy/actions.ts";
import { removeDurable, writeFileDurable } from "../fs/durable.ts";

export type Status = "enabled" | "disabled";

export interface UserRecord {
  accessKey: string;
  secretKey: string;
  status: Status;
  policies: string[];
  updatedAt: string;
}

export interface GroupRecord {
  name: string;
  members: string[];
  status: Status;
  policies: string[];
  updatedAt: string;
}

export interface PolicyRecord {
  name: string;
  document: unknown;
  createDate: string;
  updateDate: string;
}

export interface ServiceAccountRecord {
  accessKey: string;
  secretKey: string;
  parentUser: string;
  /** Inline policy document; absent → the parent's policy applies ("implied"). */
  policy?: unknown;
  name?: string;
  description?: string;
  expiration?: string;
  status: "on" | "off";
  /** The server generated the secret (none was given at creation). */
  generatedSecret?: boolean;
}

export interface StsRecord {
  accessKey: string;
  secretKey: string;
  sessionToken: string;
  parentUser: string;
  expiresAt: number;
  sessionPolicy?: unknown;
  /**
   * Policy names of a federated session (AssumeRoleWithWebIdentity): its permissions come from these, not
   * from a long-term user's, and `parentUser` is the token's subject.
   */
  policies?: string[];
  /**
   * A directory session (AssumeRoleWithLDAPIdentity): its permissions are the policies mapped to the user's
   * DN and its groups' DNs, read at each request, so an attach or detach takes effect at once.
   */
  ldap?: LdapIdentity;
  /** The TokenRevokeType the credentials were issued with (MinIO's claim), so revoke-tokens can pick them. */
  revokeType?: string;
}

/** Who a directory session is: the typed name, the user's DN and its groups' DNs as the directory spells them. */
export interface LdapIdentity {
  username: string;
  dn: string;
  groups: string[];
}

/** Policies mapped to a directory user or group by DN (MinIO's policy DB entries for LDAP). */
export interface LdapMappingRecord {
  /** The DN as the directory spells it (or as given, when the directory could not be asked). */
  dn: string;
  isGroup: boolean;
  policies: string[];
  updatedAt: string;
}

type Kind = "users" | "groups" | "policies" | "service-accounts" | "sts" | "ldap-policies";

/** The key a mapping is kept under: user or group, and the DN's normal form (server/lib/ldap/names.ts). */
export const ldapMappingKey = (isGroup: boolean, dnKey: string) => `${isGroup ? "group" : "user"}:${dnKey}`;

const fileName = (id: string) => createHash("sha256").update(id).digest("hex") + ".json";

export class IamStore {
  readonly users = new Map<string, UserRecord>();
  readonly groups = new Map<string, GroupRecord>();
  readonly policies = new Map<string, PolicyRecord>();
  readonly serviceAccounts = new Map<string, ServiceAccountRecord>();
  readonly sessions = new Map<string, StsRecord>();
  /** ldapMappingKey → the policies mapped to that directory user or group. */
  readonly ldapMappings = new Map<string, LdapMappingRecord>();
  /** user → groups it belongs to (derived from group members). */
  readonly memberships = new Map<string, Set<string>>();

  private constructor(private readonly dir: string, private readonly tmpDir: string) {}

  static async open(dataDir: string, now = Date.now()): Promise<IamStore> {
    const dir = `${dataDir}/.deck/iam`;
    const store = new IamStore(dir, `${dataDir}/.deck/tmp`);
    await Deno.mkdir(store.tmpDir, { recursive: true, mode: 0o700 });
    const load = async <T>(kind: Kind, into: (value: T) => void) => {
      await Deno.mkdir(`${dir}/${kind}`, { recursive: true, mode: 0o700 });
      for await (const entry of Deno.readDir(`${dir}/${kind}`)) {
        if (!entry.name.endsWith(".json")) continue;
        try {
          into(JSON.parse(await Deno.readTextFile(`${dir}/${kind}/${entry.name}`)));
        } catch { /* a torn write cannot happen (rename), but never let one bad file stop the server */ }
      }
    };
    await load<UserRecord>("users", (u) => store.users.set(u.accessKey, u));
    await load<GroupRecord>("groups", (g) => store.groups.set(g.name, g));
    await load<PolicyRecord>("policies", (p) => store.policies.set(p.name, p));
    await load<ServiceAccountRecord>("service-accounts", (s) => store.serviceAccounts.set(s.accessKey, s));
    await load<StsRecord>("sts", (s) => store.sessions.set(s.accessKey, s));
    await load<LdapMappingRecord & { key: string }>("ldap-policies", (m) => store.ldapMappings.set(m.key, m));
    for (const [accessKey, session] of store.sessions) {
      if (session.expiresAt <= now) {
        store.sessions.delete(accessKey);
        await removeDurable(`${dir}/sts/${fileName(accessKey)}`);
      }
    }
    for (const group of store.groups.values()) store.#index(group);
    const stamp = new Date(now).toISOString();
    for (const [name, document] of Object.entries(CANNED_POLICIES)) {
      if (!store.policies.has(name)) {
        await store.putPolicy({ name, document, createDate: stamp, updateDate: stamp });
      }
    }
    return store;
  }

  #index(group: GroupRecord): void {
    for (const member of group.members) {
      const set = this.memberships.get(member) ?? new Set();
      set.add(group.name);
      this.memberships.set(member, set);
    }
  }

  #unindex(group: GroupRecord): void {
    for (const member of group.members) this.memberships.get(member)?.delete(group.name);
  }

  async #write(kind: Kind, id: string, value: unknown): Promise<void> {
    await writeFileDurable(this.tmpDir, `${this.dir}/${kind}/${fileName(id)}`, JSON.stringify(value));
  }

  async #remove(kind: Kind, id: string): Promise<void> {
    await removeDurable(`${this.dir}/${kind}/${fileName(id)}`);
  }

  groupsOf(user: string): string[] {
    return [...(this.memberships.get(user) ?? [])].sort();
  }

  async putUser(user: UserRecord): Promise<void> {
    await this.#write("users", user.accessKey, user);
    this.users.set(user.accessKey, user);
  }

  /** Removes a user, its group memberships, service accounts and sessions. */
  async removeUser(accessKey: string): Promise<void> {
    for (const name of this.groupsOf(accessKey)) {
      const group = this.groups.get(name)!;
      await this.putGroup({ ...group, members: group.members.filter((m) => m !== accessKey) });
    }
    for (const sa of [...this.serviceAccounts.values()].filter((s) => s.parentUser === accessKey)) {
      await this.removeServiceAccount(sa.accessKey);
    }
    for (const st of [...this.sessions.values()].filter((s) => s.parentUser === accessKey)) {
      await this.removeSession(st.accessKey);
    }
    await this.#remove("users", accessKey);
    this.users.delete(accessKey);
    this.memberships.delete(accessKey);
  }

  async putGroup(group: GroupRecord): Promise<void> {
    await this.#write("groups", group.name, group);
    const previous = this.groups.get(group.name);
    if (previous) this.#unindex(previous);
    this.groups.set(group.name, group);
    this.#index(group);
  }

  async removeGroup(name: string): Promise<void> {
    const group = this.groups.get(name);
    await this.#remove("groups", name);
    if (group) this.#unindex(group);
    this.groups.delete(name);
  }

  async putPolicy(policy: PolicyRecord): Promise<void> {
    await this.#write("policies", policy.name, policy);
    this.policies.set(policy.name, policy);
  }

  async removePolicy(name: string): Promise<void> {
    await this.#remove("policies", name);
    this.policies.delete(name);
  }

  async putServiceAccount(account: ServiceAccountRecord): Promise<void> {
    await this.#write("service-accounts", account.accessKey, account);
    this.serviceAccounts.set(account.accessKey, account);
  }

  async removeServiceAccount(accessKey: string): Promise<void> {
    await this.#remove("service-accounts", accessKey);
    this.serviceAccounts.delete(accessKey);
  }

  async putSession(session: StsRecord): Promise<void> {
    await this.#write("sts", session.accessKey, session);
    this.sessions.set(session.accessKey, session);
  }

  async removeSession(accessKey: string): Promise<void> {
    await this.#remove("sts", accessKey);
    this.sessions.delete(accessKey);
  }

  /** Maps policies to a directory DN (`key` from ldapMappingKey); an empty list removes the mapping. */
  async putLdapMapping(key: string, record: LdapMappingRecord): Promise<void> {
    if (record.policies.length === 0) {
      await this.#remove("ldap-policies", key);
      this.ldapMappings.delete(key);
      return;
    }
    await this.#write("ldap-policies", key, { key, ...record });
    this.ldapMappings.set(key, record);
  }

  /**
   * Revokes the STS credentials derived from `parentUser`: all of them, or only those issued with
   * `revokeType`. Later requests signed with them fail as unknown keys (minio-protocol-2 §13.1).
   */
  async revokeSessions(parentUser: string, revokeType?: string): Promise<number> {
    const matching = [...this.sessions.values()].filter((s) =>
      s.parentUser === parentUser && (revokeType === undefined || s.revokeType === revokeType)
    );
    for (const session of matching) await this.removeSession(session.accessKey);
    return matching.length;
  }

  /** Drops expired sessions (called periodically). */
  async pruneSessions(now: number): Promise<void> {
    for (const session of [...this.sessions.values()]) {
      if (session.expiresAt <= now) await this.removeSession(session.accessKey);
    }
  }
}

const KEY_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/** A 20-character access key from [0-9A-Z] and a 40-character secret (minio-protocol §2.2). */
export function generateCredentials(): { accessKey: string; secretKey: string } {
  const bytes = crypto.getRandomValues(new Uint8Array(20));
  const accessKey = Array.from(bytes, (b) => KEY_ALPHABET[b % 36]).join("");
  const secretKey = crypto.getRandomValues(new Uint8Array(30)).toBase64().replace(/\//g, "+").slice(0, 40);
  return { accessKey, secretKey };
}
