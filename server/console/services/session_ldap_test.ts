import assert from "node:assert/strict";
import { ldapRefusal, ldapRefusalStep } from "./session_ldap.ts";

Deno.test("a directory refusal is read from MinIO's messages as from the embedded storage's", () => {
  const cases: [string, ReturnType<typeof ldapRefusalStep>][] = [
    [
      'LDAP server error: LDAP Result Code 200 "Network Error": dial tcp 10.0.0.5:636: connect: connection refused',
      "reach",
    ],
    [
      "LDAP server error: the directory at ldap.example.com:636 (LDAPS) cannot be reached: ECONNREFUSED",
      "reach",
    ],
    [
      'LDAP server error: LDAP Lookup Bind user invalid credentials error: LDAP Result Code 49 "Invalid Credentials"',
      "lookup-bind",
    ],
    ["LDAP server error: User DN not found for: jdoe", "credentials"],
    [
      'LDAP server error: LDAP auth failed for DN uid=jdoe,dc=x: LDAP Result Code 49 "Invalid Credentials": ',
      "credentials",
    ],
    ["LDAP server error: Base DN (ou=people,dc=x) for user DN search does not exist", "search-base"],
    [
      "expecting a policy to be set for user `uid=jdoe,dc=x` or one of their groups: `` - rejecting this request",
      "no-policy",
    ],
    [
      "AssumeRoleWithLDAPIdentity is not configured on this server: set up identity_openid or identity_ldap first",
      "not-configured",
    ],
  ];
  for (const [message, step] of cases) assert.equal(ldapRefusalStep(message), step, message);
});

Deno.test("a wrong name and a wrong password get the same answer; the storage's words stay out of it", () => {
  const unknown = ldapRefusal(
    "LDAP server error: User DN not found for: jdoe (searched ou=people,dc=x)",
    "auto",
  );
  const wrong = ldapRefusal(
    "LDAP server error: LDAP auth failed for DN uid=jdoe,dc=x: Invalid Credentials",
    "auto",
  );
  assert.deepEqual([unknown?.status, unknown?.message, unknown?.detail], [
    wrong?.status,
    wrong?.message,
    wrong?.detail,
  ]);
  assert.equal(ldapRefusal("AssumeRoleWithLDAPIdentity is not configured on this server", "auto"), null);
  assert.equal(ldapRefusal("AssumeRoleWithLDAPIdentity is not configured on this server", "on")?.status, 503);
});
