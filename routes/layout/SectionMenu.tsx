/**
 * A page's own section menu beside its content (Settings, Logs, Storage, a tenant): side by side from 1024 px;
 * narrower, the sections run in a row above the content so tables keep the width (an 800 px window leaves
 * about 500 px). The current section carries aria-current, which static/app.css draws in the primary colour
 * in both themes.
 */
import type { ReactNode } from "react";

export interface SectionItem {
  id: string;
  label: string;
  href: string;
  /** Shown but not a link, with the reason as its title. */
  disabledReason?: string;
}

export function SectionLayout(
  { label, items, current, children }: {
    label: string;
    items: SectionItem[];
    current: string;
    children: ReactNode;
  },
) {
  const shown = items.find((i) => i.id === current);
  return (
    <div className="flex flex-col lg:flex-row gap-4 lg:gap-6">
      <ul
        className="menu menu-horizontal lg:menu-vertical bg-base-100 rounded-box w-full lg:w-52 shrink-0 self-start"
        aria-label={label}
      >
        {items.map((item) => (
          <li key={item.id}>
            {item.disabledReason
              ? (
                <span className="menu-disabled" aria-disabled="true" title={item.disabledReason}>
                  {item.label}
                </span>
              )
              : (
                <a
                  href={item.href}
                  className={item.id === current ? "menu-active" : undefined}
                  aria-current={item.id === current ? "page" : undefined}
                >
                  {item.label}
                </a>
              )}
          </li>
        ))}
      </ul>
      <section className="flex-1 min-w-0" aria-label={shown?.label}>{children}</section>
    </div>
  );
}
