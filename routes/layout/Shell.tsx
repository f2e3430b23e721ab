/**
 * The signed-in page frame, rendered on the server: the 245 px sidebar (hidden on /metrics and on paths ending in /hop) with
 * the session's menu, theme switch and Logout as plain forms (no script), and the page content. Every signed-in
 * page also takes the keyboard shortcuts (islands/keyboard/): their small script, and the menu's sections as
 * data for them (`#deck-nav`), so `g` then a letter and the command palette offer what the menu does.
 */
import type { ReactNode } from "react";
import RestartBanner from "../../islands/RestartBanner.tsx";
import { BannerArea } from "../../islands/ui/ErrorBanner.tsx";
import { Island, jsonForHtml, KeyboardShortcuts } from "../../server/console/render/island.tsx";
import type { Theme } from "../../server/console/render/page.tsx";
import { currentLocale, t } from "../../islands/lib/i18n/t.ts";
import { LOCALE_NAMES, LOCALES } from "../../islands/lib/i18n/locales.ts";
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
        {operator ? t("common.shell.productOperator") : "Deck"}
      </a>
      <button
        type="button"
        className="btn btn-sm btn-ghost text-neutral-content justify-between mx-3 mb-2 border border-neutral-content/30"
        title={t("common.shell.paletteLabel")}
        data-open-palette=""
      >
        {t("common.shell.palette")}
        <kbd className="text-xs opacity-80" aria-hidden="true">Ctrl K</kbd>
      </button>
      <nav className="flex-1 overflow-y-auto px-2" aria-label={t("common.shell.mainMenu")}>
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
              {t("common.menu.documentation")}
            </a>
          </li>
        </ul>
      </nav>
      <div className="p-3 border-t border-neutral-content/20 flex flex-col gap-2 text-sm">
        <div className="truncate opacity-80" title={account} translate="no">{account}</div>
        <form method="post" action={href("/theme")} className="join" aria-label={t("common.shell.theme")}>
          <input type="hidden" name="back" value={path} />
          {(["light", "dark", "system"] as const).map((choice) => (
            <button
              type="submit"
              key={choice}
              name="theme"
              value={choice}
              className={`btn btn-xs join-item ${
                theme === choice ? "btn-secondary" : "btn-ghost text-neutral-content"
              }`}
              aria-pressed={theme === choice}
            >
              {t(THEME_LABELS[choice])}
            </button>
          ))}
        </form>
        <LanguageSwitch href={href} path={path} />
        <form method="post" action={href("/logout")}>
          <button type="submit" className="btn btn-sm btn-ghost text-neutral-content w-full justify-start">
            {t("common.shell.logout")}
          </button>
        </form>
      </div>
    </aside>
  );
}

const THEME_LABELS = {
  light: "common.shell.themeLight",
  dark: "common.shell.themeDark",
  system: "common.shell.themeSystem",
} as const;

/**
 * The language switch: each language named in itself, kept in a cookie like the theme (a plain form, no script).
 * The sidebar shows it on its dark ground; the sign-in page (`onCard`) under the card, on the page's ground.
 */
export function LanguageSwitch(
  { href, path, onCard }: { href: (path: string) => string; path: string; onCard?: boolean },
) {
  const shown = currentLocale();
  const idle = onCard ? "btn-ghost" : "btn-ghost text-neutral-content";
  return (
    <form method="post" action={href("/language")} className="join" aria-label={t("common.shell.language")}>
      <input type="hidden" name="back" value={path} />
      {LOCALES.map((locale) => (
        <button
          type="submit"
          key={locale}
          name="lang"
          value={locale}
          lang={locale}
          className={`btn btn-xs join-item ${shown === locale ? "btn-secondary" : idle}`}
          aria-pressed={shown === locale}
        >
          {LOCALE_NAMES[locale]}
        </button>
      ))}
    </form>
  );
}

/** The menu's sections as data for the keyboard shortcuts and the command palette (islands/keyboard/keymap.ts). */
function NavData({ href, pages, distributed }: Pick<ShellProps, "href" | "pages" | "distributed">) {
  const entries = visibleMenu(pages, distributed).flatMap((group) =>
    group.entries.map((e) => ({ label: e.label, route: e.route }))
  );
  return (
    <script
      type="application/json"
      id="deck-nav"
      dangerouslySetInnerHTML={{ __html: jsonForHtml({ base: href("/"), entries }) }}
    />
  );
}

export function Shell(props: ShellProps) {
  const hideSidebar = props.path === "/metrics" || props.path.endsWith("/hop");
  return (
    <div className="min-h-screen flex bg-base-200 text-base-content">
      <KeyboardShortcuts />
      <NavData href={props.href} pages={props.pages} distributed={props.distributed} />
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
    // Mid-sentence a name is lower case in English ("bucket x"); German keeps its nouns capitalised.
    ? t("common.unavailable.denied", {
      what: currentLocale() === "de" ? what : what.charAt(0).toLowerCase() + what.slice(1),
    })
    : t("common.unavailable.failed", { what, reason: error.message });
  return <p data-testid="unavailable">{reason}</p>;
}
