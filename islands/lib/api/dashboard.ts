/** Browser calls of the Dashboard area (api-index §3). */
import type { WidgetDetails } from "../../../server/lib/contract/dashboard.ts";
import { api } from "../request.ts";

/** A chosen time range in epoch seconds (null: the server's default window) and its step. */
export interface WidgetQuery {
  start: number | null;
  end: number | null;
  step: number;
}

export const dashboardApi = {
  widget: (id: number, query: WidgetQuery) => {
    const params = new URLSearchParams({ step: String(query.step) });
    if (query.start !== null) params.set("start", String(query.start));
    if (query.end !== null) params.set("end", String(query.end));
    // The original console asks with a trailing slash; the server accepts both.
    return api.get<WidgetDetails>(`/api/v1/admin/info/widgets/${id}/?${params}`);
  },
};
