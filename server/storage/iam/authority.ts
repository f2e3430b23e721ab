/**
 * Turns the identity store into answers for the S3 front: which key is which credential, and whether a
 * credential may do an action (user + group policies; service-account and session policies intersected with
 * the parent's; root allowed unless a Deny in a restricting policy says otherwise; minio-protocol §6.3).
 */
import { type Decision, evaluate, evaluateIntersection } from "../../lib/policy/evaluate.ts";
import { type NamedPolicy, normalizePolicy } from "../../lib/policy/types.ts";
import type { ConditionValues, Credential, IdentityAuthority } from "../core/contracts.ts";
import type { IamStore } from "./store.ts";
import { ldapPolicyNames } from "./ldap_policies.ts";

export interface RootCredentials {
  accessKey: string;
  secretKey: string;
}

export class Authority implements IdentityAuthority {
  constructor(
    private readonly iam: IamStore,
    readonly root: RootCredentials,
    private readonly now: () => number = Date.now,
  ) {}

  isRoot(user: string): boolean {
    return user === this.root.accessKey;
  }

  /** Whether a long-term user (or root) is enabled. */
  userEnabled(user: string): boolean {
    if (this.isRoot(user)) return true;
    return this.iam.users.get(user)?.status === "enabled";
  }

  lookupCredential(accessKey: string): Credential | undefined {
    if (accessKey === this.root.accessKey) {
      return {
        accessKey,
        secretKey: this.root.secretKey,
        kind: "root",
        parentUser: accessKey,
        enabled: true,
      };
    }
    const user = this.iam.users.get(accessKey);
    if (user) {
      return {
        accessKey,
        secretKey: user.secretKey,
        kind: "user",
        parentUser: accessKey,
        enabled: user.status === "enabled",
      };
    }
    const sa = this.iam.serviceAccounts.get(accessKey);
    if (sa) {
      const expires = sa.expiration && !sa.expiration.startsWith("1970")
        ? Date.parse(sa.expiration)
        : undefined;
      return {
        accessKey,
        secretKey: sa.secretKey,
        kind: "serviceAccount",
        parentUser: sa.parentUser,
        enabled: sa.status === "on" && this.userEnabled(sa.parentUser),
        expiresAt: expires,
        generatedSecret: sa.generatedSecret === true,
      };
    }
    const session = this.iam.sessions.get(accessKey);
    if (session) {
      return {
        accessKey,
        secretKey: session.secretKey,
        kind: "sts",
        parentUser: session.parentUser,
        sessionToken: session.sessionToken,
        expiresAt: session.expiresAt,
        // A federated session has no long-term user behind it; its provider vouched for it until expiry.
        // A directory session's account is checked against the directory (ldap_sessions.ts), not here.
        enabled: session.policies || session.ldap ? true : this.userEnabled(session.parentUser),
        generatedSecret: true,
      };
    }
    return undefined;
  }

  /** The named policies a long-term user holds directly and through its enabled groups. */
  policiesOf(user: string): NamedPolicy[] {
    const names = new Set(this.iam.users.get(user)?.policies ?? []);
    for (const groupName of this.iam.groupsOf(user)) {
      const group = this.iam.groups.get(groupName);
      if (group?.status === "enabled") group.policies.forEach((p) => names.add(p));
    }
    return this.#named([...names]);
  }

  /** A group's own policies. */
  groupPolicies(group: string): NamedPolicy[] {
    return this.#named(this.iam.groups.get(group)?.policies ?? []);
  }

  #named(names: string[]): NamedPolicy[] {
    const out: NamedPolicy[] = [];
    for (const name of names) {
      const record = this.iam.policies.get(name);
      if (record) out.push({ name, policy: normalizePolicy(record.document) });
    }
    return out;
  }

  /** The restricting policy attached to a derived credential (service-account inline or STS session policy). */
  restrictionOf(cred: Credential): NamedPolicy | null {
    if (cred.kind === "serviceAccount") {
      const policy = this.iam.serviceAccounts.get(cred.accessKey)?.policy;
      return policy ? { name: "inline", policy: normalizePolicy(policy) } : null;
    }
    if (cred.kind === "sts") {
      const policy = this.iam.sessions.get(cred.accessKey)?.sessionPolicy;
      return policy ? { name: "session", policy: normalizePolicy(policy) } : null;
    }
    return null;
  }

  /** The policies of a federated (web identity) session, which stand in for a parent user's; null otherwise. */
  federatedPolicies(cred: Credential): NamedPolicy[] | null {
    const session = cred.kind === "sts" ? this.iam.sessions.get(cred.accessKey) : undefined;
    if (session?.ldap) return this.#named(ldapPolicyNames(this.iam, session.ldap));
    return session?.policies ? this.#named(session.policies) : null;
  }

  /** Full decision with the deciding statement (used by admin account info and the console's access check). */
  decide(
    cred: Credential,
    action: string,
    bucket: string,
    key: string,
    conditions: ConditionValues = {},
  ): Decision {
    const request = { action, bucket, key, conditions };
    const restriction = this.restrictionOf(cred);
    const federated = this.federatedPolicies(cred);
    if (federated) {
      return restriction
        ? evaluateIntersection([federated, [restriction]], request)
        : evaluate(federated, request);
    }
    if (this.isRoot(cred.parentUser)) {
      // Root may do everything, so a restricted root credential may do exactly what its restriction allows.
      return restriction ? evaluate([restriction], request) : evaluate([], { ...request, isOwner: true });
    }
    const parent = this.policiesOf(cred.parentUser);
    return restriction ? evaluateIntersection([parent, [restriction]], request) : evaluate(parent, request);
  }

  isAllowed(
    cred: Credential,
    action: string,
    bucket: string,
    key: string,
    conditions: ConditionValues,
  ): boolean {
    if (!cred.enabled) return false;
    if (cred.expiresAt !== undefined && cred.expiresAt <= this.now()) return false;
    return this.decide(cred, action, bucket, key, conditions).allowed;
  }
}
