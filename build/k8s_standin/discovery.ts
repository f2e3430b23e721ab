/**
 * Discovery and OpenAPI documents, as kubectl reads them: `/api`, `/apis`, each group-version's resource
 * list (legacy, non-aggregated discovery), `/version`, and OpenAPI v3 (`/openapi/v3` index and one document
 * per group-version). The OpenAPI documents declare the `fieldValidation` parameter on writes, so kubectl's
 * default `--validate=strict` validates on the server (which the stand-in then does) instead of fetching the
 * protobuf OpenAPI v2 document.
 */
import { apiVersionOf, groupVersions, RESOURCES, type ResourceType, TOKEN_REVIEW } from "./resources.ts";
import { toOpenApi } from "./schema.ts";

export const SERVER_VERSION = {
  major: "1",
  minor: "32",
  gitVersion: "v1.32.0-deck-standin",
  platform: "linux/amd64",
};

export function apiVersions(serverAddress: string) {
  return {
    kind: "APIVersions",
    versions: ["v1"],
    serverAddressByClientCIDRs: [{ clientCIDR: "0.0.0.0/0", serverAddress }],
  };
}

function apiGroup(group: string) {
  const versions = groupVersions().filter((gv) => gv.group === group).map((gv) => ({
    groupVersion: apiVersionOf(gv),
    version: gv.version,
  }));
  return { name: group, versions, preferredVersion: versions[0] };
}

export function apiGroupList() {
  const groups = [...new Set(groupVersions().map((gv) => gv.group).filter(Boolean))];
  return { kind: "APIGroupList", apiVersion: "v1", groups: groups.map(apiGroup) };
}

export function apiGroupDocument(group: string) {
  if (!groupVersions().some((gv) => gv.group === group)) return null;
  return { kind: "APIGroup", apiVersion: "v1", ...apiGroup(group) };
}

export function apiResourceList(group: string, version: string) {
  if (!groupVersions().some((gv) => gv.group === group && gv.version === version)) return null;
  const resources: Record<string, unknown>[] = [];
  for (const r of RESOURCES.filter((r) => r.group === group && r.version === version)) {
    resources.push({
      name: r.plural,
      singularName: r.singular,
      namespaced: r.namespaced,
      kind: r.kind,
      verbs: r.verbs,
      ...(r.shortNames ? { shortNames: r.shortNames } : {}),
      ...(r.custom || r.kind === "Pod" || r.kind === "Service" ? { categories: ["all"] } : {}),
    });
    if (r.statusSubresource) {
      resources.push({
        name: `${r.plural}/status`,
        singularName: "",
        namespaced: r.namespaced,
        kind: r.kind,
        verbs: ["get", "patch", "update"],
      });
    }
    for (const sub of r.subresources ?? []) {
      resources.push({
        name: `${r.plural}/${sub}`,
        singularName: "",
        namespaced: r.namespaced,
        kind: r.kind,
        verbs: ["get"],
      });
    }
  }
  if (group === TOKEN_REVIEW.group && version === TOKEN_REVIEW.version) {
    resources.push({
      name: TOKEN_REVIEW.plural,
      singularName: "",
      namespaced: false,
      kind: TOKEN_REVIEW.kind,
      verbs: ["create"],
    });
  }
  return {
    kind: "APIResourceList",
    apiVersion: "v1",
    groupVersion: apiVersionOf({ group, version }),
    resources,
  };
}

/** OpenAPI definition name of a kind: the group reversed, as Kubernetes names them (io.min.minio.v2.Tenant). */
export function definitionName(r: { group: string; version: string; kind: string }): string {
  if (!r.group) return `io.k8s.api.core.${r.version}.${r.kind}`;
  if (r.group.endsWith(".k8s.io")) {
    return `io.k8s.api.${r.group.slice(0, -".k8s.io".length)}.${r.version}.${r.kind}`;
  }
  return `${r.group.split(".").reverse().join(".")}.${r.version}.${r.kind}`;
}

const gvkExtension = (r: ResourceType) => ({ group: r.group, version: r.version, kind: r.kind });
const PATH_NAME = { name: "name", in: "path", required: true, schema: { type: "string", uniqueItems: true } };
const PATH_NAMESPACE = {
  name: "namespace",
  in: "path",
  required: true,
  schema: { type: "string", uniqueItems: true },
};
const query = (name: string, type = "string") => ({ name, in: "query", schema: { type, uniqueItems: true } });
const WRITE_PARAMS = [query("dryRun"), query("fieldManager"), query("fieldValidation")];
const LIST_PARAMS = [
  query("labelSelector"),
  query("fieldSelector"),
  query("limit", "integer"),
  query("continue"),
  query("watch", "boolean"),
  query("resourceVersion"),
  query("timeoutSeconds", "integer"),
];

