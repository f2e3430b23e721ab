/**
 * Bearer-token authentication and RBAC-style authorisation: each token names a user whose rules grant verbs
 * on resources (optionally only in some namespaces), like Roles and ClusterRoles bound to a service account.
 * Refusals use the API server's wording.
 */

export interface Rule {
  verbs: string[];
  /** API groups ("" = core), or ["*"]. */
  apiGroups: string[];
  /** Plural resource names, "plural/subresource", or ["*"]. */
  resources: string[];
  /** Namespaces the rule applies in; undefined = everywhere (a ClusterRole binding). */
  namespaces?: string[];
}

export interface StandinUser {
  username: string;
  uid: string;
  groups: string[];
  rules: Rule[];
}

export interface AccessRequest {
  verb: string;
  group: string;
  resource: string;
  subresource?: string;
  /** undefined for cluster-scoped requests and all-namespace lists. */
  namespace?: string;
  name?: string;
}

const matches = (list: string[], value: string) => list.includes("*") || list.includes(value);

export function isAllowed(user: StandinUser, request: AccessRequest): boolean {
  const resource = request.subresource ? `${request.resource}/${request.subresource}` : request.resource;
  return user.rules.some((rule) =>
    matches(rule.verbs, request.verb) &&
    matches(rule.apiGroups, request.group) &&
    (matches(rule.resources, resource) ||
      (request.subresource !== undefined && rule.resources.includes(`${request.resource}/*`))) &&
    (rule.namespaces === undefined ||
      (request.namespace !== undefined && rule.namespaces.includes(request.namespace)))
  );
}

/** The Forbidden message of a real API server, e.g. `pods is forbidden: User "x" cannot list resource "pods" in API group "" in the namespace "z"`. */
export function forbiddenMessage(user: StandinUser, request: AccessRequest): string {
  const resource = request.subresource ? `${request.resource}/${request.subresource}` : request.resource;
  const subject = request.name ? `${resource} "${request.name}"` : resource;
  const where = request.namespace ? `in the namespace "${request.namespace}"` : "at the cluster scope";
  return `${subject} is forbidden: User "${user.username}" cannot ${request.verb} resource "${resource}" in API group "${request.group}" ${where}`;
}

/** Full rights, as the operator's cluster-admin-like service account. */
export const ALL_RULES: Rule[] = [{ verbs: ["*"], apiGroups: ["*"], resources: ["*"] }];

/** Makes a random token that looks like a service-account JWT (three base64url parts). */
export function makeToken(username: string): string {
  const part = (value: unknown) =>
    new TextEncoder().encode(JSON.stringify(value)).toBase64({ alphabet: "base64url", omitPadding: true });
  const signature = crypto.getRandomValues(new Uint8Array(32)).toBase64({
    alphabet: "base64url",
    omitPadding: true,
  });
  return `${part({ alg: "RS256", kid: "standin" })}.${
    part({ iss: "kubernetes/serviceaccount", sub: username })
  }.${signature}`;
}
