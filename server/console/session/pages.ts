/**
 * Which console routes a session may see, computed from the Allow actions of the account's current policy
 * (server/console/session/live_access.ts; the original read it once, at sign-in) with the original console's rules
 * (api-index §13): a route is granted when the actions contain every string of its wildcard list or every
 * string of its specific list. Matching is literal set membership; only the exact strings `admin:*` and
 * `s3:*` act as wildcards. The page list shapes the UI only: the storage server enforces IAM on every call.
 */

interface PageRule {
  routes: string[];
  wildcard: string[];
  specific: string[];
}

const ADMIN = ["admin:*"];
const S3 = ["s3:*"];

/** Console-mode table of api-index §13.4, in sidebar order. */
const CONSOLE_PAGE_RULES: PageRule[] = [
  { routes: ["/dashboard", "/metrics"], wildcard: ADMIN, specific: ["admin:ServerInfo"] },
  {
    routes: ["/object-browser", "/object-browser/:bucket", "/object-browser/:bucket/*"],
    wildcard: [],
    specific: [],
  },
  { routes: ["/account", "/account/change-password"], wildcard: [], specific: [] },
  {
    routes: ["/buckets", "/buckets/*"],
    wildcard: S3,
    specific: [
      "s3:ListMultipartUploadParts",
      "s3:ListBucketMultipartUploads",
      "s3:ListBucket",
      "s3:HeadBucket",
      "s3:GetObject",
      "s3:GetBucketLocation",
      "s3:AbortMultipartUpload",
      "s3:CreateBucket",
      "s3:PutObject",
      "s3:DeleteObject",
      "s3:DeleteBucket",
      "s3:PutBucketPolicy",
      "s3:DeleteBucketPolicy",
      "s3:GetBucketPolicy",
    ],
  },
  {
    routes: ["/users", "/users/:userName+"],
    wildcard: ADMIN,
    specific: [
      "admin:ListUsers",
      "admin:CreateUser",
      "admin:DeleteUser",
      "admin:GetUser",
      "admin:EnableUser",
      "admin:DisableUser",
    ],
  },
  {
    routes: ["/groups"],
    wildcard: ADMIN,
    specific: ["admin:ListGroups", "admin:AddUserToGroup", "admin:EnableGroup", "admin:DisableGroup"],
  },
  {
    routes: ["/policies", "/policies/:policyName"],
    wildcard: ADMIN,
    specific: [
      "admin:GetPolicy",
      "admin:DeletePolicy",
      "admin:CreatePolicy",
      "admin:AttachUserOrGroupPolicy",
      "admin:ListUserPolicies",
    ],
  },
  // The webhook views edit logger/audit configuration: granted with Settings. The original never granted them
  // (api-index §12.21), but the spec lists them as routes (S1 route list, S2 Webhook configuration view).
  {
    routes: ["/settings", "/webhook/logger", "/webhook/audit"],
    wildcard: ADMIN,
    specific: ["admin:ConfigUpdate"],
  },
  { routes: ["/logs"], wildcard: ADMIN, specific: ["admin:ConsoleLog"] },
  { routes: ["/watch"], wildcard: ADMIN, specific: ["s3:ListenBucketNotification"] },
  { routes: ["/trace"], wildcard: ADMIN, specific: ["admin:ServerTrace"] },
  { routes: ["/heal"], wildcard: ADMIN, specific: ["admin:Heal"] },
  { routes: ["/health-info"], wildcard: ADMIN, specific: ["admin:OBDInfo"] },
  { routes: ["/profiling"], wildcard: ADMIN, specific: ["admin:Profiling"] },
  { routes: ["/remote-buckets", "/replication"], wildcard: ADMIN, specific: ["admin:ConfigUpdate"] },
  { routes: ["/license"], wildcard: [], specific: [] },
];

/** Operator mode's pages (api-index §13, operator-k8s.md §2.6): Kubernetes RBAC, not the page list, limits what each person may do. */
export const OPERATOR_PAGES = [
  "/tenants",
  "/tenants/add",
  "/namespaces/:tenantNamespace/tenants/:tenantName",
  "/namespaces/:tenantNamespace/tenants/:tenantName/hop",
  "/namespaces/:tenantNamespace/tenants/:tenantName/summary",
  "/namespaces/:tenantNamespace/tenants/:tenantName/metrics",
  "/namespaces/:tenantNamespace/tenants/:tenantName/pods",
  "/namespaces/:tenantNamespace/tenants/:tenantName/pools",
  "/namespaces/:tenantNamespace/tenants/:tenantName/license",
  "/namespaces/:tenantNamespace/tenants/:tenantName/security",
  "/namespaces/:tenantNamespace/tenants/:tenantName/pods/:podName",
  "/storage",
  "/storage/volumes",
  "/storage/drives",
  "/license",
];

/** Route patterns granted to a session with these Allow actions, in sidebar order. */
export function allowedPages(actions: Iterable<string>, options: { sso?: boolean } = {}): string[] {
  const have = new Set(actions);
  const grants = (list: string[]) => list.length > 0 && list.every((action) => have.has(action));
  const pages: string[] = [];
  for (const rule of CONSOLE_PAGE_RULES) {
    const always = rule.wildcard.length === 0 && rule.specific.length === 0;
    if (always || grants(rule.wildcard) || grants(rule.specific)) pages.push(...rule.routes);
  }
  // An SSO session has no long-term secret to change, so the change-password page would always fail.
  return options.sso ? pages.filter((page) => page !== "/account/change-password") : pages;
}

/** Whether a concrete path (e.g. /users/a/b) is covered by one of the granted patterns. */
export function isPathAllowed(pages: string[], path: string): boolean {
  return pages.some((pattern) => matchesPattern(pattern, path));
}

/** Route patterns compiled once (a page checks every granted pattern: dozens of regular expressions). */
const compiled = new Map<string, RegExp>();

function matchesPattern(pattern: string, path: string): boolean {
  const clean = path.length > 1 ? path.replace(/\/+$/, "") : path;
  if (pattern === clean) return true;
  let regex = compiled.get(pattern);
  if (!regex) compiled.set(pattern, regex = patternRegex(pattern));
  return regex.test(clean);
}

function patternRegex(pattern: string): RegExp {
  const source = "^" + pattern
    .split("/")
    .map((segment) => {
      if (segment === "*") return ".*";
      if (segment.endsWith("+") && segment.startsWith(":")) return "[^/].*";
      if (segment.startsWith(":")) return "[^/]+";
      return segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    })
    .join("/") +
    "$";
  return new RegExp(source);
}

/**
 * Collects the Allow actions of a policy document (the account's effective policy). Deny statements,
 * resources and conditions are ignored here on purpose: this only shapes the menu (api-index §13.1).
 */
export function allowActionsOf(policy: unknown): string[] {
  const out = new Set<string>();
  const statements = (policy as { Statement?: unknown })?.Statement;
  const list = Array.isArray(statements) ? statements : statements ? [statements] : [];
  for (const statement of list) {
    if ((statement as { Effect?: unknown })?.Effect !== "Allow") continue;
    const action = (statement as { Action?: unknown }).Action;
    for (const a of Array.isArray(action) ? action : [action]) if (typeof a === "string") out.add(a);
  }
  return [...out];
}
