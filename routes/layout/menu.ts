/**
 * The sidebar's groups and entries (spec 1 §2 "Sidebar menu"). An entry shows when the session's pages grant
 * its route and the route is served by this build; Documentation and Logout always show.
 */

export interface MenuEntry {
  label: string;
  route: string;
  /** The page pattern in the session's `pages` that grants it. */
  page: string;
  /** Hidden unless the storage server runs distributed (erasure) mode. */
  distributedOnly?: boolean;
}

export interface MenuGroup {
  title: string;
  /** Collapsible groups start open (Admin, User, Tools). */
  collapsible: boolean;
  entries: MenuEntry[];
}

export const MENU: MenuGroup[] = [
  {
    title: "Common",
    collapsible: false,
    entries: [{ label: "Dashboard", route: "/dashboard", page: "/dashboard" }],
  },
  {
    title: "User",
    collapsible: true,
    entries: [
      { label: "Object Browser", route: "/object-browser", page: "/object-browser" },
      { label: "Service Accounts", route: "/account", page: "/account" },
    ],
  },
  {
    title: "Admin",
    collapsible: true,
    entries: [
      { label: "Buckets", route: "/buckets", page: "/buckets" },
      { label: "Users", route: "/users", page: "/users" },
      { label: "Groups", route: "/groups", page: "/groups" },
      { label: "IAM Policies", route: "/policies", page: "/policies" },
      { label: "Settings", route: "/settings", page: "/settings" },
    ],
  },
  {
    title: "Tools",
    collapsible: true,
    entries: [
      { label: "Logs", route: "/logs", page: "/logs" },
      { label: "Watch", route: "/watch", page: "/watch" },
      { label: "Trace", route: "/trace", page: "/trace" },
      // The original hides Heal unless distributed (api-index §12.22 settles the spec's contradiction).
      { label: "Heal", route: "/heal", page: "/heal", distributedOnly: true },
      { label: "Diagnostic", route: "/health-info", page: "/health-info" },
    ],
  },
  {
    title: "Operator",
    collapsible: false,
    entries: [{ label: "Tenants", route: "/tenants", page: "/tenants" }, {
      label: "Storage",
      route: "/storage",
      page: "/storage",
    }],
  },
  {
    title: "License",
    collapsible: false,
    entries: [{ label: "License", route: "/license", page: "/license" }],
  },
];

/**
 * The Documentation entry (spec 1 §6: operator mode changes the docs link's reference): the console's or the
 * operator's documentation, with `ref=con` or `ref=op` as the original's links carried.
 */
export function documentationUrl(operator: boolean): string {
  return operator
    ? "https://min.io/docs/minio/kubernetes/upstream/?ref=op"
    : "https://min.io/docs/minio/linux/administration/minio-console.html?ref=con";
}

/** Routes this build serves; later areas add theirs as they land. */
export const SERVED_ROUTES = new Set<string>([
  "/dashboard",
  "/metrics",
  "/account",
  "/users",
  "/groups",
  "/policies",
  "/buckets",
  "/tenants",
  "/storage",
  "/license",
  "/settings",
  "/object-browser",
  "/trace",
  "/logs",
  "/watch",
  "/heal",
  "/health-info",
]);

/** Entries the session may see, grouped; empty groups dropped. */
export function visibleMenu(pages: string[], distributed: boolean, served = SERVED_ROUTES): MenuGroup[] {
  const groups = MENU
    .map((group) => ({
      ...group,
      entries: group.entries.filter((e) =>
        pages.includes(e.page) && served.has(e.route) && (!e.distributedOnly || distributed)
      ),
    }))
    .filter((group) => group.entries.length > 0);
  // License sits inside the Operator group when the tenants page is allowed (spec 1 "Sidebar menu").
  const operator = groups.find((g) => g.title === "Operator");
  const license = groups.find((g) => g.title === "License");
  if (operator && license && pages.includes("/tenants")) {
    operator.entries.push(...license.entries);
    return groups.filter((g) => g !== license);
  }
  return groups;
}

/** Where "/" and unknown routes go: the first served route the session may see. */
export function firstAllowedRoute(
  pages: string[],
  distributed: boolean,
  served = SERVED_ROUTES,
): string | null {
  for (const group of visibleMenu(pages, distributed, served)) {
    if (group.entries[0]) return group.entries[0].route;
  }
  return null;
}
