/**
 * Light structural schemas for the kinds the stand-in serves: enough to publish real OpenAPI v3 documents
 * (kubectl reads them to decide on server-side field validation) and to validate writes the way the API
 * server does: unknown fields are dropped, or refused under `fieldValidation=Strict`; wrong types and missing
 * required fields of custom resources are 422 Invalid. Subtrees marked `open` are not checked.
 */

export type FieldSchema =
  | {
    type: "object";
    properties?: Record<string, FieldSchema>;
    additional?: FieldSchema;
    required?: string[];
    open?: boolean;
  }
  | { type: "array"; items: FieldSchema }
  | { type: "string" | "integer" | "boolean" | "number" }
  | { type: "any" };

export const str: FieldSchema = { type: "string" };
export const int: FieldSchema = { type: "integer" };
export const bool: FieldSchema = { type: "boolean" };
export const any: FieldSchema = { type: "any" };
export const arr = (items: FieldSchema): FieldSchema => ({ type: "array", items });
export const map = (value: FieldSchema): FieldSchema => ({ type: "object", additional: value });
export const obj = (properties: Record<string, FieldSchema>, required?: string[]): FieldSchema => ({
  type: "object",
  properties,
  required,
});
/** An object whose fields are not checked (large core specs the console never writes). */
export const open: FieldSchema = { type: "object", open: true };

export const objectMeta = obj({
  name: str,
  generateName: str,
  namespace: str,
  uid: str,
  resourceVersion: str,
  generation: int,
  creationTimestamp: str,
  deletionTimestamp: str,
  deletionGracePeriodSeconds: int,
  labels: map(str),
  annotations: map(str),
  finalizers: arr(str),
  ownerReferences: arr(any),
  managedFields: arr(any),
  selfLink: str,
});

/** A whole object of a kind: apiVersion, kind, metadata and the kind's own top-level fields. */
export function kindSchema(fields: Record<string, FieldSchema>, required?: string[]): FieldSchema {
  return obj({ apiVersion: str, kind: str, metadata: objectMeta, ...fields }, required);
}

export interface SchemaProblems {
  /** Dotted paths of fields the schema does not know. */
  unknown: string[];
  /** "path: message" lines, in the API server's wording. */
  invalid: { path: string; message: string }[];
}

const typeName = (value: unknown) =>
  value === null
    ? "null"
    : Array.isArray(value)
    ? "array"
    : typeof value === "number"
    ? (Number.isInteger(value) ? "integer" : "number")
    : typeof value;

/**
 * Walks `value` against `schema`: collects unknown fields (and removes them, as the API server prunes) and
 * type or required-field problems.
 */
export function checkAndPrune(
  schema: FieldSchema,
  value: unknown,
  path = "",
  problems: SchemaProblems = { unknown: [], invalid: [] },
): SchemaProblems {
  if (value === null || value === undefined || schema.type === "any") return problems;
  const at = (
    key: string | number,
  ) => (typeof key === "number" ? `${path}[${key}]` : path ? `${path}.${key}` : key);
  switch (schema.type) {
    case "object": {
      if (typeof value !== "object" || Array.isArray(value)) {
        problems.invalid.push({
          path,
          message: `Invalid value: "${typeName(value)}": ${path} in body must be of type object: "${
            typeName(value)
          }"`,
        });
        return problems;
      }
      if (schema.open) return problems;
      const record = value as Record<string, unknown>;
      for (const key of schema.required ?? []) {
        if (record[key] === undefined || record[key] === null) {
          problems.invalid.push({ path: at(key), message: "Required value" });
        }
      }
      for (const [key, child] of Object.entries(record)) {
        const childSchema = schema.properties?.[key] ?? schema.additional;
        if (!childSchema) {
          problems.unknown.push(at(key));
          delete record[key];
          continue;
        }
        checkAndPrune(childSchema, child, at(key), problems);
      }
      return problems;
    }
    case "array":
      if (!Array.isArray(value)) {
        problems.invalid.push({
          path,
          message: `Invalid value: "${typeName(value)}": ${path} in body must be of type array: "${
            typeName(value)
          }"`,
        });
        return problems;
      }
      value.forEach((item, i) => checkAndPrune(schema.items, item, at(i), problems));
      return problems;
    default: {
      const actual = typeName(value);
      const ok = schema.type === actual || (schema.type === "number" && actual === "integer");
      if (!ok) {
        problems.invalid.push({
          path,
          message: `Invalid value: "${actual}": ${path} in body must be of type ${schema.type}: "${actual}"`,
        });
      }
      return problems;
    }
  }
}

/** The schema as an OpenAPI v3 schema object. */
export function toOpenApi(schema: FieldSchema): Record<string, unknown> {
  switch (schema.type) {
    case "any":
      return { "x-kubernetes-preserve-unknown-fields": true };
    case "object": {
      if (schema.open) return { type: "object", "x-kubernetes-preserve-unknown-fields": true };
      const out: Record<string, unknown> = { type: "object" };
      if (schema.properties) {
        out.properties = Object.fromEntries(
          Object.entries(schema.properties).map(([k, v]) => [k, toOpenApi(v)]),
        );
      }
      if (schema.additional) out.additionalProperties = toOpenApi(schema.additional);
      if (schema.required?.length) out.required = schema.required;
      return out;
    }
    case "array":
      return { type: "array", items: toOpenApi(schema.items) };
    case "integer":
      return { type: "integer", format: "int64" };
    default:
      return { type: schema.type };
  }
}
