/**
 * The tenant proxy `/api/proxy/{namespace}/{tenant}/...` (api-index §16, done right): only for an operator
 * whose token may read that Tenant, only to that tenant's own console Service, signed in with the tenant's
 * root credentials from its secrets, under a per-tenant HttpOnly/SameSite=Strict (Secure under TLS) cookie
 * scoped to the proxy path. Bodies stream both ways, the upstream status is passed through, redirects and
 * root-relative links are kept under the proxy path, and WebSockets are relayed. The operator's own cookie
 * never goes upstream.
 */
import type { Context } from "hono";
import type { AppDeps } from "../deps.ts";
import type { AppEnv } from "../session/env.ts";
import type { OperatorDeps } from "../k8s/connection.ts";
import { ApiError } from "../http/errors.ts";
import { operatorOf } from "../session/operator.ts";
import type { Tenant } from "../k8s/types.ts";
import { getTenant, serviceUrl, tenantConfiguration } from "../services/operator/common.ts";
import {
  dropHopByHop,
  formatSetCookie,
  parseCookieHeader,
  parseSetCookie,
  type SetCookie,
} from "./headers.ts";
import { relayWebSocket } from "./websocket.ts";
import { isHttps, isSameOrigin } from "../http/forwarded.ts";
import type { ServeInfo } from "../../lib/http/listener.ts";

/** Bodies rewritten so root-relative links stay under the proxy path; larger ones stream untouched. */
const REWRITE_LIMIT = 4 * 1024 * 1024;
const SESSION_COOKIE = "token";

/** `token-` + hex SHA-1 of "namespace/tenant", the original's per-tenant cookie name. */
export async function tenantCookieName(namespace: string, tenant: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-1", new TextEncoder().encode(`${namespace}/${tenant}`));
  return `token-${new Uint8Array(digest).toHex()}`;
}

interface Upstream {
  /** scheme://host:port of the tenant's console. */
  origin: string;
  client?: Deno.HttpClient;
}

/**
 * The address on the tenant's console for the path after the proxy prefix. It is built from the tenant's
 * origin and never resolved from the path: as a reference, `//host:port/x`, `/\\host:port/x` or
 * `//user@host:port/x` would name another host, which would then get the tenant's root session. The path
 * stays as sent (still percent-encoded, so `%2F` and `%5C` remain characters of a segment) with its dot
 * segments resolved and leading slashes made one.
 */
export function tenantUrl(origin: string, rawPath: string, search: string): URL {
  const url = new URL(origin);
  url.pathname = rawPath.replace(/^[/\\]+/, "/");
  url.search = search;
  return url;
}

/**
 * Cookies the tenant's console sets are kept in the browser under names of their own (`token-<hash>` for its
 * session, `token-<hash>.<name>` for the others), so that only those go back upstream: Deck's own cookies
 * (its session, other tenants', theme, download markers) share the browser's jar but never leave.
 */
function browserCookieName(tenantCookie: string, upstreamName: string): string {
  return upstreamName === SESSION_COOKIE ? tenantCookie : `${tenantCookie}.${upstreamName}`;
}

/** The tenant's own cookies out of the browser's Cookie header, under their upstream names. */
function upstreamCookies(header: string | null, tenantCookie: string): [string, string][] {
  const out: [string, string][] = [];
  for (const [name, value] of parseCookieHeader(header)) {
    if (name.startsWith(`${tenantCookie}.`)) out.push([name.slice(tenantCookie.length + 1), value]);
  }
  return out.filter(([name]) => name !== SESSION_COOKIE);
}

