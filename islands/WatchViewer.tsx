/**
 * Watch (spec 3 §2.6): a bucket, Prefix and Suffix, Start; a table of Time, Size, Type and Path of the
 * bucket's events as they happen, newest first (the newest 1,000 kept). Starting needs a bucket from the
 * list; the running flag turns off when the server closes the stream, and each start clears the table.
 */
import { useState } from "react";
import type { WatchMessage } from "../server/lib/contract/tools.ts";
import { formatBytes, formatDateTime } from "./lib/format.ts";
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
                label="Bucket"
                value={bucket}
                disabled={running}
                options={[
                  { value: "", label: buckets.length ? "Select Bucket" : "No buckets" },
                  ...buckets.map((b) => ({ value: b, label: b })),
                ]}
                onChange={setBucket}
              />
            </div>
            <div className="w-52">
              <TextField label="Prefix" value={prefix} onChange={setPrefix} disabled={running} />
            </div>
            <div className="w-52">
              <TextField label="Suffix" value={suffix} onChange={setSuffix} disabled={running} />
            </div>
            <div className="flex gap-2 mb-3">
              {running
                ? <button type="button" className="btn btn-sm" onClick={watch.stop}>Stop</button>
                : (
                  <button
                    type="button"
                    className="btn btn-sm btn-primary"
                    disabled={!bucketExists}
                    onClick={() => watch.start(`/ws/watch/${encodeURIComponent(bucket)}`, { prefix, suffix })}
                  >
                    Start
                  </button>
                )}
            </div>
          </div>
        </div>
      </div>
      <LiveNotices socket={watch} />
      <DataTable<WatchMessage>
        entity="events"
        rows={watch.messages}
        rowId={(m) => String(messageId(m))}
        emptyMessage="No Changes at this time"
        columns={[
          {
            id: "time",
            label: "Time",
            value: (m) => m.Time,
            render: (m) => <span className="whitespace-nowrap">{formatDateTime(m.Time)}</span>,
          },
          {
            id: "size",
            label: "Size",
            value: (m) => m.Size,
            render: (m) => <span className="whitespace-nowrap">{formatBytes(m.Size)}</span>,
            align: "right",
          },
          { id: "type", label: "Type", value: (m) => m.Type },
          { id: "path", label: "Path", value: (m) => m.Path },
        ]}
      />
    </div>
  );
}
