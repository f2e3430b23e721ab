/**
 * The pod page (spec 3 §2.3b): tabs Events (Namespace, Last Seen, Message, Event Type, Reason) and Logs with
 * 'Highlight Line' (matching lines stand out), indentation kept as tabs, colour codes and non-printables
 * stripped.
 */
import { useMemo, useState } from "react";
import type { PodEvent } from "../server/lib/contract/operator.ts";
import { formatDateTime } from "./lib/format.ts";
import { cleanLogLines } from "./lib/pod_logs.ts";
import { DataTable } from "./ui/DataTable.tsx";
import { SearchBox, Tabs } from "./ui/fields.tsx";
import { t } from "./lib/i18n/t.ts";

export interface PodDetailProps {
  events: PodEvent[];
  logs: string;
  /** Set when the logs could not be read. */
  logsError: string;
}

const formatSeen = (seconds: number) => (seconds > 0 ? formatDateTime(seconds * 1000) : "");

export default function PodDetail({ events, logs, logsError }: PodDetailProps) {
  const [tab, setTab] = useState<"events" | "logs">("events");
  const [highlight, setHighlight] = useState("");
  const lines = useMemo(() => cleanLogLines(logs), [logs]);
  return (
    <div>
      <Tabs
        tabs={[{ id: "events", label: t("operator.pod.events") }, {
          id: "logs",
          label: t("operator.pod.logs"),
        }]}
        active={tab}
        onChange={setTab}
      />
      {tab === "events"
        ? (
          <DataTable<PodEvent>
            entity={t("operator.entity.events")}
            id="events"
            rows={events}
            rowId={(e) => `${e.last_seen}-${e.reason}-${e.message}`}
            height={400}
            columns={[
              { id: "namespace", label: t("operator.word.namespace"), value: (e) => e.namespace },
              {
                id: "last_seen",
                label: t("operator.pod.lastSeen"),
                value: (e) => e.last_seen,
                render: (e) => formatSeen(e.last_seen),
                sortable: true,
              },
              // Kubernetes' own words
              {
                id: "message",
                label: t("operator.word.message"),
                value: (e) => e.message,
                render: (e) => <span translate="no">{e.message}</span>,
              },
              {
                id: "event_type",
                label: t("operator.pod.eventType"),
                value: (e) => e.event_type,
                render: (e) => <span translate="no">{e.event_type}</span>,
              },
              {
                id: "reason",
                label: t("operator.pod.reason"),
                value: (e) => e.reason,
                render: (e) => <span translate="no">{e.reason}</span>,
              },
            ]}
          />
        )
        : (
          <div>
            <div className="mb-2">
              <SearchBox
                placeholder={t("operator.pod.highlight")}
                value={highlight}
                onChange={setHighlight}
              />
            </div>
            {logsError ? <p className="text-error" role="alert" translate="no">{logsError}</p> : null}
            <div
              className="bg-neutral text-neutral-content rounded-box p-3 font-mono text-xs overflow-auto max-h-[65vh]"
              style={{ tabSize: 4 }}
              data-testid="pod-logs"
              translate="no"
            >
              {lines.map((line, i) => {
                const hit = highlight !== "" && line.includes(highlight);
                return (
                  <div
                    key={i}
                    className={`whitespace-pre-wrap wrap-anywhere ${
                      hit ? "bg-warning text-warning-content" : ""
                    }`}
                    data-highlighted={hit ? "true" : undefined}
                  >
                    {line || "\u00a0"}
                  </div>
                );
              })}
            </div>
          </div>
        )}
    </div>
  );
}
