/**
 * The signed-in page frame, rendered on the server: the 245 px sidebar (hidden on /metrics and on paths ending in /hop) with
 * the session's menu, theme switch and Logout as plain forms (no script), and the page content.
 */
import type { ReactNode } from "react";
import RestartBanner from "../../islands/RestartBanner.tsx";
import { BannerArea } from "../../islands/ui/ErrorBanner.tsx";
import { Island } from "../../server/console/render/island.tsx";
import type { Theme } from "../../server/console/render/page.tsx";
import { documentationUrl, visibleMenu } from "./menu.ts";

export interface ShellProps {
  href: (path: string) => string;
  path: string;
  pages: string[];
  distributed: boolean;
  account: string;
  theme: Theme;
  /** Operator mode: its own logo and name (spec 3 §1). */
  operator?: boolean;
  /** An error met while building the page, shown in the banner. */
  error?: { message: string; detail?: string };
  /** The restart banner (spec 3 §4): whether it shows now, and whether the page needs it mounted anyway
   * (pages that can raise the flag). Pages without either ship none of its script. */
  restart?: { needed: boolean; mounted: boolean };
  children: ReactNode;
}

function Sidebar(
  { href, path, pages, distributed, account, theme, operator }: Omit<
    ShellProps,
    "children" | "error" | "restart"
  >,
) {
  return (
    <aside className="deck-sidebar shrink-0 bg-neutral text-neutral-content flex flex-col min-h-screen">
      <a href={href("/")} className="flex items-center gap-2 px-5 py-5 text-xl font-bold" data-testid="logo">
        {operator
          ? (
            <span className="inline-grid grid-cols-2 gap-0.5 w-7 h-7" aria-hidden="true">
              {[0, 1, 2, 3].map((i) => <span key={i} className="rounded-sm bg-accent" />)}
            </span>
          )
          : <span className="inline-block w-7 h-7 rounded bg-accent" aria-hidden="true" />}
        {operator ? "Deck Operator" : "Deck"}
      </a>
      <nav className="flex-1 overflow-y-auto px-2" aria-label="Main menu">
        {visibleMenu(pages, distributed).map((group) => {
          const items = (
            <ul className="menu menu-sm w-full">
              {group.entries.map((entry) => {
                const current = path === entry.route || path.startsWith(entry.route + "/");
                return (
                  <li key={entry.route}>
                    <a href={href(entry.route)} aria-current={current ? "page" : undefined}>{entry.label}</a>
                  </li>
                );
              })}
            </ul>
          );
          return group.collapsible
            ? (
              <details key={group.title} open className="mb-1">
                <summary className="cursor-pointer px-3 py-1 text-xs uppercase tracking-wide opacity-70">
                  {group.title}
                </summary>
                {items}
              </details>
            )
            : <div key={group.title} className="mb-1">{items}</div>;
        })}
        <ul className="menu menu-sm w-full">
          <li>
            <a href={documentationUrl(!!operator)} target="_blank" rel="noopener noreferrer">
              Documentation
            </a>
          </li>
        </ul>
      </nav>
      <div className="p-3 border-t border-neutral-content/20 flex flex-col gap-2 text-sm">
        <div className="truncate opacity-80" title={account}>{account}</div>
        <form method="post" action={href("/theme")} className="join" aria-label="Theme">
          <input type="hidden" name="back" value={path} />
          {(["light", "dark", "system"] as const).map((t) => (
            <button
              type="submit"
              key={t}
              name="theme"
              value={t}
              className={`btn btn-xs join-item ${
                theme === t ? "btn-secondary" : "btn-ghost text-neutral-content"
              }`}
              aria-pressed={theme === t}
            >
              {t[0].toUpperCase() + t.slice(1)}
            </button>
          ))}
        </form>
        <form method="post" action={href("/logout")}>
          <button type="submit" className="btn btn-sm btn-ghost text-neutral-content w-full justify-start">
            Logout
          </button>
        </form>
      </div>
    </aside>
  );
}

export function Shell(props: ShellProps) {
  const hideSidebar = props.path === "/metrics" || props.path.endsWith("/hop");
  return (
    <div className="min-h-screen flex bg-base-200 text-base-content">
      {hideSidebar ? null : <Sidebar {...props} />}
      <main className="flex-1 min-w-0 p-6">
        <BannerArea error={props.error} />
        {props.restart && (props.restart.needed || props.restart.mounted)
          ? (
            <Island
              name="RestartBanner"
              component={RestartBanner}
              props={{ needsRestart: props.restart.needed }}
            />
          )
          : null}
        {props.children}
      </main>
    </div>
  );
}

/** Page title bar used by every screen. */
export function PageHeader({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <header className="flex flex-wrap items-center justify-between gap-3 mb-6">
      <h1 className="text-2xl font-bold">{title}</h1>
      {children ? <div className="flex flex-wrap gap-2">{children}</div> : null}
    </header>
  );
}

/** In place of a page's subject when it could not be read: "You do not have access to bucket x." or the reason. */
export function UnavailableNote(
  { what, error }: { what: string; error: { status: number; message: string } },
) {
  const reason = error.status === 403
    ? `You do not have access to ${what.charAt(0).toLowerCase() + what.slice(1)}.`
    : `${what} could not be read: ${error.message}.`;
  return <p data-testid="unavailable">{reason}</p>;
}
