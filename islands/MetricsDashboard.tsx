/**
 * The widget dashboard (spec 1 Dashboard): start and end pickers with Sync, tabs Summary / Traffic /
 * Resources, each a draggable 8-column grid of panels whose layout is kept in local storage. Panels load when
 * shown and again on Sync; the step sent is the range in whole minutes (15 without a range).
 */
import { useEffect, useState } from "react";
import {
  DASHBOARD_TABS,
  DEFAULT_LAYOUT,
  type LayoutItem,
  PANELS,
  widgetStep,
  type WidgetSummary,
} from "../server/lib/contract/dashboard.ts";
import type { WidgetQuery } from "./lib/api/dashboard.ts";
import { utcFieldTime } from "./lib/format.ts";
import { t } from "./lib/i18n/t.ts";
import { Grid } from "./dashboard/Grid.tsx";
import { loadLayout, mergeItems, saveLayout } from "./dashboard/layout.ts";
import { Panel } from "./dashboard/Panel.tsx";

export interface MetricsDashboardProps {
  /** The widget list of GET /api/v1/admin/info. */
  widgets: WidgetSummary[];
}

/** A picker's text (UTC) → epoch seconds, null when empty. */
const toEpoch = (text: string) => {
  const ms = utcFieldTime(text);
  return ms === null ? null : Math.floor(ms / 1000);
};

/** A tab's key segment: its English name in lower case. */
const tabKey = (name: typeof DASHBOARD_TABS[number]["name"]) => name.toLowerCase() as Lowercase<typeof name>;

export default function MetricsDashboard({ widgets }: MetricsDashboardProps) {
  const [tab, setTab] = useState(0);
  const [layout, setLayout] = useState<LayoutItem[]>(DEFAULT_LAYOUT);
  const [startText, setStartText] = useState("");
  const [endText, setEndText] = useState("");
  const [query, setQuery] = useState<WidgetQuery>({ start: null, end: null, step: widgetStep(null, null) });
  const [syncKey, setSyncKey] = useState(0);

  // The saved layout is read after hydration: the server rendered the default one.
  useEffect(() => setLayout(loadLayout(localStorage)), []);

  const start = toEpoch(startText);
  const end = toEpoch(endText);
  const rangeError = start !== null && end !== null && end <= start
    ? t("monitoring.dashboard.rangeError")
    : "";

  const sync = () => {
    setQuery({ start, end, step: widgetStep(start, end) });
    setSyncKey((k) => k + 1);
  };
  const changeLayout = (items: LayoutItem[]) => {
    const next = mergeItems(layout, items);
    setLayout(next);
    saveLayout(localStorage, next);
  };

  // Widgets are matched to panels by title, case-insensitively (spec 1 §7).
  const widgetFor = (title: string) =>
    widgets.find((w) => w.title.trim().toLowerCase() === title.trim().toLowerCase())?.id ?? null;
  const current = DASHBOARD_TABS[tab];
  const panels = PANELS.filter((p) => current.ids.includes(p.id));
  const items = layout.filter((item) => panels.some((p) => p.layoutIdentifier === item.i));

  return (
    <div>
      <form
        className="flex flex-wrap items-end gap-3 mb-4"
        onSubmit={(event) => {
          event.preventDefault();
          if (!rangeError) sync();
        }}
      >
        <label className="flex flex-col gap-1 text-sm">
          <span>{t("monitoring.dashboard.startTime")}</span>
          <input
            type="datetime-local"
            className="input input-sm"
            value={startText}
            max={endText || undefined}
            onChange={(e) => setStartText(e.target.value)}
            aria-invalid={!!rangeError}
          />
        </label>
        <label className="flex flex-col gap-1 text-sm">
          <span>{t("monitoring.dashboard.endTime")}</span>
          <input
            type="datetime-local"
            className="input input-sm"
            value={endText}
            min={startText || undefined}
            onChange={(e) => setEndText(e.target.value)}
            aria-invalid={!!rangeError}
          />
        </label>
        <button type="submit" className="btn btn-sm btn-primary" disabled={!!rangeError}>
          <svg
            viewBox="0 0 24 24"
            width="16"
            height="16"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
            aria-hidden="true"
          >
            <path d="M20 11a8 8 0 0 0-14.9-4M4 4v4h4M4 13a8 8 0 0 0 14.9 4M20 20v-4h-4" />
          </svg>
          {t("monitoring.dashboard.sync")}
        </button>
        <span className="text-xs opacity-70 pb-2" data-testid="range-note">
          {rangeError
            ? <span className="text-error" role="alert">{rangeError}</span>
            : start === null && end === null
            ? t("monitoring.dashboard.defaultRange")
            : ""}
        </span>
      </form>
      <div role="tablist" className="tabs tabs-border mb-2" aria-label={t("monitoring.dashboard.sections")}>
        {DASHBOARD_TABS.map((section, i) => (
          <button
            key={section.name}
            type="button"
            role="tab"
            className={`tab ${i === tab ? "tab-active" : ""}`}
            aria-selected={i === tab}
            onClick={() => setTab(i)}
          >
            {t(`monitoring.dashboard.tab.${tabKey(section.name)}`)}
          </button>
        ))}
      </div>
      <Grid
        key={current.name}
        label={t("monitoring.dashboard.panels", {
          section: t(`monitoring.dashboard.tab.${tabKey(current.name)}`),
        })}
        items={items}
        onChange={changeLayout}
        renderPanel={(id, handle) => {
          const panel = panels.find((p) => p.layoutIdentifier === id)!;
          return (
            <Panel
              panel={panel}
              widgetId={widgetFor(panel.title)}
              query={query}
              syncKey={syncKey}
              handle={handle}
            />
          );
        }}
      />
    </div>
  );
}
