/**
 * The stand-in's object store: one map per resource, a cluster-wide resourceVersion counter bumped on every
 * write, uid and creationTimestamp on create, and change events for watches and the emulated operator.
 * Objects are stored and handed out as copies, so callers can never change stored state by accident.
 */
import { apiVersionOf, type K8sObject, type ResourceType } from "./resources.ts";

export type WatchEventType = "ADDED" | "MODIFIED" | "DELETED";

export interface StoreEvent {
  type: WatchEventType;
  resource: ResourceType;
  object: K8sObject;
}

export class Store {
  #objects = new Map<ResourceType, Map<string, K8sObject>>();
  #version = 1000;
  #listeners = new Set<(event: StoreEvent) => void>();

  get resourceVersion(): string {
    return String(this.#version);
  }

  #bucket(resource: ResourceType): Map<string, K8sObject> {
    let bucket = this.#objects.get(resource);
    if (!bucket) this.#objects.set(resource, bucket = new Map());
    return bucket;
  }

  static key(namespace: string | undefined, name: string): string {
    return `${namespace ?? ""}/${name}`;
  }

  get(resource: ResourceType, namespace: string | undefined, name: string): K8sObject | undefined {
    const found = this.#bucket(resource).get(Store.key(namespace, name));
    return found ? structuredClone(found) : undefined;
  }

  /** Every object of the resource in one namespace, or in all when namespace is undefined; sorted by namespace then name. */
  list(resource: ResourceType, namespace?: string): K8sObject[] {
    const items: K8sObject[] = [];
    for (const object of this.#bucket(resource).values()) {
      if (namespace === undefined || object.metadata.namespace === namespace) {
        items.push(structuredClone(object));
      }
    }
    return items.sort((a, b) =>
      (a.metadata.namespace ?? "").localeCompare(b.metadata.namespace ?? "") ||
      a.metadata.name.localeCompare(b.metadata.name)
    );
  }

  /** Stores a new object: fills uid, creationTimestamp, resourceVersion and type meta; caller checked it is absent. */
  create(resource: ResourceType, object: K8sObject): K8sObject {
    const stored = structuredClone(object);
    stored.apiVersion = apiVersionOf(resource);
    stored.kind = resource.kind;
    stored.metadata.uid ??= crypto.randomUUID();
    stored.metadata.creationTimestamp ??= new Date().toISOString().replace(/\.\d+Z$/, "Z");
    stored.metadata.resourceVersion = String(++this.#version);
    if (resource.custom) stored.metadata.generation = 1;
    this.#bucket(resource).set(Store.key(stored.metadata.namespace, stored.metadata.name), stored);
    this.#emit({ type: "ADDED", resource, object: stored });
    return structuredClone(stored);
  }

  /** Replaces an existing object, keeping identity fields and bumping the version. */
  replace(resource: ResourceType, object: K8sObject): K8sObject {
    const key = Store.key(object.metadata.namespace, object.metadata.name);
    const previous = this.#bucket(resource).get(key);
    if (!previous) throw new Error(`replace of a missing object ${key}`);
    const stored = structuredClone(object);
    stored.apiVersion = apiVersionOf(resource);
    stored.kind = resource.kind;
    stored.metadata.uid = previous.metadata.uid;
    stored.metadata.creationTimestamp = previous.metadata.creationTimestamp;
    stored.metadata.resourceVersion = String(++this.#version);
    if (resource.custom && JSON.stringify(previous.spec) !== JSON.stringify(stored.spec)) {
      stored.metadata.generation = (previous.metadata.generation ?? 1) + 1;
    } else if (previous.metadata.generation !== undefined) {
      stored.metadata.generation = previous.metadata.generation;
    }
    this.#bucket(resource).set(key, stored);
    this.#emit({ type: "MODIFIED", resource, object: stored });
    return structuredClone(stored);
  }

  delete(resource: ResourceType, namespace: string | undefined, name: string): K8sObject | undefined {
    const key = Store.key(namespace, name);
    const previous = this.#bucket(resource).get(key);
    if (!previous) return undefined;
    this.#bucket(resource).delete(key);
    previous.metadata.resourceVersion = String(++this.#version);
    this.#emit({ type: "DELETED", resource, object: previous });
    return structuredClone(previous);
  }

  /** Subscribes to every change; returns the unsubscribe function. */
  subscribe(listener: (event: StoreEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #emit(event: StoreEvent): void {
    for (const listener of [...this.#listeners]) {
      try {
        listener({ ...event, object: structuredClone(event.object) });
      } catch (error) {
        console.error("stand-in listener failed", error);
      }
    }
  }
}
