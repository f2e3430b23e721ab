/** What every verb of the stand-in shares: the request's target, its verb, its body, list items. */
import { decodeProtobufObject } from "./protobuf.ts";
import { type K8sObject, resourceFor, RESOURCES, type ResourceType } from "./resources.ts";
import { badRequest, failure } from "./status.ts";
import type { Store } from "./store.ts";
import type { StandinUser } from "./auth.ts";

export interface StandinContext {
  store: Store;
  /** Token → user. */
  users: Map<string, StandinUser>;
  /** A pod's log text, or undefined when the pod has no such container. */
  podLog(namespace: string, name: string, container: string | null): string | undefined;
}

export interface Target {
  resource: ResourceType;
  namespace?: string;
  name?: string;
  subresource?: string;
}

export const NAMESPACES = RESOURCES.find((r) => r.kind === "Namespace")!;

/** Resolves a resource path (after /api/v1 or /apis/g/v) to its resource, namespace, name and subresource. */
export function resolve(group: string, version: string, segments: string[]): Target | null {
  if (
    segments[0] === "namespaces" && segments.length >= 3 &&
    !(group === "" && ["status", "finalize"].includes(segments[2]))
  ) {
    const resource = resourceFor(group, version, segments[2]);
    if (!resource?.namespaced || segments.length > 5) return null;
    return { resource, namespace: segments[1], name: segments[3], subresource: segments[4] };
  }
  const resource = resourceFor(group, version, segments[0]);
  if (!resource || segments.length > 3) return null;
  return { resource, name: segments[1], subresource: segments[2] };
}

export function verbOf(method: string, target: Target, watch: boolean): string | null {
  const item = target.name !== undefined;
  switch (method) {
    case "GET":
      return item ? "get" : watch ? "watch" : "list";
    case "POST":
      return item ? null : "create";
    case "PUT":
      return item ? "update" : null;
    case "PATCH":
      return item ? "patch" : null;
    case "DELETE":
      return item ? "delete" : "deletecollection";
    default:
      return null;
  }
}

export async function readBody(request: Request): Promise<{ value?: unknown; error?: Response }> {
  if ((request.headers.get("content-type") ?? "").startsWith("application/vnd.kubernetes.protobuf")) {
    try {
      return { value: decodeProtobufObject(new Uint8Array(await request.arrayBuffer())) };
    } catch (error) {
      return {
        error: failure(415, "UnsupportedMediaType", error instanceof Error ? error.message : String(error)),
      };
    }
  }
  const text = await request.text();
  if (!text.trim()) return { error: badRequest("the body of the request was empty") };
  try {
    return { value: JSON.parse(text) };
  } catch (error) {
    return {
      error: badRequest(
        `the object provided is unrecognized (must be of type JSON): ${
          error instanceof Error ? error.message : error
        }`,
      ),
    };
  }
}

/** List items: built-in kinds drop type meta inside lists, custom resources keep it. */
export const listItem = (resource: ResourceType, object: K8sObject) => {
  if (resource.custom) return object;
  const { apiVersion: _a, kind: _k, ...rest } = object;
  return rest;
};
