/**
 * Watch (spec 3 §2.6): a bucket, Prefix and Suffix, Start; a table of Time, Size, Type and Path of the
 * bucket's events as they happen, newest first (the newest 1,000 kept). Starting needs a bucket from the
 * list; the running flag turns off when the server closes the stream, and each start clears the table.
 */
import { useState } from "react";
import type { WatchMessage } from "../server/lib/contract/tools.ts";
import { formatBytes, formatDateTime } from "./lib/format.ts";
import { t } from "./lib/i18n/t.ts";
import { messageId, useLiveSocket } from "./lib/live_socket.ts";
import { DataTable } from "./ui/DataTable.tsx";
import { SelectField, TextField } from "./ui/fields.tsx";
import { LiveNotices } from "./tools/LiveNotices.tsx";

export interface WatchViewerProps {
  buckets: string[];
}

export default function WatchViewer({ buckets }: WatchViewerProps) {
  const watch = useLiveSocket<WatchMessage>({ limit: 1000 });
  const [bucket, setBucket] = useState("");
  const [prefix, setPrefix] = useState("");
  const [suffix, setSuffix] = useState("");
  const running = watch.status === "open" || watch.status === "connecting";
  const bucketExists = buckets.includes(bucket);
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
                  {
                    value: "",
                    label: buckets.length
                      ? t("monitoring.watch.selectBucket")
                      : t("monitoring.watch.noBuckets"),
                  },
                  ...buckets.map((b) => ({ value: b, label: b })),
                ]}
                onChange={setBucket}
              />
            </div>
            <div className="w-52">
              <TextField
                label={t("monitoring.watch.prefix")}
                value={prefix}
                onChange={setPrefix}
                disabled={running}
              />
            </div>
            <div className="w-52">
              <TextField
                label={t("monitoring.watch.suffix")}
                value={suffix}
                onChange={setSuffix}
                disabled={running}
              />
            </div>
            <div className="flex gap-2 mb-3">
              {running
                ? (
                  <button type="button" className="btn btn-sm" onClick={watch.stop}>
                    {t("common.action.stop")}
                  </button>
                )
                : (
                  <button
                    type="button"
                    className="btn btn-sm btn-primary"
                    disabled={!bucketExists}
                    onClick={() => watch.start(`/ws/watch/${encodeURIComponent(bucket)}`, { prefix, suffix })}
                  >
                    {t("common.action.start")}
                  </button>
                )}
            </div>
          </div>
        </div>
      </div>
      <LiveNotices socket={watch} />
      <DataTable<WatchMessage>
        entity={t("monitoring.watch.entity")}
        id="events"
        rows={watch.messages}
        rowId={(m) => String(messageId(m))}
        emptyMessage={t("monitoring.watch.empty")}
        columns={[
          {
            id: "time",
            label: t("monitoring.watch.columnTime"),
            value: (m) => m.Time,
            render: (m) => <span className="whitespace-nowrap">{formatDateTime(m.Time)}</span>,
          },
          {
            id: "size",
            label: t("common.word.size"),
            value: (m) => m.Size,
            render: (m) => <span className="whitespace-nowrap">{formatBytes(m.Size)}</span>,
            align: "right",
          },
          { id: "type", label: t("common.word.type"), value: (m) => m.Type },
          { id: "path", label: t("monitoring.watch.columnPath"), value: (m) => m.Path },
        ]}
      />
    </div>
  );
}
