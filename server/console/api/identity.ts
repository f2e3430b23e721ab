/**
 * Identity API (Settings › Identity).
 *
 *   POST /identity/diagnostics   testUser? → the directory's and the OpenID provider's checks, step by step
 *   GET  /identity/ldap/policies enabled, users and groups: the policies mapped to directory DNs
 *   PUT  /identity/ldap/policies kind, entity (DN, or a user's login name), policies → 204
 *
 * Administrators only: the checks read the stored identity settings, which the storage server gives only to
 * a session allowed to read its configuration (anyone else gets its 403).
 */
import { Hono } from "hono";
import { IdentityDiagnosticsInput, SetDirectoryPoliciesInput } from "../../lib/contract/identity.ts";
import { directoryMappings, setDirectoryPolicies } from "../services/ldap_policies.ts";
import type { AppDeps } from "../deps.ts";
import type { AppEnv } from "../session/env.ts";
import { ldapDiagnostics } from "../services/ldap_diagnostics.ts";
import { openIdDiagnostics } from "../services/openid_diagnostics.ts";
import { clientFor } from "../session/clients.ts";
import { requireSession } from "../session/middleware.ts";
import { readJson } from "./input.ts";

export function identityApi(deps: AppDeps) {
  return new Hono<AppEnv>()
    .post("/identity/diagnostics", async (c) => {
      const client = clientFor(deps, requireSession(c));
      const { testUser } = await readJson(c, IdentityDiagnosticsInput);
      const [ldap, openid] = await Promise.all([
        // The console's fetch carries the certificates it trusts (server/lib/http/trusted_cas.ts), if any.
        ldapDiagnostics(client, testUser, (deps.fetch as { caCerts?: readonly string[] }).caCerts ?? []),
        openIdDiagnostics(client, deps.config, deps.fetch),
      ]);
      return c.json({ ldap, openid });
    })
    .get(
      "/identity/ldap/policies",
      async (c) => c.json(await directoryMappings(clientFor(deps, requireSession(c)))),
    )
    .put("/identity/ldap/policies", async (c) => {
      const client = clientFor(deps, requireSession(c));
      await setDirectoryPolicies(client, await readJson(c, SetDirectoryPoliciesInput));
      return c.body(null, 204);
    });
}
