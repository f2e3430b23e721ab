/**
 * The tools area's request/response calls (api-index §8, §15): the audit log search. The live streams are
 * WebSocket relays (server/console/ws/). Filter values travel as encoded query parameters, never spliced into text.
 */
import {
  AUDIT_FILTER_KEYS,
  type AuditFilterKey,
  type AuditRow,
  type LogSearchResponse,
} from "../../lib/contract/tools.ts";
import type { LogSearchEndpoint } from "../config/endpoints.ts";
import { ApiError } from "../http/errors.ts";
import { statusText } from "../../lib/http/status.ts";
import { t } from "../../../islands/lib/i18n/t.ts";
// Installs the per-request language (English outside a request) for the texts below.
import "../render/i18n.ts";
import { allows, type LiveAccess, type LiveAccessDeps, requireAction } from "../session/live_access.ts";
import type { SessionData } from "../session/token.ts";

export interface AuditSearchInput {
  filters: { key: AuditFilterKey; value: string }[];
  pageSize: number;
  pageNo: number;
  order: "timeDesc" | "timeAsc";
  timeStart: string;
  timeEnd: string;
}

/**
 * What searching the audit log asks of the account: MinIO's console shows its Audit Logs only to policies
 * allowing admin:OBDInfo (the health-info scope), since the log holds every user's requests.
 */
export const AUDIT_SEARCH_ACTION = "admin:OBDInfo";

/** The audit log search the console was given, if any. */
export interface LogSearchDeps {
  logSearch?: LogSearchEndpoint | null;
}

/** Whether the session may search the audit log now: "yes", or why not. */
export function auditSearchState(
  deps: LogSearchDeps,
  access: LiveAccess,
): "yes" | "no-service" | "forbidden" {
  if (!deps.logSearch) return "no-service";
  return allows(access, AUDIT_SEARCH_ACTION) ? "yes" : "forbidden";
}

/**
 * The session's features (api-index §13.6): log-search when a log search is available and the account may
 * search it now (the original listed it for every session and let anyone search).
 */
export function sessionFeatures(deps: LogSearchDeps, access: LiveAccess): string[] {
  return auditSearchState(deps, access) === "yes" ? ["log-search"] : [];
}

const RFC3339 = /^\d{4}-\d\d-\d\d(T\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d))?$/i;

/**
 * The log search keeps the status as text ("Not Found", minio-protocol-2 §3.5) while the table shows the code
 * beside it: a code ("404") or what the table shows ("404 Not Found") searches by the text. A code with
 * wildcards ("4*") cannot be matched against text, so it is refused rather than finding nothing.
 */
export function statusFilter(value: string): string {
  const shown = /^(\d{3})(?:\s+(.*))?$/.exec(value.trim());
  if (shown) return shown[2] || statusText(Number(shown[1])) || value;
  if (/^[\d*.]+$/.test(value) && /\d/.test(value)) {
    throw ApiError.badRequest(
      t("monitoring.audit.statusFilterInvalid"),
      `the log search matches the status text, so "${value}" cannot match a range of codes`,
    );
  }
  return value;
}

/** Reads GET /api/v1/logs/search's query; 400 naming the bad parameter. */
export function parseAuditSearch(query: URLSearchParams): AuditSearchInput {
  const filters = query.getAll("fp").map((fp) => {
    const colon = fp.indexOf(":");
    const key = fp.slice(0, colon) as AuditFilterKey;
    if (colon < 1 || !AUDIT_FILTER_KEYS.includes(key)) {
      throw ApiError.badRequest(
        "invalid filter",
        `fp must be one of ${AUDIT_FILTER_KEYS.join(", ")} followed by ":" and a value; got "${fp}"`,
      );
    }
    const value = fp.slice(colon + 1);
    return { key, value: key === "response_status" ? statusFilter(value) : value };
  }).filter((f) => f.value !== "");
  const integer = (name: string, fallback: number, min: number, max: number) => {
    const text = query.get(name);
    if (text === null || text === "") return fallback;
    const value = Number(text);
    if (!Number.isInteger(value) || value < min || value > max) {
      throw ApiError.badRequest(
        `${name} must be a whole number from ${min} to ${max}`,
        `${name} is "${text}"`,
      );
    }
    return value;
  };
  const order = query.get("order") || "timeDesc";
  if (order !== "timeDesc" && order !== "timeAsc") {
    throw ApiError.badRequest("order must be timeDesc or timeAsc", `order is "${order}"`);
  }
  const time = (name: string) => {
    const text = query.get(name) ?? "";
    if (text && !RFC3339.test(text)) {
      throw ApiError.badRequest(`${name} must be an RFC 3339 time`, `${name} is "${text}"`);
    }
    return text;
  };
  return {
    filters,
    pageSize: integer("pageSize", 10, 10, 10000),
    pageNo: integer("pageNo", 0, 0, 1_000_000),
    order,
    timeStart: time("timeStart"),
    timeEnd: time("timeEnd"),
  };
}

/**
 * Asks the log search for one page of audit rows, with the console's token, for a session whose account may
 * search it now (checked with its own credentials: a signed-out, disabled or deleted account reads nothing).
 */
export async function searchAuditLog(
  deps: LogSearchDeps & LiveAccessDeps,
  session: SessionData,
  input: AuditSearchInput,
): Promise<LogSearchResponse> {
  await requireAction(deps, session, AUDIT_SEARCH_ACTION, "searching the audit log");
  const endpoint = deps.logSearch;
  if (!endpoint) {
    throw new ApiError(500, t("monitoring.audit.unavailable"), { detail: "no log search is configured" });
  }
  const params = new URLSearchParams({ token: endpoint.token, q: "reqinfo" });
  for (const filter of input.filters) params.append("fp", `${filter.key}:${filter.value}`);
  params.set(input.order, "ok");
  if (input.timeStart) params.set("timeStart", input.timeStart);
  if (input.timeEnd) params.set("timeEnd", input.timeEnd);
  params.set("pageSize", String(input.pageSize));
  // The original service reads pageStart and ignored the console's pageNo; send both so paging works with either.
  params.set("pageNo", String(input.pageNo));
  params.set("pageStart", String(input.pageNo));
  let res: Response;
  try {
    res = await endpoint.fetch(`${endpoint.url}/api/query?${params}`, {
      signal: AbortSignal.timeout(30_000),
    });
  } catch (error) {
    throw new ApiError(500, t("monitoring.audit.unavailable"), {
      detail: error instanceof Error ? error.message : String(error),
    });
  }
  const text = await res.text();
  if (res.status !== 200) {
    throw new ApiError(
      res.status >= 400 && res.status < 600 ? res.status : 502,
      t("monitoring.audit.retrieveFailed", { reason: res.statusText || String(res.status) }),
      { detail: text.trim().replace(/token=[^&\s]+/g, "token=*") },
    );
  }
  let rows: AuditRow[] | null;
  try {
    rows = JSON.parse(text);
  } catch {
    throw new ApiError(502, t("monitoring.audit.notJson"));
  }
  return { results: rows ?? [] };
}
