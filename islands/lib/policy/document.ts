/**
 * The policy builder's model of a policy document: what the builder shows of each statement (effect, actions,
 * resources, conditions) and, kept as written, every part it cannot show. Turning a document into the model
 * and back gives the same JSON, key order, string-or-list forms and value types included, so opening a policy
 * in the builder never rewrites it; an edit changes only the field edited.
 */
import { t } from "../i18n/t.ts";

/** A parsed JSON value. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

/** One condition: operator, key and the values it is compared with (strings, numbers or booleans as written). */
export interface ConditionRow {
  operator: string;
  key: string;
  values: (string | number | boolean)[];
  /** Written as one value rather than a list. */
  single: boolean;
}

/** A statement as the builder shows it. */
export interface StatementView {
  kind: "statement";
  /** Each part is null when the statement does not have it. */
  sid: string | null;
  effect: "Allow" | "Deny" | null;
  /** Action, or NotAction: every action except these. */
  actionField: "Action" | "NotAction";
  actions: string[] | null;
  /** Resource, or NotResource: every resource except these. */
  resourceField: "Resource" | "NotResource";
  resources: string[] | null;
  conditions: ConditionRow[] | null;
  /** Parts written as one string rather than a list (kept so when renamed: Action → NotAction). */
  singles: ("actions" | "resources")[];
  /** Field names in the order written; new fields go after them. */
  order: string[];
  /** Parts the builder cannot show, as written, by field name. */
  kept: JsonObject;
  /** Why each kept part is not shown, for the builder's note. */
  hidden: HiddenPart[];
}

/** A statement the builder cannot show at all (not an object). */
export interface RawStatement {
  kind: "raw";
  value: Json;
  hidden: HiddenPart[];
}

export interface HiddenPart {
  field: string;
  reason: string;
}

export interface PolicyView {
  version: string;
  statements: (StatementView | RawStatement)[];
  /** Statement written as one object rather than a list. */
  singleStatement: boolean;
  order: string[];
  kept: JsonObject;
  hidden: HiddenPart[];
}

export type ParsedPolicy = { ok: true; view: PolicyView } | { ok: false; reason: string };

const isObject = (value: Json | undefined): value is JsonObject =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const isScalar = (value: Json): value is string | number | boolean =>
  typeof value === "string" || typeof value === "number" || typeof value === "boolean";

/** A string or a list of strings, as IAM allows; null for anything else. */
function stringList(value: Json): { list: string[]; single: boolean } | null {
  if (typeof value === "string") return { list: [value], single: true };
  if (Array.isArray(value) && value.every((v) => typeof v === "string")) {
    return { list: value as string[], single: false };
  }
  return null;
}

function conditionRows(value: Json): ConditionRow[] | null {
  if (!isObject(value)) return null;
  const rows: ConditionRow[] = [];
  for (const [operator, keys] of Object.entries(value)) {
    // An operator with no keys would vanish from a list of rows.
    if (!isObject(keys) || Object.keys(keys).length === 0) return null;
    for (const [key, values] of Object.entries(keys)) {
      if (isScalar(values)) rows.push({ operator, key, values: [values], single: true });
      else if (Array.isArray(values) && values.every(isScalar)) {
        rows.push({ operator, key, values: values as (string | number | boolean)[], single: false });
      } else return null;
    }
  }
  return rows;
}

const SHOWN = ["Sid", "Effect", "Action", "NotAction", "Resource", "NotResource", "Condition"];

function statementView(value: Json, index: number): StatementView | RawStatement {
  const n = String(index + 1);
  if (!isObject(value)) {
    return {
      kind: "raw",
      value,
      hidden: [{ field: t("iam.document.statement", { n }), reason: t("iam.document.notObject") }],
    };
  }
  const view: StatementView = {
    kind: "statement",
    sid: null,
    effect: null,
    actionField: "Action",
    actions: null,
    resourceField: "Resource",
    resources: null,
    conditions: null,
    singles: [],
    order: Object.keys(value),
    kept: {},
    hidden: [],
  };
  const keep = (field: string, reason: string) => {
    view.kept[field] = value[field];
    view.hidden.push({ field: t("iam.document.statementField", { n, field }), reason });
  };
  const both = (a: string, b: string) => a in value && b in value;
  for (const [field, item] of Object.entries(value)) {
    if (!SHOWN.includes(field)) {
      keep(
        field,
        field === "Principal" ? t("iam.document.principal") : t("iam.document.unknownField"),
      );
    } else if (field === "Sid") {
      if (typeof item === "string") view.sid = item;
      else keep(field, t("iam.document.notString"));
    } else if (field === "Effect") {
      if (item === "Allow" || item === "Deny") view.effect = item;
      else keep(field, t("iam.document.badEffect"));
    } else if (field === "Condition") {
      const rows = conditionRows(item);
      if (rows) view.conditions = rows;
      else keep(field, t("iam.document.badCondition"));
    } else {
      const isAction = field === "Action" || field === "NotAction";
      const parsed = stringList(item);
      if (both(isAction ? "Action" : "Resource", isAction ? "NotAction" : "NotResource")) {
        keep(
          field,
          t("iam.document.besides", { field: field.startsWith("Not") ? field.slice(3) : `Not${field}` }),
        );
      } else if (!parsed) keep(field, t("iam.document.notStringList"));
      else if (isAction) {
        view.actionField = field as StatementView["actionField"];
        view.actions = parsed.list;
        if (parsed.single) view.singles.push("actions");
      } else {
        view.resourceField = field as StatementView["resourceField"];
        view.resources = parsed.list;
        if (parsed.single) view.singles.push("resources");
      }
    }
  }
  return view;
}

