/**
 * Logs › Audit Logs (spec 3 §2.6): Start Time and End Time, collapsible Advanced Filters (Bucket, API Name,
 * User Agent, Object, Request ID, Response Status) with the wildcard hint, 'Get Information', and a table
 * that loads the next page of 100 as it is scrolled (up to 1,000,000 records), newest first unless the
 * Timestamp column is sorted the other way. A column selector starts with the spec's default columns.
 */
import { useRef, useState } from "react";
import type { AuditFilterKey, AuditRow } from "../server/lib/contract/tools.ts";
import { type AuditSearch, toolsApi } from "./lib/api/tools.ts";
import { formatBytes, formatDateTime, formatNumber, utcFieldTime } from "./lib/format.ts";
import { t } from "./lib/i18n/t.ts";
import { tNode } from "./lib/i18n/rich.tsx";
import { reportError } from "./lib/use_list.ts";
import { DataTable } from "./ui/DataTable.tsx";
import { TextField } from "./ui/fields.tsx";

export const PAGE_SIZE = 100;
export const MAX_RECORDS = 1_000_000;

/** The filters, named in the page's language (read when shown, never at import). */
const filterFields = (): { key: AuditFilterKey; label: string }[] => [
  { key: "bucket", label: t("monitoring.audit.bucket") },
  { key: "api_name", label: t("monitoring.audit.apiName") },
  { key: "user_agent", label: t("monitoring.audit.userAgent") },
  { key: "object", label: t("monitoring.audit.object") },
  { key: "request_id", label: t("monitoring.audit.requestId") },
  { key: "response_status", label: t("monitoring.audit.responseStatus") },
];

/** Off by default: the columns after the spec's eight defaults (spec 3 §9). */
const HIDDEN = ["request_content_length", "response_content_length", "time_to_response_ns"];

/** A picker's value (UTC, as every time shown) → ISO; "" stays "". */
export function fieldToIso(value: string): string {
  const ms = utcFieldTime(value);
  return ms === null ? "" : new Date(ms).toISOString();
}

/** Rows get a sequence number as they load: two alike records still have distinct keys. */
const rowIds = new WeakMap<AuditRow, number>();
let loaded = 0;

const length = (n: number | null) => (n === null ? "" : formatBytes(n));

