/**
 * Heal (spec 3 §2.6): 'Select Bucket', Prefix, Recursive, Force Start, Force Stop and Start; while it runs,
 * the health of the items before and after healing as a bar chart, the size scanned, objects healed out of
 * those scanned and the healing time. Items that are not green are listed with what the server found.
 * The running flag turns off when the server closes the stream.
 */
import { useState } from "react";
import type { HealItemStatus, HealMessage } from "../server/lib/contract/tools.ts";
import { formatBytes, formatNumber } from "./lib/format.ts";
import { type MessageKey, t } from "./lib/i18n/t.ts";
import { useLiveSocket } from "./lib/live_socket.ts";
import { SelectField, TextField } from "./ui/fields.tsx";
import { HealthChart } from "./tools/HealthChart.tsx";
import { LiveNotices } from "./tools/LiveNotices.tsx";

export interface HealViewerProps {
  buckets: string[];
}

/** An item's colour as the server names it (green, yellow, red, grey), in the page's language. */
const colorText = (color: string) =>
  ["green", "yellow", "red", "grey"].includes(color)
    ? t(`monitoring.heal.item.${color}` as MessageKey)
    : color;

/** Problem items kept for the list below the chart. */
const PROBLEMS_SHOWN = 200;

export default function HealViewer({ buckets }: HealViewerProps) {
  const [problems, setProblems] = useState<HealItemStatus[]>([]);
  const heal = useLiveSocket<HealMessage>({
    limit: 1,
    keepAlive: false,
    onMessage: (message) => {
      const bad = ((message as HealMessage).itemsHealthStatus ?? []).filter((i) =>
        i.before.color !== "green" || i.after.color !== "green"
      );
      if (bad.length) setProblems((old) => [...old, ...bad].slice(0, PROBLEMS_SHOWN));
    },
  });
  const [bucket, setBucket] = useState("");
  const [prefix, setPrefix] = useState("");
  const [flags, setFlags] = useState({ recursive: false, forceStart: false, forceStop: false });
  const running = heal.status === "open" || heal.status === "connecting";
  const latest = heal.messages[0];
  const start = () => {
    setProblems([]);
    heal.start(`/ws/heal/${encodeURIComponent(bucket)}`, {
      prefix,
      recursive: String(flags.recursive),
      "force-start": String(flags.forceStart),
      "force-stop": String(flags.forceStop),
    });
  };
  const flag = (key: keyof typeof flags, label: string) => (
    <label className="flex items-center gap-2 text-sm">
      <input
        type="checkbox"
        className="checkbox checkbox-sm"
        checked={flags[key]}
        disabled={running}
        onChange={(e) =>
          setFlags({
            ...flags,
            [key]: e.target.checked,
            ...(key === "forceStart" && e.target.checked ? { forceStop: false } : {}),
            ...(key === "forceStop" && e.target.checked ? { forceStart: false } : {}),
          })}
      />
      {label}
    </label>
  );

  return (
    <div>
      <div className="card bg-base-100 shadow-sm mb-4">
        <div className="card-body p-4">
          <div className="flex flex-wrap gap-x-4 items-end">
            <div className="w-60">
              <SelectField
                label={t("monitoring.watch.bucket")}
                value={bucket}
                disabled={running}
                options={[
                  { value: "", label: t("monitoring.watch.selectBucket") },
                  ...buckets.map((b) => ({ value: b, label: b })),
                ]}
                onChange={setBucket}
              />
            </div>
            <div className="w-60">
              <TextField
                label={t("monitoring.watch.prefix")}
                value={prefix}
                onChange={setPrefix}
                disabled={running}
              />
            </div>
            <div className="flex flex-wrap gap-4 mb-4">
              {flag("recursive", t("monitoring.heal.recursive"))}
              {flag("forceStart", t("monitoring.heal.forceStart"))}
              {flag("forceStop", t("monitoring.heal.forceStop"))}
            </div>
            <button
              type="button"
              className="btn btn-sm btn-primary mb-3"
              disabled={running || !buckets.includes(bucket)}
              onClick={start}
            >
              {t("common.action.start")}
            </button>
          </div>
        </div>
      </div>
      <LiveNotices socket={heal} />
      <div className="card bg-base-100 shadow-sm">
        <div className="card-body p-4 gap-4">
          <HealthChart
            before={latest?.healthBeforeCols ?? { Green: 0, Yellow: 0, Red: 0, Grey: 0 }}
            after={latest?.healthAfterCols ?? { Green: 0, Yellow: 0, Red: 0, Grey: 0 }}
          />
          <dl className="grid gap-3 sm:grid-cols-3 text-sm" data-testid="heal-stats">
            <div>
              <dt className="text-base-content/70">{t("monitoring.heal.sizeScanned")}</dt>
              <dd className="text-lg font-bold">{formatBytes(latest?.bytesScanned ?? 0)}</dd>
            </div>
            <div>
              <dt className="text-base-content/70">{t("monitoring.heal.objectsHealed")}</dt>
              <dd className="text-lg font-bold">
                {formatNumber(latest?.objectsHealed ?? 0)} / {formatNumber(latest?.objectsScanned ?? 0)}
              </dd>
            </div>
            <div>
              <dt className="text-base-content/70">{t("monitoring.heal.healingTime")}</dt>
              <dd className="text-lg font-bold">
                {t("monitoring.heal.seconds", { value: String(latest?.healDuration ?? 0) })}
              </dd>
            </div>
          </dl>
          <p role="status" className="text-sm text-base-content/70">
            {running
              ? t("monitoring.heal.running")
              : heal.status === "closed" && latest
              ? t("monitoring.heal.finished")
              : ""}
          </p>
          {problems.length
            ? (
              <div>
                <h2 className="font-bold mb-2">{t("monitoring.heal.problems")}</h2>
                <ul className="text-sm space-y-1" data-testid="heal-problems">
                  {problems.map((item, i) => (
                    <li key={i} className="wrap-anywhere">
                      <span
                        className={`badge badge-sm mr-2 ${
                          item.after.color === "red" ? "badge-error" : "badge-ghost"
                        }`}
                      >
                        {colorText(item.after.color)}
                      </span>
                      {item.name}
                      {item.detail
                        ? <span className="text-base-content/70">{` — ${item.detail}`}</span>
                        : null}
                    </li>
                  ))}
                </ul>
              </div>
            )
            : null}
        </div>
      </div>
    </div>
  );
}
