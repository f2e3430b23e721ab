/** Wire types of Settings › Identity: the diagnostics of the configured directory and OpenID provider. */
import * as s from "./schema.ts";

/** POST /api/v1/identity/diagnostics: optionally a directory user to look up (no password: never bound). */
export const IdentityDiagnosticsInput = s.object({
  testUser: s.optional(s.string({ max: 256 }), ""),
});
export type IdentityDiagnosticsInput = s.Infer<typeof IdentityDiagnosticsInput>;

export interface DiagnosticStep {
  /** What was checked, e.g. "Directory reachable". */
  name: string;
  passed: boolean;
  /** What was found, or why the step failed, in words an administrator can act on. */
  message: string;
}

export interface DiagnosticsSection {
  /** Whether this kind of identity provider is configured at all (no steps when it is not). */
  configured: boolean;
  steps: DiagnosticStep[];
}

export interface IdentityDiagnostics {
  ldap: DiagnosticsSection;
  openid: DiagnosticsSection;
}

/** Policies mapped to one directory user or group, by DN. */
export interface DirectoryMapping {
  dn: string;
  policies: string[];
}

/** GET /api/v1/identity/ldap/policies: whether the storage uses a directory, and its DN → policy mappings. */
export interface DirectoryMappings {
  enabled: boolean;
  users: DirectoryMapping[];
  groups: DirectoryMapping[];
}

/** PUT /api/v1/identity/ldap/policies: the policies a directory user (DN or login name) or group (DN) holds. */
export const SetDirectoryPoliciesInput = s.object({
  kind: s.literal("user", "group"),
  entity: s.string({ min: 1, max: 2048 }),
  policies: s.array(s.string({ min: 1, max: 256 }), { max: 100 }),
});
export type SetDirectoryPoliciesInput = s.Infer<typeof SetDirectoryPoliciesInput>;
