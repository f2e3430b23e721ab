/**
 * A small typed client of the Kubernetes REST API (operator-k8s.md §1): JSON over fetch, the caller's bearer
 * token on every call (so the cluster's RBAC decides), a trusted CA for the API server, a timeout on every
 * call, and `Status` failures turned into K8sError. Knows no Hono and no console session.
 *
 *   const k8s = new K8sClient({ baseUrl: "https://10.0.0.1:6443", caCert: pem });
 *   const tenant = await k8s.get<Tenant>(token, tenantPath("ns", "acme"));
 */

/** A failed Kubernetes call: the HTTP status and the `Status` reason and message the API server gave. */
export class K8sError extends Error {
  constructor(
    readonly status: number,
    readonly reason: string,
    message: string,
  ) {
    super(message);
    this.name = "K8sError";
  }
}

export interface K8sConnection {
  /** Origin of the API server, without trailing slash. */
  baseUrl: string;
  /** PEM CA certificates trusted for the API server (none: the system roots). */
  caCert?: string;
}

export interface RequestOptions {
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  contentType?: string;
  /** Milliseconds; defaults to the client's. */
  timeoutMs?: number;
  /** Read the answer as text (pod logs). */
  text?: boolean;
}

/** How long a call may take unless the caller says otherwise: long enough for a slow cluster, short enough not to hang a page. */
export const DEFAULT_TIMEOUT_MS = 15_000;

/** Reasons the Go client synthesises when the body is not a Status (operator-k8s.md §1.3). */
const REASON_BY_STATUS: Record<number, string> = {
  400: "BadRequest",
  401: "Unauthorized",
  403: "Forbidden",
  404: "NotFound",
  405: "MethodNotAllowed",
  409: "Conflict",
  415: "UnsupportedMediaType",
  422: "Invalid",
  429: "TooManyRequests",
  500: "InternalError",
  503: "ServiceUnavailable",
  504: "Timeout",
};

export class K8sClient {
  readonly baseUrl: string;
  /** The CA trusted for the API server; in a cluster it also signs tenants' auto-cert certificates. */
  readonly caCert?: string;
  #fetch: typeof fetch;
  #httpClient?: Deno.HttpClient;
  #timeoutMs: number;

  constructor(connection: K8sConnection, options: { fetch?: typeof fetch; timeoutMs?: number } = {}) {
    this.baseUrl = connection.baseUrl.replace(/\/+$/, "");
    this.#fetch = options.fetch ?? globalThis.fetch;
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.caCert = connection.caCert;
    if (connection.caCert) this.#httpClient = Deno.createHttpClient({ caCerts: [connection.caCert] });
  }

  /** Sends one call and parses its JSON (or text) answer; throws K8sError on any failure. */
  async request<T>(token: string, method: string, path: string, options: RequestOptions = {}): Promise<T> {
    const url = new URL(this.baseUrl + path);
    for (const [key, value] of Object.entries(options.query ?? {})) {
      if (value !== undefined && value !== "") url.searchParams.set(key, String(value));
    }
    const timeoutMs = options.timeoutMs ?? this.#timeoutMs;
    let res: Response;
    try {
      res = await this.#fetch(url, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          accept: options.text ? "text/plain, */*" : "application/json, */*",
          ...(options.body !== undefined
            ? { "content-type": options.contentType ?? "application/json" }
            : {}),
        },
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        signal: AbortSignal.timeout(timeoutMs),
        ...(this.#httpClient ? { client: this.#httpClient } : {}),
      } as RequestInit);
    } catch (error) {
      if (error instanceof DOMException && error.name === "TimeoutError") {
        throw new K8sError(
          504,
          "Timeout",
          `the Kubernetes API server did not answer within ${timeoutMs / 1000} s (${method} ${path})`,
        );
      }
      throw new K8sError(
        503,
        "ServiceUnavailable",
        `the Kubernetes API server at ${this.baseUrl} cannot be reached: ${
          error instanceof Error ? error.message : error
        }`,
      );
    }
    const text = await res.text();
    if (!res.ok) {
      let reason = REASON_BY_STATUS[res.status] ?? "Unknown";
      let message = text.trim() || res.statusText || `HTTP ${res.status}`;
      try {
        const status = JSON.parse(text);
        if (status?.kind === "Status") {
          reason = status.reason || reason;
          message = status.message || message;
        }
      } catch { /* not a Status: keep the synthesised reason */ }
      throw new K8sError(res.status, reason, message);
    }
    if (options.text) return text as T;
    return (text ? JSON.parse(text) : undefined) as T;
  }

  get<T>(token: string, path: string, options?: RequestOptions): Promise<T> {
    return this.request<T>(token, "GET", path, options);
  }

  /** Lists a collection; `labelSelector`, `fieldSelector` and `limit` go in the query. */
  list<T>(
    token: string,
    path: string,
    query: { labelSelector?: string; fieldSelector?: string; limit?: number } = {},
    timeoutMs?: number,
  ): Promise<{ items: T[]; metadata?: { continue?: string; resourceVersion?: string } }> {
    return this.request(token, "GET", path, { query, timeoutMs });
  }

  create<T>(token: string, path: string, object: unknown): Promise<T> {
    return this.request<T>(token, "POST", path, { body: object });
  }

  /** PUT of the whole object (its metadata.resourceVersion makes it conditional). */
  replace<T>(token: string, path: string, object: unknown): Promise<T> {
    return this.request<T>(token, "PUT", path, { body: object });
  }

  /** JSON merge patch (RFC 7386), the only patch kind the console sends. */
  mergePatch<T>(token: string, path: string, patch: unknown): Promise<T> {
    return this.request<T>(token, "PATCH", path, {
      body: patch,
      contentType: "application/merge-patch+json",
    });
  }

  delete(
    token: string,
    path: string,
    query?: { labelSelector?: string; fieldSelector?: string },
  ): Promise<unknown> {
    return this.request(token, "DELETE", path, { query });
  }

  close(): void {
    this.#httpClient?.close();
  }
}

const seg = encodeURIComponent;

/** `/api/v1/...` for core kinds: namespaced when `namespace` is given. */
export function corePath(
  resource: string,
  options: { namespace?: string; name?: string; sub?: string } = {},
): string {
  let path = "/api/v1";
  if (options.namespace !== undefined) path += `/namespaces/${seg(options.namespace)}`;
  path += `/${resource}`;
  if (options.name !== undefined) path += `/${seg(options.name)}`;
  if (options.sub) path += `/${options.sub}`;
  return path;
}

/** `/apis/{group}/{version}/...` for named groups. */
export function groupPath(
  groupVersion: string,
  resource: string,
  options: { namespace?: string; name?: string } = {},
): string {
  let path = `/apis/${groupVersion}`;
  if (options.namespace !== undefined) path += `/namespaces/${seg(options.namespace)}`;
  path += `/${resource}`;
  if (options.name !== undefined) path += `/${seg(options.name)}`;
  return path;
}

/** The Tenant resource (minio.min.io/v2) of one namespace, or all namespaces without one. */
export const tenantPath = (namespace?: string, name?: string) =>
  groupPath("minio.min.io/v2", "tenants", { namespace, name });
