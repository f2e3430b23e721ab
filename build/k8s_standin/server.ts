/**
 * The stand-in Kubernetes API server's HTTP front: bearer-token authentication, RBAC-style authorisation,
 * discovery and OpenAPI, and get/list/watch/create/update/patch/delete/deletecollection on every kind of
 * resources.ts, with list wrappers, `Status` errors, resourceVersion conflicts, selectors, limit/continue,
 * server-side tables, pod logs and token reviews. It knows nothing of the console.
 */
import { type AccessRequest, forbiddenMessage, isAllowed, type StandinUser } from "./auth.ts";
import {
  apiGroupDocument,
  apiGroupList,
  apiResourceList,
  apiVersions,
  openApiDocument,
  openApiIndex,
  SERVER_VERSION,
} from "./discovery.ts";
import { createMutations } from "./mutations.ts";
import { createReads } from "./reads.ts";
import { NAMESPACES, resolve, type StandinContext, verbOf } from "./requests.ts";
import { TOKEN_REVIEW } from "./resources.ts";
import { failure, json, notFound } from "./status.ts";
import { Store } from "./store.ts";
import { toTable, wantsTable } from "./tables.ts";

export type { StandinContext };

export interface StandinHandler {
  handle(request: Request): Promise<Response>;
  /** Ends every open watch (before shutting the listener down, which waits for open responses). */
  closeWatches(): void;
}

export function createStandinHandler(ctx: StandinContext, address: () => string): StandinHandler {
  const { store } = ctx;
  const reads = createReads(ctx);
  const { listObjects, list, watch, podLog, tokenReview } = reads;
  const { create, update, patch, remove, removeCollection } = createMutations(ctx, listObjects);

  async function resourceRequest(
    user: StandinUser,
    request: Request,
    url: URL,
    group: string,
    version: string,
    segments: string[],
  ): Promise<Response> {
    if (
      group === TOKEN_REVIEW.group && version === TOKEN_REVIEW.version &&
      segments.join("/") === TOKEN_REVIEW.plural && request.method === "POST"
    ) {
      return await tokenReview(request);
    }
    const target = resolve(group, version, segments);
    if (!target) return failure(404, "NotFound", "the server could not find the requested resource");
    const isWatch = ["true", "1"].includes(url.searchParams.get("watch") ?? "");
    const verb = verbOf(request.method, target, isWatch);
    if (!verb) {
      return failure(
        405,
        "MethodNotAllowed",
        `the server does not allow this method on the requested resource`,
      );
    }
    if (
      target.subresource && !(target.subresource === "status" && target.resource.statusSubresource) &&
      !(target.resource.subresources ?? []).includes(target.subresource)
    ) {
      return failure(404, "NotFound", "the server could not find the requested resource");
    }
    const access: AccessRequest = {
      verb,
      group,
      resource: target.resource.plural,
      subresource: target.subresource,
      namespace: target.namespace,
      name: target.name,
    };
    if (target.resource === NAMESPACES && target.name) access.namespace = target.name;
    if (!isAllowed(user, access)) {
      return failure(403, "Forbidden", forbiddenMessage(user, access), {
        ...(target.name ? { name: target.name } : {}),
        ...(group ? { group } : {}),
        kind: target.resource.plural,
      });
    }
    const accept = request.headers.get("accept");
    if (target.subresource === "log") {
      return request.method === "GET"
        ? podLog(target, url)
        : failure(405, "MethodNotAllowed", "method not allowed");
    }
    switch (verb) {
      case "list":
        return list(target, url, accept);
      case "watch":
        return watch(target, url);
      case "get": {
        const object = store.get(target.resource, target.namespace, target.name!);
        if (!object) return notFound(target.resource, target.name!);
        return wantsTable(accept)
          ? json(toTable(target.resource, [object], store.resourceVersion))
          : json(object);
      }
      case "create":
        return await create(target, request, url);
      case "update":
        return await update(target, request, url);
      case "patch":
        return await patch(target, request, url);
      case "delete":
        return remove(target);
      default:
        return removeCollection(target, url);
    }
  }

  const handle = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    const path = url.pathname.replace(/\/+$/, "") || "/";
    if (["/healthz", "/livez", "/readyz"].includes(path)) return new Response("ok");
    const token = /^Bearer\s+(\S+)$/i.exec(request.headers.get("authorization") ?? "")?.[1];
    const user = token ? ctx.users.get(token) : undefined;
    if (!user) {
      await request.body?.cancel();
      return failure(401, "Unauthorized", "Unauthorized");
    }
    const segments = path.split("/").filter(Boolean);
    if (request.method === "GET") {
      if (path === "/version") return json(SERVER_VERSION);
      if (path === "/api") return json(apiVersions(address()));
      if (path === "/apis") return json(apiGroupList());
      if (path === "/openapi/v3") return json(await openApiIndex());
      if (segments[0] === "openapi" && segments[1] === "v3") {
        const doc = segments[2] === "api"
          ? openApiDocument("", segments[3])
          : openApiDocument(segments[3], segments[4]);
        return doc ? json(doc) : failure(404, "NotFound", "the server could not find the requested resource");
      }
      if (segments[0] === "api" && segments.length === 2) return resourceListOr404("", segments[1]);
      if (segments[0] === "apis" && segments.length === 2) {
        const doc = apiGroupDocument(segments[1]);
        return doc ? json(doc) : failure(404, "NotFound", "the server could not find the requested resource");
      }
      if (segments[0] === "apis" && segments.length === 3) return resourceListOr404(segments[1], segments[2]);
    }
    if (segments[0] === "api" && segments.length > 2) {
      return await resourceRequest(user, request, url, "", segments[1], segments.slice(2));
    }
    if (segments[0] === "apis" && segments.length > 3) {
      return await resourceRequest(user, request, url, segments[1], segments[2], segments.slice(3));
    }
    await request.body?.cancel();
    return failure(404, "NotFound", "the server could not find the requested resource");
  };
  return { handle, closeWatches: reads.closeWatches };
}

function resourceListOr404(group: string, version: string): Response {
  const doc = apiResourceList(group, version);
  return doc ? json(doc) : failure(404, "NotFound", "the server could not find the requested resource");
}

export { Store };
