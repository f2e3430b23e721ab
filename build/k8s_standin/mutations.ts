/** The stand-in's writes: create, update, patch (merge, JSON, strategic), delete and deletecollection. */
import { jsonPatch, mergePatch, PatchError, strategicMergePatch } from "./patch.ts";
import { apiVersionOf, type K8sObject, RESOURCES } from "./resources.ts";
import { listItem, NAMESPACES, readBody, type StandinContext, type Target } from "./requests.ts";
import { alreadyExists, conflict, failure, json, notFound } from "./status.ts";
import { prepareWrite } from "./writes.ts";

export function createMutations(
  ctx: StandinContext,
  listObjects: (target: Target, url: URL) => { items: K8sObject[]; error?: Response },
) {
  const { store } = ctx;

  function withWarnings(response: Response, warnings: string[]): Response {
    for (const w of warnings) response.headers.append("warning", `299 - "${w.replace(/"/g, '\\"')}"`);
    return response;
  }

  async function create(target: Target, request: Request, url: URL): Promise<Response> {
    if (target.resource.namespaced && !store.get(NAMESPACES, undefined, target.namespace!)) {
      return notFound(NAMESPACES, target.namespace!);
    }
    const body = await readBody(request);
    if (body.error) return body.error;
    const outcome = prepareWrite(target.resource, body.value, {
      namespace: target.namespace,
      fieldValidation: url.searchParams.get("fieldValidation"),
    });
    if (outcome.error) return outcome.error;
    const object = outcome.object!;
    delete object.metadata.resourceVersion;
    if (store.get(target.resource, target.namespace, object.metadata.name)) {
      return alreadyExists(target.resource, object.metadata.name);
    }
    if (url.searchParams.get("dryRun") === "All") return withWarnings(json(object, 201), outcome.warnings);
    return withWarnings(json(store.create(target.resource, object), 201), outcome.warnings);
  }

  async function update(target: Target, request: Request, url: URL): Promise<Response> {
    const current = store.get(target.resource, target.namespace, target.name!);
    if (!current) return notFound(target.resource, target.name!);
    const body = await readBody(request);
    if (body.error) return body.error;
    return store_(target, current, body.value, url, false);
  }

  async function patch(target: Target, request: Request, url: URL): Promise<Response> {
    const current = store.get(target.resource, target.namespace, target.name!);
    if (!current) return notFound(target.resource, target.name!);
    const type = (request.headers.get("content-type") ?? "").split(";")[0].trim();
    const body = await readBody(request);
    if (body.error) return body.error;
    let patched: unknown;
    try {
      if (type === "application/merge-patch+json") patched = mergePatch(current, body.value);
      else if (type === "application/json-patch+json") patched = jsonPatch(current, body.value);
      else if (type === "application/strategic-merge-patch+json" && !target.resource.custom) {
        patched = strategicMergePatch(current, body.value);
      } else {return failure(
          415,
          "UnsupportedMediaType",
          `the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json${
            target.resource.custom ? "" : ", application/strategic-merge-patch+json"
          }`,
        );}
    } catch (error) {
      if (error instanceof PatchError) return failure(422, "Invalid", error.message);
      throw error;
    }
    return store_(target, current, patched, url, true);
  }

  /** The shared tail of update and patch: resourceVersion precondition, validation, store. */
  function store_(target: Target, current: K8sObject, next: unknown, url: URL, isPatch: boolean): Response {
    const given = (next as K8sObject)?.metadata?.resourceVersion;
    if (given !== undefined && given !== "" && given !== current.metadata.resourceVersion) {
      return conflict(target.resource, target.name!);
    }
    if (!isPatch && (given === undefined || given === "") && target.resource.custom) {
      return failure(
        422,
        "Invalid",
        `${target.resource.kind}.${target.resource.group} "${target.name}" is invalid: metadata.resourceVersion: Invalid value: 0x0: must be specified for an update`,
      );
    }
    const outcome = prepareWrite(target.resource, next, {
      namespace: target.namespace,
      name: target.name,
      fieldValidation: url.searchParams.get("fieldValidation"),
      previous: current,
      statusOnly: target.subresource === "status",
    });
    if (outcome.error) return outcome.error;
    if (url.searchParams.get("dryRun") === "All") return withWarnings(json(outcome.object), outcome.warnings);
    return withWarnings(json(store.replace(target.resource, outcome.object!)), outcome.warnings);
  }

  function remove(target: Target): Response {
    const removed = store.delete(target.resource, target.namespace, target.name!);
    if (!removed) return notFound(target.resource, target.name!);
    if (target.resource === NAMESPACES) {
      for (const r of RESOURCES.filter((r) => r.namespaced)) {
        for (const o of store.list(r, removed.metadata.name)) {
          store.delete(r, o.metadata.namespace, o.metadata.name);
        }
      }
    }
    return json(removed);
  }

  function removeCollection(target: Target, url: URL): Response {
    const { items, error } = listObjects(target, url);
    if (error) return error;
    const removed = items.map((o) => store.delete(target.resource, o.metadata.namespace, o.metadata.name))
      .filter(Boolean) as K8sObject[];
    return json({
      apiVersion: apiVersionOf(target.resource),
      kind: `${target.resource.kind}List`,
      metadata: { resourceVersion: store.resourceVersion },
      items: removed.map((o) => listItem(target.resource, o)),
    });
  }

  return { create, update, patch, remove, removeCollection };
}
