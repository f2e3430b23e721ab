/** Responses in the API server's shapes: JSON objects and `Status` failures (operator-k8s.md §6.2). */
import type { ResourceType } from "./resources.ts";

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}

export interface StatusCause {
  reason: string;
  message: string;
  field: string;
}

/** A `Status` failure answer. */
export function failure(
  code: number,
  reason: string,
  message: string,
  details?: Record<string, unknown>,
): Response {
  return json({
    kind: "Status",
    apiVersion: "v1",
    metadata: {},
    status: "Failure",
    message,
    reason,
    ...(details ? { details } : {}),
    code,
  }, code);
}

/** `tenants.minio.min.io` or `pods`: how messages name a resource. */
export const qualified = (r: ResourceType) => (r.group ? `${r.plural}.${r.group}` : r.plural);

export const notFound = (r: ResourceType, name: string) =>
  failure(404, "NotFound", `${qualified(r)} "${name}" not found`, {
    name,
    ...(r.group ? { group: r.group } : {}),
    kind: r.plural,
  });

export const alreadyExists = (r: ResourceType, name: string) =>
  failure(409, "AlreadyExists", `${qualified(r)} "${name}" already exists`, {
    name,
    ...(r.group ? { group: r.group } : {}),
    kind: r.plural,
  });

export const conflict = (r: ResourceType, name: string) =>
  failure(
    409,
    "Conflict",
    `Operation cannot be fulfilled on ${
      qualified(r)
    } "${name}": the object has been modified; please apply your changes to the latest version and try again`,
    { name, ...(r.group ? { group: r.group } : {}), kind: r.plural },
  );

/** 422 Invalid naming each bad field, e.g. `Secret "x" is invalid: data: Forbidden: field is immutable when `immutable` is set`. */
export function invalid(r: ResourceType, name: string, causes: StatusCause[]): Response {
  const kindName = r.group ? `${r.kind}.${r.group}` : r.kind;
  const text = causes.map((c) => `${c.field}: ${c.message}`);
  return failure(
    422,
    "Invalid",
    `${kindName} "${name}" is invalid: ${text.length > 1 ? `[${text.join(", ")}]` : text[0]}`,
    {
      name,
      ...(r.group ? { group: r.group } : {}),
      kind: r.kind,
      causes,
    },
  );
}

export const badRequest = (message: string) => failure(400, "BadRequest", message);
