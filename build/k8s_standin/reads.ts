/** The stand-in's reads: lists (selectors, limit/continue, tables), watches, pod logs and token reviews. */
import { apiVersionOf, type K8sObject } from "./resources.ts";
import { listItem, readBody, type StandinContext, type Target } from "./requests.ts";
import { parseFieldSelector, parseLabelSelector, SelectorError } from "./selectors.ts";
import { badRequest, failure, json, notFound } from "./status.ts";
import { toTable, wantsTable } from "./tables.ts";

export function createReads(ctx: StandinContext) {
  const { store } = ctx;
  const openWatches = new Set<() => void>();

  function listObjects(target: Target, url: URL): { items: K8sObject[]; error?: Response } {
    try {
      const byLabel = parseLabelSelector(url.searchParams.get("labelSelector"));
      const byField = parseFieldSelector(url.searchParams.get("fieldSelector"), target.resource.kind);
      return { items: store.list(target.resource, target.namespace).filter((o) => byLabel(o) && byField(o)) };
    } catch (error) {
      if (error instanceof SelectorError) return { items: [], error: badRequest(error.message) };
      throw error;
    }
  }

  function list(target: Target, url: URL, accept: string | null): Response {
    const { items, error } = listObjects(target, url);
    if (error) return error;
    const limit = Number(url.searchParams.get("limit") ?? 0);
    let offset = 0;
    const token = url.searchParams.get("continue");
    if (token) {
      try {
        offset = JSON.parse(atob(token)).offset;
      } catch {
        return failure(400, "BadRequest", "continue key is not valid: illegal base64 data");
      }
    }
    const page = limit > 0 ? items.slice(offset, offset + limit) : items.slice(offset);
    const remaining = items.length - offset - page.length;
    const metadata: Record<string, unknown> = { resourceVersion: store.resourceVersion };
    if (limit > 0 && remaining > 0) {
      metadata.continue = btoa(JSON.stringify({ offset: offset + page.length }));
      metadata.remainingItemCount = remaining;
    } else if (target.resource.custom) metadata.continue = "";
    if (wantsTable(accept)) {
      return json({ ...toTable(target.resource, page, store.resourceVersion), metadata });
    }
    return json({
      apiVersion: apiVersionOf(target.resource),
      kind: `${target.resource.kind}List`,
      metadata,
      items: page.map((o) => listItem(target.resource, o)),
    });
  }

  /** Streams watch events (newline-delimited JSON) until the client leaves or timeoutSeconds pass. */
  function watch(target: Target, url: URL): Response {
    const { error } = listObjects(target, url);
    if (error) return error;
    const byLabel = parseLabelSelector(url.searchParams.get("labelSelector"));
    const byField = parseFieldSelector(url.searchParams.get("fieldSelector"), target.resource.kind);
    const timeout = Number(url.searchParams.get("timeoutSeconds") ?? 1800) * 1000;
    let stop = () => {};
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        const send = (type: string, object: unknown) =>
          controller.enqueue(new TextEncoder().encode(JSON.stringify({ type, object }) + "\n"));
        if (url.searchParams.get("sendInitialEvents") === "true") {
          for (const object of listObjects(target, url).items) send("ADDED", object);
          send("BOOKMARK", {
            apiVersion: apiVersionOf(target.resource),
            kind: target.resource.kind,
            metadata: {
              resourceVersion: store.resourceVersion,
              annotations: { "k8s.io/initial-events-end": "true" },
            },
          });
        }
        const unsubscribe = store.subscribe((event) => {
          if (event.resource !== target.resource) return;
          if (target.namespace !== undefined && event.object.metadata.namespace !== target.namespace) return;
          if (byLabel(event.object) && byField(event.object)) send(event.type, event.object);
        });
        const timer = setTimeout(() => stop(), timeout);
        stop = () => {
          openWatches.delete(stop);
          clearTimeout(timer);
          unsubscribe();
          try {
            controller.close();
          } catch { /* already closed */ }
        };
        openWatches.add(stop);
      },
      cancel() {
        stop();
      },
    });
    return new Response(body, {
      headers: { "content-type": "application/json", "transfer-encoding": "chunked" },
    });
  }

  function podLog(target: Target, url: URL): Response {
    if (!store.get(target.resource, target.namespace, target.name!)) {
      return notFound(target.resource, target.name!);
    }
    const text = ctx.podLog(target.namespace!, target.name!, url.searchParams.get("container"));
    if (text === undefined) {
      return badRequest(`container ${url.searchParams.get("container")} is not valid for pod ${target.name}`);
    }
    const tail = Number(url.searchParams.get("tailLines") ?? 0);
    const lines = tail > 0 ? text.split("\n").filter(Boolean).slice(-tail).join("\n") + "\n" : text;
    return new Response(lines, { headers: { "content-type": "text/plain" } });
  }

  async function tokenReview(request: Request): Promise<Response> {
    const body = await readBody(request);
    if (body.error) return body.error;
    const token = (body.value as { spec?: { token?: string } })?.spec?.token ?? "";
    const user = ctx.users.get(token);
    return json({
      apiVersion: "authentication.k8s.io/v1",
      kind: "TokenReview",
      metadata: { creationTimestamp: null },
      spec: { token },
      status: user
        ? { authenticated: true, user: { username: user.username, uid: user.uid, groups: user.groups } }
        : { user: {} },
    }, 201);
  }

  return {
    listObjects,
    list,
    watch,
    podLog,
    tokenReview,
    closeWatches: () => [...openWatches].forEach((stop) => stop()),
  };
}
