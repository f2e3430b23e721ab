/**
 * The sidebar's groups and entries (spec 1 §2 "Sidebar menu"). An entry shows when the session's pages grant
 * its route and the route is served by this build; Documentation and Logout always show.
 * Labels are catalogue keys, shown in the request's language by `visibleMenu`.
 */
import { type MessageKey, t } from "../../islands/lib/i18n/t.ts";

export interface MenuEntry {
  label: MessageKey;
  route: string;
  /** The page pattern in the session's `pages` that grants it. */
  page: string;
  /** Hidden unless the storage server runs distributed (erasure) mode. */
  distributedOnly?: boolean;
}

export interface MenuGroup {
  title: MessageKey;
  /** Collapsible groups start open (Admin, User, Tools). */
  collapsible: boolean;
  entries: MenuEntry[];
}

export const MENU: MenuGroup[] = [
  {
    title: "common.menu.groupCommon",
    collapsible: false,
    entries: [{ label: "common.menu.dashboard", route: "/dashboard", page: "/dashboard" }],
  },
  {
    title: "common.menu.groupUser",
    collapsible: true,
    entries: [
      { label: "common.menu.objectBrowser", route: "/object-browser", page: "/object-browser" },
      { label: "common.menu.serviceAccounts", route: "/account", page: "/account" },
    ],
  },
  {
    title: "common.menu.groupAdmin",
    collapsible: true,
    entries: [
      { label: "common.menu.buckets", route: "/buckets", page: "/buckets" },
      { label: "common.menu.users", route: "/users", page: "/users" },
      { label: "common.menu.groups", route: "/groups", page: "/groups" },
      { label: "common.menu.policies", route: "/policies", page: "/policies" },
      { label: "common.menu.settings", route: "/settings", page: "/settings" },
    ],
  },
  {
    title: "common.menu.groupTools",
    collapsible: true,
    entries: [
      { label: "common.menu.logs", route: "/logs", page: "/logs" },
      { label: "common.menu.watch", route: "/watch", page: "/watch" },
      { label: "common.menu.trace", route: "/trace", page: "/trace" },
      // The original hides Heal unless distributed (api-index §12.22 settles the spec's contradiction).
      { label: "common.menu.heal", route: "/heal", page: "/heal", distributedOnly: true },
      { label: "common.menu.diagnostic", route: "/health-info", page: "/health-info" },
    ],
  },
  {
    title: "common.menu.groupOperator",
    collapsible: false,
    entries: [{ label: "common.menu.tenants", route: "/tenants", page: "/tenants" }, {
      label: "common.menu.storage",
      route: "/storage",
      page: "/storage",
    }],
  },
  {
    title: "common.menu.groupLicense",
    collapsible: false,
    entries: [{ label: "common.menu.license", route: "/license", page: "/license" }],
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

/** A menu group as shown: its title and labels in the request's language. */
export interface ShownMenuGroup {
  title: string;
  collapsible: boolean;
  entries: { label: string; route: string }[];
}

/** Entries the session may see, grouped and in the request's language; empty groups dropped. */
export function visibleMenu(pages: string[], distributed: boolean, served = SERVED_ROUTES): ShownMenuGroup[] {
  return allowedMenu(pages, distributed, served).map((group) => ({
    title: t(group.title),
    collapsible: group.collapsible,
    entries: group.entries.map((entry) => ({ label: t(entry.label), route: entry.route })),
  }));
}

function allowedMenu(pages: string[], distributed: boolean, served: Set<string>): MenuGroup[] {
  const groups = MENU
    .map((group) => ({
      ...group,
      entries: group.entries.filter((e) =>
        pages.includes(e.page) && served.has(e.route) && (!e.distributedOnly || distributed)
      ),
    }))
    .filter((group) => group.entries.length > 0);
  // License sits inside the Operator group when the tenants page is allowed (spec 1 "Sidebar menu").
  const operator = groups.find((g) => g.title === "common.menu.groupOperator");
  const license = groups.find((g) => g.title === "common.menu.groupLicense");
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
  for (const group of allowedMenu(pages, distributed, served)) {
    if (group.entries[0]) return group.entries[0].route;
  }
  return null;
}
