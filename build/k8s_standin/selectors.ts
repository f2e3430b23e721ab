/**
 * Label and field selectors as the API server parses them: comma means AND; labels support `k=v`, `k==v`,
 * `k!=v`, `k in (a,b)`, `k notin (a,b)`, `k` (exists) and `!k`; fields support `=`, `==` and `!=` on the
 * fields each kind indexes (metadata.name, metadata.namespace, involvedObject.uid, ...).
 */
import type { K8sObject } from "./resources.ts";

export type Matcher = (object: K8sObject) => boolean;

export class SelectorError extends Error {}

/** Splits on commas that are not inside parentheses. */
function splitTerms(selector: string): string[] {
  const terms: string[] = [];
  let depth = 0;
  let current = "";
  for (const ch of selector) {
    if (ch === "(") depth++;
    if (ch === ")") depth--;
    if (ch === "," && depth === 0) {
      terms.push(current.trim());
      current = "";
    } else current += ch;
  }
  if (current.trim()) terms.push(current.trim());
  return terms.filter(Boolean);
}

const LABEL_KEY = /^([a-z0-9A-Z]([-a-z0-9A-Z_.]*[a-z0-9A-Z])?\/)?[a-z0-9A-Z]([-a-z0-9A-Z_.]*[a-z0-9A-Z])?$/;

export function parseLabelSelector(selector: string | null): Matcher {
  if (!selector) return () => true;
  const checks: ((labels: Record<string, string>) => boolean)[] = [];
  for (const term of splitTerms(selector)) {
    let match: RegExpExecArray | null;
    if ((match = /^(\S+)\s+(in|notin)\s+\(([^)]*)\)$/.exec(term))) {
      const [, key, op, list] = match;
      const values = new Set(list.split(",").map((v) => v.trim()));
      checks.push(
        op === "in" ? (l) => key in l && values.has(l[key]) : (l) => !(key in l) || !values.has(l[key]),
      );
    } else if ((match = /^([^!=\s]+)\s*(==|!=|=)\s*(\S*)$/.exec(term))) {
      const [, key, op, value] = match;
      if (!LABEL_KEY.test(key)) {
        throw new SelectorError(`unable to parse requirement: invalid label key "${key}"`);
      }
      checks.push(op === "!=" ? (l) => l[key] !== value : (l) => l[key] === value);
    } else if ((match = /^!(\S+)$/.exec(term))) {
      const key = match[1];
      checks.push((l) => !(key in l));
    } else if (LABEL_KEY.test(term)) {
      checks.push((l) => term in l);
    } else {
      throw new SelectorError(`unable to parse requirement: found '${term}', expected: identifier`);
    }
  }
  return (object) => {
    const labels = object.metadata.labels ?? {};
    return checks.every((check) => check(labels));
  };
}

/** Reads a dotted field path from an object ("involvedObject.uid"). */
function fieldValue(object: K8sObject, path: string): string {
  let value: unknown = object;
  for (const part of path.split(".")) value = (value as Record<string, unknown> | undefined)?.[part];
  return value === undefined || value === null ? "" : String(value);
}

/** Fields each kind lets clients select on (the API server refuses others with 400). */
const SELECTABLE: Record<string, string[]> = {
  "*": ["metadata.name", "metadata.namespace"],
  Event: [
    "involvedObject.kind",
    "involvedObject.namespace",
    "involvedObject.name",
    "involvedObject.uid",
    "involvedObject.apiVersion",
    "involvedObject.resourceVersion",
    "involvedObject.fieldPath",
    "reason",
    "reportingComponent",
    "source",
    "type",
  ],
  Pod: [
    "spec.nodeName",
    "spec.restartPolicy",
    "spec.schedulerName",
    "spec.serviceAccountName",
    "status.phase",
    "status.podIP",
    "status.nominatedNodeName",
  ],
  Secret: ["type"],
  Namespace: ["status.phase"],
};

export function parseFieldSelector(selector: string | null, kind: string): Matcher {
  if (!selector) return () => true;
  const allowed = new Set([...SELECTABLE["*"], ...(SELECTABLE[kind] ?? [])]);
  const checks: Matcher[] = [];
  for (const term of splitTerms(selector)) {
    const match = /^([^!=]+)(==|!=|=)(.*)$/.exec(term);
    if (!match) throw new SelectorError(`invalid selector: '${term}'; can't understand '${term}'`);
    const [, field, op, value] = match;
    if (!allowed.has(field)) {
      throw new SelectorError(
        `"${field}" is not a known field selector: only "${[...allowed].join('", "')}"`,
      );
    }
    checks.push(op === "!=" ? (o) => fieldValue(o, field) !== value : (o) => fieldValue(o, field) === value);
  }
  return (object) => checks.every((check) => check(object));
}
