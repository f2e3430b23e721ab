/**
 * AssumeRoleWithLDAPIdentity (minio-protocol §2.4): a directory user's name and password buy temporary
 * credentials whose permissions are the policies mapped to the user's DN and its groups' DNs. As MinIO: every
 * directory failure is InvalidParameterValue "LDAP server error: …", and a user with no mapped policy is
 * refused with "expecting a policy to be set for user …". The message names the failed step in words an
 * administrator can act on; the console decides what of it an anonymous visitor may see.
 */
import { authenticate, LdapFailure } from "../lib/ldap/directory.ts";
import type { LdapSettings } from "../lib/ldap/settings.ts";
import type { XmlObject } from "../lib/s3/xml.ts";
import type { VerifiedRequest } from "./core/contracts.ts";
import { StoreError } from "./core/errors.ts";
import { ldapPolicyNames } from "./iam/ldap_policies.ts";
import type { IamStore, StsRecord } from "./iam/store.ts";

/** What the LDAP action borrows from the STS handler (sts.ts), so both issue sessions one way. */
export interface StsTools {
  durationOf(text: string | null, fallback: () => number): number;
  sessionPolicyOf(form: URLSearchParams): unknown;
  issueSession(session: Omit<StsRecord, "accessKey" | "secretKey" | "sessionToken">): Promise<XmlObject>;
  xmlAnswer(root: string, body: XmlObject): Response;
}

export async function assumeRoleWithLdapIdentity(
  iam: IamStore,
  settings: LdapSettings,
  form: URLSearchParams,
  req: VerifiedRequest,
  nowMs: number,
  tools: StsTools,
): Promise<Response> {
  const username = form.get("LDAPUsername") ?? "";
  const password = form.get("LDAPPassword") ?? "";
  if (!username || !password) {
    throw new StoreError("InvalidParameterValue", "LDAPUsername and LDAPPassword cannot be empty", 400);
  }
  // Checked before the directory is asked, so a malformed request costs it nothing.
  const sessionPolicy = tools.sessionPolicyOf(form);
  const seconds = tools.durationOf(form.get("DurationSeconds") || null, () => settings.stsExpirySeconds);
  let user;
  try {
    user = await authenticate(settings, username, password);
  } catch (error) {
    if (error instanceof LdapFailure) {
      throw new StoreError("InvalidParameterValue", `LDAP server error: ${error.message}`, 400);
    }
    throw error;
  }
  const known = ldapPolicyNames(iam, user).filter((name) => iam.policies.has(name));
  if (known.length === 0) {
    throw new StoreError(
      "InvalidParameterValue",
      `expecting a policy to be set for user \`${user.dn}\` or one of their groups: \`${
        user.groups.join("`,`")
      }\` - rejecting this request`,
      400,
    );
  }
  const credentials = await tools.issueSession({
    parentUser: user.dn,
    expiresAt: Math.floor(nowMs / 1000 + seconds) * 1000,
    sessionPolicy,
    revokeType: form.get("TokenRevokeType") || undefined,
    ldap: { username, dn: user.dn, groups: user.groups },
  });
  return tools.xmlAnswer("AssumeRoleWithLDAPIdentityResponse", {
    AssumeRoleWithLDAPIdentityResult: { Credentials: credentials },
    ResponseMetadata: { RequestId: req.requestId },
  });
}