export default function AuditLogs() {
  const [timeStart, setTimeStart] = useState("");
  const [timeEnd, setTimeEnd] = useState("");
  const [filters, setFilters] = useState<Partial<Record<AuditFilterKey, string>>>({});
  const [rows, setRows] = useState<AuditRow[]>([]);
  const [searched, setSearched] = useState(false);
  const [advanced, setAdvanced] = useState(false);
  const [order, setOrder] = useState<AuditSearch["order"]>("timeDesc");
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState("");
  const paging = useRef<{ search: AuditSearch | null; done: boolean; busy: boolean; generation: number }>({
    search: null,
    done: false,
    busy: false,
    generation: 0,
  });

  async function load(search: AuditSearch, append: boolean) {
    const state = paging.current;
    const generation = append ? state.generation : ++state.generation;
    state.busy = true;
    setLoading(true);
    try {
      const page = await toolsApi.searchLogs(search);
      if (generation !== state.generation) return;
      for (const row of page) rowIds.set(row, ++loaded);
      state.search = search;
      state.done = page.length < search.pageSize || (search.pageNo + 1) * search.pageSize >= MAX_RECORDS;
      setRows((old) => (append ? [...old, ...page] : page));
      setError("");
    } catch (e) {
      // Log search errors are shown and stop loading (spec 3 §8).
      if (generation !== state.generation) return;
      state.done = true;
      setError(e instanceof Error ? e.message : String(e));
      reportError(e);
    } finally {
      if (generation === state.generation) {
        state.busy = false;
        setLoading(false);
      }
    }
  }

  const search = (order: AuditSearch["order"]) => {
    setSearched(true);
    void load({
      filters,
      timeStart: fieldToIso(timeStart),
      timeEnd: fieldToIso(timeEnd),
      order,
      pageSize: PAGE_SIZE,
      pageNo: 0,
    }, false);
  };
  const nextPage = () => {
    const state = paging.current;
    if (!state.search || state.done || state.busy) return;
    void load({ ...state.search, pageNo: state.search.pageNo + 1 }, true);
  };

  return (
    <div>
      <div className="card bg-base-100 shadow-sm mb-4">
        <div className="card-body p-4 gap-2">
          <div className="flex flex-wrap gap-4 items-end">
            <label className="block">
              <span className="block mb-1 text-sm font-bold">{t("monitoring.dashboard.startTime")}</span>
              <input
                type="datetime-local"
                step="1"
                className="input border-base-300"
                aria-label={t("monitoring.dashboard.startTime")}
                value={timeStart}
                onChange={(e) => setTimeStart(e.target.value)}
              />
            </label>
            <label className="block">
              <span className="block mb-1 text-sm font-bold">{t("monitoring.dashboard.endTime")}</span>
              <input
                type="datetime-local"
                step="1"
                className="input border-base-300"
                aria-label={t("monitoring.dashboard.endTime")}
                value={timeEnd}
                onChange={(e) => setTimeEnd(e.target.value)}
              />
            </label>
          </div>
          <div className="border border-base-300 rounded-box">
            <button
              type="button"
              className="w-full flex items-center justify-between px-4 py-3 text-sm font-bold"
              aria-expanded={advanced}
              aria-controls="audit-advanced-filters"
              onClick={() => setAdvanced(!advanced)}
            >
              {t("monitoring.audit.advanced")}
              <span aria-hidden="true">{advanced ? "▲" : "▼"}</span>
            </button>
            {advanced
              ? (
                <div id="audit-advanced-filters" className="px-4 pb-3">
                  <div className="grid gap-x-4 sm:grid-cols-2 lg:grid-cols-3">
                    {filterFields().map((f) => (
                      <TextField
                        key={f.key}
                        label={f.label}
                        value={filters[f.key] ?? ""}
                        onChange={(v) => setFilters({ ...filters, [f.key]: v })}
                      />
                    ))}
                  </div>
                  <p className="text-xs text-base-content/70" data-testid="wildcard-hint">
                    {tNode("monitoring.audit.wildcards", {
                      star: <code>*</code>,
                      dot: <code>.</code>,
                      backslash: <code>\</code>,
                      escapedDot: <code>\.</code>,
                      escapedStar: <code>\*</code>,
                    })}
                  </p>
                </div>
              )
              : null}
          </div>
          <div className="flex justify-end">
            <button
              type="button"
              className="btn btn-sm btn-primary"
              disabled={loading && !paging.current.search}
              onClick={() => search(order)}
            >
              {t("monitoring.audit.getInformation")}
            </button>
          </div>
        </div>
      </div>
      {error ? <p className="text-error mb-2" role="alert" data-testid="audit-error">{error}</p> : null}
      <DataTable<AuditRow>
        entity={t("monitoring.audit.entity")}
        id="audit records"
        rows={rows}
        rowId={(r) => String(rowIds.get(r) ?? 0)}
        emptyMessage={searched && !loading
          ? t("monitoring.audit.noResults")
          : loading
          ? t("monitoring.audit.loading")
          : t("monitoring.audit.prompt")}
        columnPicker
        hiddenColumns={HIDDEN}
        initialSort={{ id: "time", desc: true }}
        manualSorting
        onSortChange={(sort) => {
          const next = sort && !sort.desc ? "timeAsc" : "timeDesc";
          setOrder(next);
          if (searched) search(next);
        }}
        onEndReached={nextPage}
        columns={[
          {
            id: "time",
            label: t("monitoring.audit.timestamp"),
            value: (r) => r.time,
            render: (r) => formatDateTime(r.time),
            sortable: true,
            width: 170,
          },
          { id: "api_name", label: t("monitoring.audit.apiName"), value: (r) => r.api_name },
          { id: "bucket", label: t("monitoring.audit.bucket"), value: (r) => r.bucket ?? "" },
          { id: "object", label: t("monitoring.audit.object"), value: (r) => r.object ?? "" },
          { id: "remote_host", label: t("monitoring.audit.remoteHost"), value: (r) => r.remote_host ?? "" },
          { id: "request_id", label: t("monitoring.audit.requestId"), value: (r) => r.request_id ?? "" },
          { id: "user_agent", label: t("monitoring.audit.userAgent"), value: (r) => r.user_agent ?? "" },
          {
            id: "response_status",
            label: t("monitoring.audit.responseStatus"),
            value: (r) => `${r.response_status_code ?? ""} ${r.response_status ?? ""}`.trim(),
          },
          {
            id: "request_content_length",
            label: t("monitoring.audit.requestLength"),
            value: (r) => r.request_content_length ?? 0,
            render: (r) => length(r.request_content_length),
            align: "right",
          },
          {
            id: "response_content_length",
            label: t("monitoring.audit.responseLength"),
            value: (r) => r.response_content_length ?? 0,
            render: (r) => length(r.response_content_length),
            align: "right",
          },
          {
            id: "time_to_response_ns",
            label: t("monitoring.audit.timeToResponse"),
            value: (r) => r.time_to_response_ns ?? 0,
            render: (r) => (r.time_to_response_ns === null ? "" : formatNumber(r.time_to_response_ns)),
            align: "right",
          },
        ]}
      />
      {rows.length > 0
        ? (
          <p className="text-xs text-base-content/70 mt-2" role="status">
            {t(loading ? "monitoring.audit.recordsLoading" : "monitoring.audit.records", {
              count: rows.length,
            })}
          </p>
        )
        : null}
    </div>
  );
}
