/** Browser calls of the tools area (api-index §8): the audit log search. Live streams use live_socket.ts. */
import type { AuditFilterKey, LogSearchResponse } from "../../../server/lib/contract/tools.ts";
import { api } from "../request.ts";

export interface AuditSearch {
  filters: Partial<Record<AuditFilterKey, string>>;
  /** ISO times; "" for no bound. */
  timeStart: string;
  timeEnd: string;
  order: "timeDesc" | "timeAsc";
  pageSize: number;
  pageNo: number;
}

export const toolsApi = {
  /** One page of audit rows; filters are added only when non-empty (spec 3 §5). */
  searchLogs: async (search: AuditSearch) => {
    const params = new URLSearchParams({ q: "reqinfo" });
    for (const [key, value] of Object.entries(search.filters)) {
      if (value?.trim()) params.append("fp", `${key}:${value.trim()}`);
    }
    params.set("pageSize", String(search.pageSize));
    params.set("pageNo", String(search.pageNo));
    params.set("order", search.order);
    if (search.timeStart) params.set("timeStart", search.timeStart);
    if (search.timeEnd) params.set("timeEnd", search.timeEnd);
    return (await api.get<LogSearchResponse>(`/api/v1/logs/search?${params}`)).results ?? [];
  },
};
