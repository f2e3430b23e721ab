/**
 * Server-side printing: when a client asks for `as=Table` (kubectl get does), answer a meta.k8s.io/v1 Table
 * with the kind's printer columns (Name first, Age last) and each row's object metadata.
 */
import type { K8sObject, ResourceType } from "./resources.ts";

/** Kubernetes' HumanDuration (apimachinery/pkg/util/duration). */
export function humanDuration(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  if (seconds < -1) return "<invalid>";
  if (seconds < 0) return "0s";
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 10) return seconds % 60 === 0 ? `${minutes}m` : `${minutes}m${seconds % 60}s`;
  if (minutes < 180) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 8) return minutes % 60 === 0 ? `${hours}h` : `${hours}h${minutes % 60}m`;
  if (hours < 48) return `${hours}h`;
  if (hours < 192) {
    return hours % 24 === 0 ? `${Math.floor(hours / 24)}d` : `${Math.floor(hours / 24)}d${hours % 24}h`;
  }
  if (hours < 24 * 365 * 2) return `${Math.floor(hours / 24)}d`;
  const years = Math.floor(hours / 24 / 365);
  if (hours < 24 * 365 * 8) return `${years}y${Math.floor(hours / 24) % 365}d`;
  return `${years}y`;
}

export function wantsTable(accept: string | null): boolean {
  return !!accept && /as=Table/.test(accept);
}

export function toTable(
  resource: ResourceType,
  objects: K8sObject[],
  resourceVersion: string,
  now = Date.now(),
) {
  const columns = resource.columns ?? [];
  return {
    kind: "Table",
    apiVersion: "meta.k8s.io/v1",
    metadata: { resourceVersion },
    columnDefinitions: [
      {
        name: "Name",
        type: "string",
        format: "name",
        description: "Name must be unique within a namespace.",
        priority: 0,
      },
      ...columns.map((c) => ({
        name: c.name,
        type: c.type === "date" ? "string" : c.type,
        format: "",
        description: c.name,
        priority: 0,
      })),
      {
        name: "Age",
        type: "string",
        format: "",
        description: "CreationTimestamp of the object.",
        priority: 0,
      },
    ],
    rows: objects.map((object) => ({
      cells: [
        object.metadata.name,
        ...columns.map((c) => c.cell(object)),
        humanDuration(now - Date.parse(object.metadata.creationTimestamp ?? new Date(now).toISOString())),
      ],
      object: { kind: "PartialObjectMetadata", apiVersion: "meta.k8s.io/v1", metadata: object.metadata },
    })),
  };
}