function jsonContent(ref: string) {
  return {
    "application/json": { schema: { $ref: `#/components/schemas/${ref}` } },
    "application/yaml": { schema: { $ref: `#/components/schemas/${ref}` } },
  };
}

function resourcePaths(r: ResourceType): Record<string, unknown> {
  const base = r.group ? `/apis/${r.group}/${r.version}` : `/api/${r.version}`;
  const def = definitionName(r);
  const listDef = `${def}List`;
  const gvk = gvkExtension(r);
  const op = (action: string, extra: Record<string, unknown> = {}) => ({
    operationId: `${action}${r.kind}`,
    tags: [apiVersionOf(r)],
    "x-kubernetes-action": action,
    "x-kubernetes-group-version-kind": gvk,
    responses: { "200": { description: "OK", content: jsonContent(def) } },
    ...extra,
  });
  const patchTypes = [
    "application/json-patch+json",
    "application/merge-patch+json",
    "application/apply-patch+yaml",
    ...(r.custom ? [] : ["application/strategic-merge-patch+json"]),
  ];
  const item = {
    get: op("get"),
    put: op("put", { parameters: WRITE_PARAMS, requestBody: { required: true, content: jsonContent(def) } }),
    patch: op("patch", {
      parameters: [...WRITE_PARAMS, query("force", "boolean")],
      requestBody: {
        required: true,
        content: Object.fromEntries(
          patchTypes.map((
            t,
          ) => [t, { schema: { $ref: "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.Patch" } }]),
        ),
      },
    }),
    delete: op("delete", {
      parameters: [query("gracePeriodSeconds", "integer"), query("propagationPolicy")],
    }),
    parameters: r.namespaced ? [PATH_NAME, PATH_NAMESPACE] : [PATH_NAME],
  };
  const collection = {
    get: op("list", {
      parameters: LIST_PARAMS,
      responses: { "200": { description: "OK", content: jsonContent(listDef) } },
    }),
    post: op("post", {
      parameters: WRITE_PARAMS,
      requestBody: { required: true, content: jsonContent(def) },
    }),
    delete: op("deletecollection", { parameters: LIST_PARAMS }),
    ...(r.namespaced ? { parameters: [PATH_NAMESPACE] } : {}),
  };
  if (!r.namespaced) return { [`${base}/${r.plural}`]: collection, [`${base}/${r.plural}/{name}`]: item };
  return {
    [`${base}/namespaces/{namespace}/${r.plural}`]: collection,
    [`${base}/namespaces/{namespace}/${r.plural}/{name}`]: item,
    [`${base}/${r.plural}`]: {
      get: op("list", {
        parameters: LIST_PARAMS,
        responses: { "200": { description: "OK", content: jsonContent(listDef) } },
      }),
    },
  };
}

/** The OpenAPI v3 document of one group-version, or null when it is not served. */
export function openApiDocument(group: string, version: string): Record<string, unknown> | null {
  const served = RESOURCES.filter((r) => r.group === group && r.version === version);
  if (served.length === 0) return null;
  const schemas: Record<string, unknown> = {
    "io.k8s.apimachinery.pkg.apis.meta.v1.Patch": {
      type: "object",
      description: "Patch is provided to give a concrete name and type to the Kubernetes PATCH request body.",
    },
  };
  const paths: Record<string, unknown> = {};
  for (const r of served) {
    schemas[definitionName(r)] = {
      ...toOpenApi(r.schema),
      "x-kubernetes-group-version-kind": [gvkExtension(r)],
    };
    schemas[`${definitionName(r)}List`] = {
      type: "object",
      required: ["items"],
      properties: {
        apiVersion: { type: "string" },
        kind: { type: "string" },
        metadata: { type: "object" },
        items: { type: "array", items: { $ref: `#/components/schemas/${definitionName(r)}` } },
      },
      "x-kubernetes-group-version-kind": [{ group: r.group, version: r.version, kind: `${r.kind}List` }],
    };
    Object.assign(paths, resourcePaths(r));
  }
  return {
    openapi: "3.0.0",
    info: { title: "Kubernetes", version: SERVER_VERSION.gitVersion },
    paths,
    components: { schemas },
  };
}

async function hashOf(document: unknown): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-512", new TextEncoder().encode(JSON.stringify(document)));
  return new Uint8Array(digest).toHex().toUpperCase();
}

/** The `/openapi/v3` index: one entry per served group-version with its document's address. */
export async function openApiIndex(): Promise<Record<string, unknown>> {
  const paths: Record<string, unknown> = {};
  for (const gv of groupVersions()) {
    const doc = openApiDocument(gv.group, gv.version);
    if (!doc) continue;
    const key = gv.group ? `apis/${gv.group}/${gv.version}` : `api/${gv.version}`;
    paths[key] = { serverRelativeURL: `/openapi/v3/${key}?hash=${await hashOf(doc)}` };
  }
  return { paths };
}
