/**
 * The three PATCH kinds of the API server: JSON merge patch (RFC 7386), JSON patch (RFC 6902) and the
 * strategic merge patch kubectl uses for built-in kinds (lists with a merge key are merged by that key, and
 * the `$patch`, `$retainKeys`, `$setElementOrder/` and `$deleteFromPrimitiveList/` directives are honoured).
 */

// deno-lint-ignore no-explicit-any
type Json = any;

export class PatchError extends Error {}

const isObject = (v: unknown): v is Record<string, Json> =>
  typeof v === "object" && v !== null && !Array.isArray(v);
const clone = <T>(v: T): T => structuredClone(v);

/** RFC 7386 §2: objects merge recursively, null removes, anything else replaces. */
export function mergePatch(target: Json, patch: Json): Json {
  if (!isObject(patch)) return clone(patch);
  const result: Record<string, Json> = isObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else result[key] = mergePatch(result[key], value);
  }
  return result;
}

/** RFC 6901 pointer → path segments. */
function pointer(path: string): string[] {
  if (path === "") return [];
  if (!path.startsWith("/")) throw new PatchError(`invalid JSON pointer "${path}"`);
  return path.slice(1).split("/").map((p) => p.replace(/~1/g, "/").replace(/~0/g, "~"));
}

function parentOf(doc: Json, parts: string[]): [Json, string] {
  let node = doc;
  for (const part of parts.slice(0, -1)) {
    node = Array.isArray(node) ? node[Number(part)] : node?.[part];
    if (node === undefined) throw new PatchError(`doc is missing path: "/${parts.join("/")}"`);
  }
  return [node, parts[parts.length - 1]];
}

/** RFC 6902 §4: add, remove, replace, move, copy, test. */
export function jsonPatch(target: Json, operations: Json): Json {
  if (!Array.isArray(operations)) throw new PatchError("a JSON patch must be an array of operations");
  let doc = clone(target);
  const get = (path: string) => {
    let node = doc;
    for (const part of pointer(path)) {
      node = Array.isArray(node) ? node[Number(part)] : node?.[part];
      if (node === undefined) throw new PatchError(`doc is missing path: "${path}"`);
    }
    return node;
  };
  const remove = (path: string) => {
    const [parent, key] = parentOf(doc, pointer(path));
    if (Array.isArray(parent)) parent.splice(Number(key), 1);
    else if (isObject(parent) && key in parent) delete parent[key];
    else throw new PatchError(`doc is missing path: "${path}"`);
  };
  const add = (path: string, value: Json) => {
    const parts = pointer(path);
    if (parts.length === 0) return void (doc = clone(value));
    const [parent, key] = parentOf(doc, parts);
    if (Array.isArray(parent)) parent.splice(key === "-" ? parent.length : Number(key), 0, clone(value));
    else if (isObject(parent)) parent[key] = clone(value);
    else throw new PatchError(`doc is missing path: "${path}"`);
  };
  for (const op of operations) {
    switch (op?.op) {
      case "add":
        add(op.path, op.value);
        break;
      case "remove":
        remove(op.path);
        break;
      case "replace":
        get(op.path);
        remove(op.path);
        add(op.path, op.value);
        break;
      case "move": {
        const value = get(op.from);
        remove(op.from);
        add(op.path, value);
        break;
      }
      case "copy":
        add(op.path, get(op.from));
        break;
      case "test":
        if (JSON.stringify(get(op.path)) !== JSON.stringify(op.value)) {
          throw new PatchError(`testing value ${op.path} failed`);
        }
        break;
      default:
        throw new PatchError(`Unexpected kind: ${op?.op}`);
    }
  }
  return doc;
}

/** Merge keys of the built-in lists kubectl patches (from the Kubernetes API's patchMergeKey tags). */
const MERGE_KEYS: Record<string, string | ((item: Json) => string)> = {
  containers: "name",
  initContainers: "name",
  ephemeralContainers: "name",
  volumes: "name",
  env: "name",
  envFrom: "prefix",
  volumeMounts: "mountPath",
  imagePullSecrets: "name",
  ownerReferences: "uid",
  conditions: "type",
  ports: (item) => (isObject(item) && "containerPort" in item ? "containerPort" : "port"),
  hostAliases: "ip",
  topologySpreadConstraints: "topologyKey",
};
/** Lists of scalars merged as sets. */
const MERGED_PRIMITIVE_LISTS = new Set(["finalizers"]);

function mergeList(field: string, target: Json[], patch: Json[]): Json[] {
  if (MERGED_PRIMITIVE_LISTS.has(field)) return [...new Set([...target, ...patch])];
  const keySpec = MERGE_KEYS[field];
  if (!keySpec || !patch.every(isObject)) {
    return clone(patch.filter((item) => !(isObject(item) && item.$patch === "delete")));
  }
  if (patch.some((item) => item.$patch === "replace")) {
    return clone(patch.filter((item) => item.$patch !== "replace"));
  }
  const result = target.map((item) => clone(item));
  for (const item of patch) {
    const key = typeof keySpec === "function" ? keySpec(item) : keySpec;
    const index = result.findIndex((existing) => isObject(existing) && existing[key] === item[key]);
    if (item.$patch === "delete") {
      if (index >= 0) result.splice(index, 1);
    } else if (index >= 0) result[index] = strategicMergePatch(result[index], item);
    else result.push(strategicMergePatch({}, item));
  }
  return result;
}

/** Strategic merge patch of built-in kinds (https://kubernetes.io/docs/tasks/manage-kubernetes-objects/update-api-object-kubectl-patch/). */
export function strategicMergePatch(target: Json, patch: Json): Json {
  if (!isObject(patch)) return clone(patch);
  if (patch.$patch === "delete") return undefined;
  const base: Record<string, Json> = patch.$patch === "replace" || !isObject(target) ? {} : { ...target };
  const retain: string[] | undefined = patch.$retainKeys;
  for (const [key, value] of Object.entries(patch)) {
    if (key === "$patch" || key === "$retainKeys" || key.startsWith("$setElementOrder/")) continue;
    if (key.startsWith("$deleteFromPrimitiveList/")) {
      const field = key.slice("$deleteFromPrimitiveList/".length);
      const drop = new Set(value as Json[]);
      if (Array.isArray(base[field])) base[field] = base[field].filter((v: Json) => !drop.has(v));
      continue;
    }
    if (value === null) delete base[key];
    else if (Array.isArray(value)) {
      base[key] = mergeList(key, Array.isArray(base[key]) ? base[key] : [], value);
    } else if (isObject(value)) {
      const merged = strategicMergePatch(base[key], value);
      if (merged === undefined) delete base[key];
      else base[key] = merged;
    } else base[key] = value;
  }
  if (retain) { for (const key of Object.keys(base)) if (!retain.includes(key)) delete base[key]; }
  return base;
}
