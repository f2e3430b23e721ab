/**
 * The one browser fetch wrapper every island uses: prefixes the console's base path (its subpath, or the
 * first four segments under /api/proxy/, spec 1 §2), sends and parses JSON, turns error bodies into ApiClientError
 * with the spec's message rules (spec 1 §8), and sends the browser to sign-in on 401 or a network failure.
 */
import { trackRequest } from "./notify.ts";
import { capitalize, detailBeside } from "./messages.ts";
import { t } from "./i18n/t.ts";

export class ApiClientError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly detail: string,
    readonly fields?: Record<string, string>,
  ) {
    super(message);
    this.name = "ApiClientError";
  }
}

/** Base path every console URL starts with, e.g. "/" or "/console/". */
export function basePath(): string {
  const path = location.pathname;
  if (path.startsWith("/api/proxy/")) return path.split("/").slice(0, 5).join("/") + "/";
  return document.querySelector<HTMLMetaElement>('meta[name="deck-base"]')?.content || "/";
}

/** Full URL path for an API path such as "/api/v1/users". */
export const apiUrl = (path: string) => basePath() + path.replace(/^\/+/, "");

function toLogin(): void {
  location.assign(basePath() + "login");
}

/** Makes an API call; resolves with the parsed JSON body (undefined for empty bodies). */
export async function request<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
  let res: Response;
  try {
    res = await trackRequest(fetch(apiUrl(path), {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: "same-origin",
    }));
  } catch (error) {
    toLogin();
    throw new ApiClientError(
      0,
      t("common.error.consoleUnreachable"),
      error instanceof Error ? error.message : String(error),
    );
  }
  const text = await res.text();
  let data: unknown = undefined;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = text;
    }
  }
  if (res.ok) return data as T;
  if (res.status === 401 && !path.startsWith("/api/v1/login")) {
    localStorage.removeItem("userLoggedIn");
    toLogin();
  }
  const error = (data ?? {}) as {
    message?: string;
    detailedMessage?: string;
    fields?: Record<string, string>;
  };
  const message = capitalize(error.message || t("common.error.status", { status: String(res.status) }));
  const detail = detailBeside(message, error.detailedMessage ?? "");
  throw new ApiClientError(res.status, message, detail, error.fields);
}

export const api = {
  get: <T>(path: string) => request<T>("GET", path),
  post: <T>(path: string, body: unknown = {}) => request<T>("POST", path, body),
  put: <T>(path: string, body: unknown = {}) => request<T>("PUT", path, body),
  delete: <T>(path: string, body?: unknown) => request<T>("DELETE", path, body),
};

/** Encodes one path segment (names may contain slashes or spaces). */
export const segment = (value: string) => encodeURIComponent(value);