/** Rewrites root-relative URLs of an HTML or CSS body so they stay under the proxy path. */
export function rewriteLinks(text: string, prefix: string, kind: "html" | "css"): string {
  const under = (path: string) => (path.startsWith(prefix) ? path : prefix + path.slice(1));
  if (kind === "css") {
    return text.replace(/url\((['"]?)(\/(?!\/)[^)'"]*)\1\)/g, (_m, q, path) => `url(${q}${under(path)}${q})`);
  }
  return text
    .replace(
      /\b(href|src|action|poster|formaction)=(["'])(\/(?!\/)[^"']*)\2/gi,
      (_m, attr, q, path) => `${attr}=${q}${under(path)}${q}`,
    )
    .replace(/(<meta name="deck-base" content=")[^"]*(")/, `$1${prefix}$2`);
}

export function tenantProxy(deps: AppDeps) {
  let client: Deno.HttpClient | undefined;

  function upstreamFor(origin: string): Upstream {
    if (!origin.startsWith("https:") || !deps.operator?.k8s.caCert) return { origin };
    client ??= Deno.createHttpClient({ caCerts: [deps.operator.k8s.caCert] });
    return { origin, client };
  }

  /** Signs in to the tenant's console with the root credentials of its configuration; the session cookie it sets. */
  async function signIn(
    op: OperatorDeps,
    token: string,
    tenant: Tenant,
    upstream: Upstream,
  ): Promise<SetCookie> {
    const config = await tenantConfiguration(op, token, tenant);
    if (!config.accesskey || !config.secretkey) {
      throw new ApiError(502, "the tenant has no root credentials to sign in with", {
        detail: "neither its credentials secret nor its config.env holds them",
      });
    }
    let res: Response;
    try {
      res = await fetch(`${upstream.origin}/api/v1/login`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: upstream.origin },
        body: JSON.stringify({ accessKey: config.accesskey, secretKey: config.secretkey }),
        signal: AbortSignal.timeout(15_000),
        ...(upstream.client ? { client: upstream.client } : {}),
      } as RequestInit);
    } catch (error) {
      throw new ApiError(502, "the tenant's console cannot be reached", {
        detail: error instanceof Error ? error.message : String(error),
      });
    }
    const text = await res.text();
    const cookie = res.headers.getSetCookie().map(parseSetCookie).find((c) =>
      c.name === SESSION_COOKIE && c.value
    );
    if (!res.ok || !cookie) {
      throw new ApiError(502, "the tenant's console refused the tenant's credentials", {
        detail: `HTTP ${res.status}: ${text.slice(0, 300)}`,
      });
    }
    return cookie;
  }

  async function forward(
    c: Context<AppEnv>,
    upstream: Upstream,
    path: string,
    tenant: { cookie: string; token: string },
    body: BodyInit | null,
  ): Promise<Response> {
    const incoming = c.req.raw;
    const headers = dropHopByHop(new Headers(incoming.headers));
    for (
      const name of [
        "host",
        "cookie",
        "authorization",
        "content-length",
        "x-forwarded-host",
        "x-forwarded-for",
        "x-forwarded-proto",
        "forwarded",
      ]
    ) headers.delete(name);
    const url = tenantUrl(upstream.origin, path, new URL(incoming.url).search);
    // The operator console already refused cross-origin writes (originCheck); upstream sees its own origin.
    if (headers.has("origin")) headers.set("origin", upstream.origin);
    if (headers.has("referer")) headers.set("referer", url.href);
    headers.set("accept-encoding", "identity");
    const kept = upstreamCookies(incoming.headers.get("cookie"), tenant.cookie);
    headers.set(
      "cookie",
      [...kept.map(([n, v]) => `${n}=${v}`), `${SESSION_COOKIE}=${tenant.token}`].join("; "),
    );
    try {
      return await fetch(url, {
        method: incoming.method,
        headers,
        body,
        redirect: "manual",
        // No request signal: a browser that leaves cancels the streamed answer, which cancels the upstream body.
        ...(body ? { duplex: "half" } : {}),
        ...(upstream.client ? { client: upstream.client } : {}),
      } as RequestInit);
    } catch (error) {
      throw new ApiError(502, "the tenant's console cannot be reached", {
        detail: error instanceof Error ? error.message : String(error),
      });
    }
  }

  /** The answer to the browser: status as upstream gave it, headers for a frame of ours, links under the proxy path. */
  async function respond(
    c: Context<AppEnv>,
    res: Response,
    prefix: string,
    upstream: Upstream,
    cookieName: string,
    issued: SetCookie | null,
  ): Promise<Response> {
    const headers = dropHopByHop(new Headers(res.headers));
    headers.delete("set-cookie");
    for (const cookie of [...res.headers.getSetCookie().map(parseSetCookie), ...(issued ? [issued] : [])]) {
      const renamed = { ...cookie, name: browserCookieName(cookieName, cookie.name) };
      headers.append(
        "set-cookie",
        formatSetCookie(renamed, prefix, isHttps(c.req, deps.config.trustForwarded)),
      );
    }
    headers.set("x-frame-options", "SAMEORIGIN");
    const csp = headers.get("content-security-policy");
    if (csp) {
      headers.set("content-security-policy", csp.replace(/frame-ancestors[^;]*/i, "frame-ancestors 'self'"));
    }
    const location = headers.get("location");
    if (location) {
      const target = location.startsWith(upstream.origin)
        ? location.slice(upstream.origin.length) || "/"
        : location;
      if (target.startsWith("/") && !target.startsWith("//")) {
        headers.set("location", target.startsWith(prefix) ? target : prefix + target.slice(1));
      }
    }
    const type = headers.get("content-type") ?? "";
    const kind = type.startsWith("text/html") ? "html" : type.startsWith("text/css") ? "css" : null;
    const length = Number(headers.get("content-length") ?? 0);
    if (!kind || !res.body || length > REWRITE_LIMIT) {
      return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
    }
    headers.delete("content-length");
    return new Response(rewriteLinks(await res.text(), prefix, kind), {
      status: res.status,
      statusText: res.statusText,
      headers,
    });
  }

  return async (c: Context<AppEnv>): Promise<Response> => {
    const { op, token } = operatorOf(c, deps);
    // The path as sent (Hono's c.req.path is decoded, which would turn %5C into a backslash).
    const match = /^\/api\/proxy\/([^/]+)\/([^/]+)(\/.*)?$/.exec(new URL(c.req.url).pathname);
    if (!match) throw ApiError.notFound("not found", "the proxy path is /api/proxy/{namespace}/{tenant}/...");
    let namespace: string, name: string;
    try {
      [namespace, name] = [decodeURIComponent(match[1]), decodeURIComponent(match[2])];
    } catch {
      throw ApiError.notFound("not found", "the namespace or tenant name is not validly percent-encoded");
    }
    const prefix = `${deps.config.subpath}api/proxy/${match[1]}/${match[2]}/`;
    if (!match[3]) return c.redirect(prefix + new URL(c.req.url).search, 302);
    const path = match[3];

    // Reading the Tenant with the operator's own token is the permission check (Kubernetes RBAC decides).
    const tenant = await getTenant(op, token, namespace, name);
    const upstream = upstreamFor(await serviceUrl(op, token, tenant, `${name}-console`, "console"));
    const cookieName = await tenantCookieName(namespace, name);
    const browserToken = parseCookieHeader(c.req.header("cookie") ?? null).find(([n]) => n === cookieName)
      ?.[1];

    if (c.req.header("upgrade")?.toLowerCase() === "websocket") {
      if (!isSameOrigin(c.req, deps.config.trustForwarded)) {
        throw ApiError.forbidden(
          "cross-origin WebSocket refused",
          "the tenant's live views open only from this console",
        );
      }
      const tenantToken = browserToken ?? (await signIn(op, token, tenant, upstream)).value;
      const target = tenantUrl(upstream.origin, path, new URL(c.req.url).search);
      target.protocol = target.protocol === "https:" ? "wss:" : "ws:";
      return relayWebSocket(c.req.raw, (c.env as ServeInfo | undefined)?.upgrade, target.href, {
        cookie: `${SESSION_COOKIE}=${tenantToken}`,
        origin: upstream.origin,
      });
    }

    let issued = browserToken ? null : await signIn(op, token, tenant, upstream);
    const bodiless = c.req.method === "GET" || c.req.method === "HEAD";
    let res = await forward(
      c,
      upstream,
      path,
      { cookie: cookieName, token: browserToken ?? issued!.value },
      bodiless ? null : c.req.raw.body,
    );
    // A stale tenant session (its console restarted, or it expired): sign in again and retry once when the
    // request can be replayed, i.e. has no body.
    const signedOut = res.status === 401 ||
      (res.status >= 300 && res.status < 400 && /\/login(\?|$)/.test(res.headers.get("location") ?? ""));
    if (browserToken && bodiless && signedOut) {
      await res.body?.cancel();
      issued = await signIn(op, token, tenant, upstream);
      res = await forward(c, upstream, path, { cookie: cookieName, token: issued.value }, null);
    }
    return await respond(c, res, prefix, upstream, cookieName, issued);
  };
}