/** Reads policy text into the builder's model, or says why the builder cannot show it. */
export function parsePolicy(text: string): ParsedPolicy {
  let doc: Json;
  try {
    doc = JSON.parse(text);
  } catch {
    return { ok: false, reason: t("iam.document.invalidJson") };
  }
  if (!isObject(doc)) return { ok: false, reason: t("iam.document.notJsonObject") };
  const statement = doc.Statement ?? [];
  if (!Array.isArray(statement) && !isObject(statement)) {
    return { ok: false, reason: t("iam.document.badStatement") };
  }
  const view: PolicyView = {
    version: "",
    statements: (Array.isArray(statement) ? statement : [statement]).map(statementView),
    singleStatement: !Array.isArray(statement),
    order: Object.keys(doc),
    kept: {},
    hidden: [],
  };
  for (const [field, item] of Object.entries(doc)) {
    if (field === "Statement") continue;
    if (field === "Version" && typeof item === "string") view.version = item;
    else {
      view.kept[field] = item;
      view.hidden.push({
        field,
        reason: field === "Id" ? t("iam.document.idNotEdited") : t("iam.document.notShown"),
      });
    }
  }
  return { ok: true, view };
}

/** Puts fields in the order written, then new ones in the usual order. */
function ordered(fields: Map<string, Json>, order: string[], usual: string[]): JsonObject {
  const out: JsonObject = {};
  for (const field of [...order, ...usual]) {
    if (fields.has(field) && !(field in out)) out[field] = fields.get(field)!;
  }
  for (const [field, value] of fields) if (!(field in out)) out[field] = value;
  return out;
}

function conditionJson(rows: ConditionRow[]): JsonObject {
  const out: JsonObject = {};
  for (const row of rows) {
    const keys = (out[row.operator] ??= {}) as JsonObject;
    const before = keys[row.key];
    // Two rows of one operator and key are one condition in JSON: any of their values.
    if (before !== undefined) keys[row.key] = [...(Array.isArray(before) ? before : [before]), ...row.values];
    else keys[row.key] = row.single && row.values.length === 1 ? row.values[0] : row.values;
  }
  return out;
}

function statementJson(view: StatementView | RawStatement): Json {
  if (view.kind === "raw") return view.value;
  const fields = new Map<string, Json>(Object.entries(view.kept));
  const list = (part: "actions" | "resources", values: string[]): Json =>
    view.singles.includes(part) && values.length === 1 ? values[0] : values;
  if (view.sid !== null && !fields.has("Sid")) fields.set("Sid", view.sid);
  if (view.effect !== null && !fields.has("Effect")) fields.set("Effect", view.effect);
  if (view.actions !== null && !fields.has("Action") && !fields.has("NotAction")) {
    fields.set(view.actionField, list("actions", view.actions));
  }
  if (view.resources !== null && !fields.has("Resource") && !fields.has("NotResource")) {
    fields.set(view.resourceField, list("resources", view.resources));
  }
  if (view.conditions !== null && !fields.has("Condition")) {
    fields.set("Condition", conditionJson(view.conditions));
  }
  // A renamed field (Action → NotAction) takes the place of the one it replaces.
  const order = view.order.map((field) =>
    field === "Action" || field === "NotAction"
      ? view.actionField
      : field === "Resource" || field === "NotResource"
      ? view.resourceField
      : field
  );
  return ordered(fields, order, SHOWN);
}

/** The document the model stands for. */
export function policyJson(view: PolicyView): JsonObject {
  const fields = new Map<string, Json>(Object.entries(view.kept));
  if (view.version) fields.set("Version", view.version);
  const statements = view.statements.map(statementJson);
  fields.set("Statement", view.singleStatement && statements.length === 1 ? statements[0] : statements);
  return ordered(fields, view.order, ["Version", "Statement"]);
}

/** The document as the JSON editor shows it. */
export const policyText = (view: PolicyView): string => JSON.stringify(policyJson(view), null, 2);

/** A new statement as the builder adds it: Allow, nothing chosen yet. */
export function newStatement(): StatementView {
  return {
    kind: "statement",
    sid: null,
    effect: "Allow",
    actionField: "Action",
    actions: [],
    resourceField: "Resource",
    resources: null,
    conditions: null,
    singles: [],
    order: [],
    kept: {},
    hidden: [],
  };
}

/** Every part of the policy the builder cannot show, named as a person finds it in the JSON. */
export function hiddenParts(view: PolicyView): HiddenPart[] {
  return [...view.hidden, ...view.statements.flatMap((s) => s.hidden)];
}
