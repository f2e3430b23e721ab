/**
 * "Item's Health Status [%]" (spec 3 §2.6): for each colour, the share of items before and after healing as
 * two horizontal bars. Plain HTML and CSS: a chart library would cost more script than the whole page.
 */
import type { HealColor } from "../../server/lib/contract/tools.ts";
import { currentLocale, t } from "../lib/i18n/t.ts";

const COLOURS: { id: HealColor; key: "green" | "yellow" | "red" | "grey"; bar: string }[] = [
  { id: "Green", key: "green", bar: "bg-success" },
  { id: "Yellow", key: "yellow", bar: "bg-warning" },
  { id: "Red", key: "red", bar: "bg-error" },
  { id: "Grey", key: "grey", bar: "bg-base-content/40" },
];

/** Percent of `count` in `total`, one decimal. */
export const percentOf = (
  count: number,
  total: number,
) => (total > 0 ? Math.round((count / total) * 1000) / 10 : 0);

export function HealthChart(
  { before, after }: { before: Record<HealColor, number>; after: Record<HealColor, number> },
) {
  const totalBefore = Object.values(before).reduce((a, b) => a + b, 0);
  const totalAfter = Object.values(after).reduce((a, b) => a + b, 0);
  return (
    // A div, not <figure>: daisyUI lays a card's figure out as a centred flex row.
    <div role="figure" aria-labelledby="health-chart-title" className="w-full" data-testid="health-chart">
      <div id="health-chart-title" className="font-bold mb-3">{t("monitoring.heal.chartTitle")}</div>
      <div className="flex gap-4 text-xs mb-2" aria-hidden="true">
        <span className="flex items-center gap-1">
          <span className="inline-block w-3 h-3 rounded-sm bg-base-content/70" />
          {t("monitoring.heal.beforeHealing")}
        </span>
        <span className="flex items-center gap-1">
          <span className="inline-block w-3 h-3 rounded-sm bg-base-content/30" />
          {t("monitoring.heal.afterHealing")}
        </span>
      </div>
      <table className="w-full text-sm">
        <tbody>
          {COLOURS.map((colour) =>
            (
              [["Before", before[colour.id], totalBefore, ""], [
                "After",
                after[colour.id],
                totalAfter,
                "opacity-50",
              ]] as const
            ).map(([when, count, total, fade], i) => {
              const pct = percentOf(count, total);
              const shown = pct.toLocaleString(currentLocale());
              return (
                <tr
                  key={`${colour.id}-${when}`}
                  data-testid={`bar-${colour.id}-${when}`.toLowerCase()}
                  data-percent={pct}
                >
                  {i === 0
                    ? (
                      <th
                        rowSpan={2}
                        scope="rowgroup"
                        className="w-16 text-left font-normal pr-2 align-middle"
                      >
                        {t(`monitoring.heal.legend.${colour.key}`)}
                      </th>
                    )
                    : null}
                  <td className="py-0.5">
                    <div className="flex items-center gap-2">
                      <div
                        className="flex-1 bg-base-200 rounded h-4"
                        role="img"
                        aria-label={t(
                          when === "Before" ? "monitoring.heal.barBefore" : "monitoring.heal.barAfter",
                          {
                            colour: t(`monitoring.heal.legend.${colour.key}`),
                            percent: shown,
                          },
                        )}
                      >
                        <div className={`${colour.bar} ${fade} h-4 rounded`} style={{ width: `${pct}%` }} />
                      </div>
                      <span className="w-24 text-right tabular-nums">
                        {shown}% <span className="text-base-content/60">({count})</span>
                      </span>
                    </div>
                  </td>
                </tr>
              );
            })
          )}
        </tbody>
      </table>
    </div>
  );
}
