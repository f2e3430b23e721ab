/**
 * What the API server checks on every write before storing: type meta, namespace and name, schema (unknown
 * fields pruned or refused under `fieldValidation=Strict`), Secret data encoding and immutability, and the
 * status subresource rule.
 */
import type { K8sObject, ResourceType } from "./resources.ts";
import { apiVersionOf } from "./resources.ts";
import { checkAndPrune } from "./schema.ts";
import { badRequest, invalid, type StatusCause } from "./status.ts";

const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

export interface WriteOutcome {
  object?: K8sObject;
  error?: Response;
  /** `Warning` header values (fieldValidation=Warn). */
  warnings: string[];
}

/** Checks and normalises an object about to be created or replaced. `previous` is the stored one on updates. */
export function prepareWrite(
  resource: ResourceType,
  input: unknown,
  options: {
    namespace?: string;
    name?: string;
    fieldValidation: string | null;
    previous?: K8sObject;
    statusOnly?: boolean;
  },
): WriteOutcome {
  const warnings: string[] = [];
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    return { error: badRequest("the body of the request was in an unknown format"), warnings };
  }
  const object = structuredClone(input) as K8sObject;
  object.metadata ??= {};
  if (object.apiVersion !== undefined && object.apiVersion !== apiVersionOf(resource)) {
    return {
      error: badRequest(
        `the API version in the data (${object.apiVersion}) does not match the expected API version (${
          apiVersionOf(resource)
        })`,
      ),
      warnings,
    };
  }
  if (object.kind !== undefined && object.kind !== resource.kind) {
    return {
      error: badRequest(
        `the kind in the data (${object.kind}) does not match the expected kind (${resource.kind})`,
      ),
      warnings,
    };
  }
  if (resource.namespaced) {
    if (object.metadata.namespace && options.namespace && object.metadata.namespace !== options.namespace) {
      return {
        error: badRequest(
          "the namespace of the provided object does not match the namespace sent on the request",
        ),
        warnings,
      };
    }
    object.metadata.namespace = options.namespace;
  } else delete object.metadata.namespace;
  if (!object.metadata.name && object.metadata.generateName && !options.previous) {
    object.metadata.name = object.metadata.generateName + crypto.randomUUID().slice(0, 5);
  }
  if (options.name && object.metadata.name && object.metadata.name !== options.name) {
    return {
      error: badRequest(
        `the name of the object (${object.metadata.name}) does not match the name on the URL (${options.name})`,
      ),
      warnings,
    };
  }
  const name: string = object.metadata.name ?? options.name ?? "";
  object.metadata.name = name;

  const problems = checkAndPrune(resource.schema, object);
  if (problems.unknown.length) {
    if (options.fieldValidation === "Strict") {
      const list = problems.unknown.map((p) => `unknown field "${p}"`);
      return { error: badRequest(`strict decoding error: ${list.join(", ")}`), warnings };
    }
    if (options.fieldValidation !== "Ignore") {
      warnings.push(...problems.unknown.map((p) => `unknown field "${p}"`));
    }
  }
  const causes: StatusCause[] = [];
  if (!name) {
    causes.push({
      reason: "FieldValueRequired",
      message: "Required value: name or generateName is required",
      field: "metadata.name",
    });
  } else {
    const label = resource.kind === "Namespace";
    const ok = label
      ? DNS_LABEL.test(name) && name.length <= 63
      : DNS_SUBDOMAIN.test(name) && name.length <= 253;
    if (!ok) {
      causes.push({
        reason: "FieldValueInvalid",
        field: "metadata.name",
        message: `Invalid value: "${name}": a lowercase RFC 1123 ${
          label ? "label" : "subdomain"
        } must consist of lower case alphanumeric characters${
          label ? "" : ", '.'"
        } or '-', and must start and end with an alphanumeric character`,
      });
    }
  }
  // Custom resources are validated against their schema; built-in kinds fail to decode on wrong types (400).
  for (const p of problems.invalid) {
    if (!resource.custom) {
      return {
        error: badRequest(
          `${resource.kind} in version "${resource.version}" cannot be handled as a ${resource.kind}: ${p.path}: ${p.message}`,
        ),
        warnings,
      };
    }
    causes.push({
      reason: p.message === "Required value" ? "FieldValueRequired" : "FieldValueInvalid",
      message: p.message,
      field: p.path,
    });
  }
  if (resource.kind === "Secret") causes.push(...normaliseSecret(object, options.previous));
  if (causes.length) return { error: invalid(resource, name, causes), warnings };

  const previous = options.previous;
  if (resource.statusSubresource) {
    if (options.statusOnly && previous) {
      // The status subresource writes status only; everything else stays as stored.
      return { object: { ...previous, status: object.status }, warnings };
    }
    if (previous) object.status = previous.status;
    else delete object.status;
  }
  return { object, warnings };
}

/** Secrets: stringData folds into data, data must be base64, immutable Secrets keep their data. */
function normaliseSecret(secret: K8sObject, previous?: K8sObject): StatusCause[] {
  const causes: StatusCause[] = [];
  if (secret.stringData) {
    secret.data ??= {};
    for (const [key, value] of Object.entries(secret.stringData as Record<string, string>)) {
      secret.data[key] = new TextEncoder().encode(value).toBase64();
    }
    delete secret.stringData;
  }
  for (const [key, value] of Object.entries((secret.data ?? {}) as Record<string, string>)) {
    try {
      Uint8Array.fromBase64(value);
    } catch {
      causes.push({
        reason: "FieldValueInvalid",
        message: `Invalid value: "<secret contents redacted>": illegal base64 data`,
        field: `data[${key}]`,
      });
    }
  }
  secret.type ??= previous?.type ?? "Opaque";
  if (previous?.immutable) {
    if (JSON.stringify(previous.data ?? {}) !== JSON.stringify(secret.data ?? {})) {
      causes.push({
        reason: "FieldValueForbidden",
        message: "Forbidden: field is immutable when `immutable` is set",
        field: "data",
      });
    }
    if (secret.immutable !== true) {
      causes.push({
        reason: "FieldValueForbidden",
        message: "Forbidden: field is immutable when `immutable` is set",
        field: "immutable",
      });
    }
  }
  if (previous && previous.type !== secret.type) {
    causes.push({
      reason: "FieldValueInvalid",
      message: `Invalid value: "${secret.type}": field is immutable`,
      field: "type",
    });
  }
  return causes;
}
