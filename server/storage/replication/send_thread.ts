/**
 * Replication sends on a thread of their own. Signing and sending a request to the target costs about as
 * much CPU as serving the PUT that queued it, and on the thread that serves S3 it would slow every request;
 * here the main thread keeps the queue, the rules, the statuses, the bandwidth limit and reading the
 * version's bytes, and hands the finished request (body included, transferred rather than copied) to a
 * thread that runs below its priority (background_thread.ts). Streamed bodies stay on the main thread:
 * they are read while they are sent. The thread starts with the first send; if it cannot start, or dies,
 * sends go from the calling thread, and the ones it held fail and are retried like any failed send.
 *
 * Sends and answers cross in batches gathered for a couple of milliseconds (background_thread.ts Handover,
 * as delivery's events do), so a burst of sends wakes the other thread once rather than once a request.
 *
 * Protocol: main → worker `start {caCerts}` (first: the certificates its client trusts besides the system's),
 * `send {batch: {id, target, request}[]}`, `abort {id}`; worker → main `done {batch: {id, failure?}[]}`.
 */
import type { S3Client } from "../../lib/s3/client.ts";
import { S3Error } from "../../lib/s3/errors.ts";
import type { Credentials } from "../../lib/s3/sigv4.ts";
import { Handover } from "../core/background_thread.ts";

/** Where a request goes, as a message can carry it (an S3Client cannot cross threads). */
export interface TargetAddress {
  endpoint: string;
  region: string;
  credentials: Credentials;
}

/** A request whose body, if any, is in memory: what the send thread takes. */
export interface WholeRequest {
  method: "PUT" | "DELETE";
  bucket: string;
  key: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  body?: Uint8Array<ArrayBuffer>;
}

/** An error as it crosses back: the target's S3 error, or another error's name and message (and its cause's). */
export type SendFailure =
  | {
    kind: "s3";
    code: string;
    message: string;
    status: number;
    requestId: string;
    resource: string;
    bucket: string;
    key: string;
  }
  | { kind: "other"; name: string; message: string; cause?: string };

/** How long sends (and their answers) gather before they are handed to the other thread. */
export const HANDOVER_MS = 2;

export interface SendOrder {
  id: number;
  target: TargetAddress;
  request: WholeRequest;
}
export interface SendResult {
  id: number;
  failure?: SendFailure;
}
export type ToSendWorker =
  | { op: "start"; caCerts: string[] }
  | { op: "send"; batch: SendOrder[] }
  | { op: "abort"; id: number };
export type FromSendWorker = { op: "done"; batch: SendResult[] };

export function toFailure(error: unknown): SendFailure {
  if (error instanceof S3Error) {
    const { code, message, status, requestId, resource, bucket, key } = error;
    return { kind: "s3", code, message, status, requestId, resource, bucket, key };
  }
  if (!(error instanceof Error)) return { kind: "other", name: "Error", message: String(error) };
  return {
    kind: "other",
    name: error.name,
    message: error.message,
    cause: error.cause instanceof Error ? error.cause.message : undefined,
  };
}

/** The error again, of the class the queue tells apart (S3Error: the target answered; TypeError: unreachable). */
function fromFailure(failure: SendFailure): Error {
  if (failure.kind === "s3") {
    return new S3Error(
      failure.code,
      failure.message,
      failure.status,
      failure.requestId,
      failure.resource,
      failure.bucket,
      failure.key,
    );
  }
  const options = failure.cause === undefined ? undefined : { cause: new Error(failure.cause) };
  if (failure.name === "TypeError") return new TypeError(failure.message, options);
  if (failure.name === "AbortError") return new DOMException(failure.message, "AbortError");
  return new Error(failure.message, options);
}

interface Pending {
  resolve: () => void;
  reject: (error: unknown) => void;
}

export class SendThread {
  #worker: Worker | null = null;
  /** The thread could not start or died: send from this one. */
  #inThread = false;
  #pending = new Map<number, Pending>();
  #nextId = 1;
  readonly #orders = new Handover<SendOrder>(
    HANDOVER_MS,
    (batch, bodies) => this.#worker?.postMessage({ op: "send", batch } satisfies ToSendWorker, bodies),
  );

  /** `caCerts`: PEM certificates the thread's client trusts besides the system's (the certificate directory's). */
  constructor(private readonly caCerts: string[]) {}

  /** Sends `request` to the target `client` addresses; rejects as `client.empty` would. */
  send(client: S3Client, request: WholeRequest, signal: AbortSignal): Promise<void> {
    const worker = this.#thread();
    if (!worker) return client.empty({ ...request, signal }).then(() => {});
    if (signal.aborted) return Promise.reject(signal.reason);
    const id = this.#nextId++;
    const { promise, resolve, reject } = Promise.withResolvers<void>();
    const onAbort = () => {
      this.#pending.delete(id);
      this.#worker?.postMessage({ op: "abort", id } satisfies ToSendWorker);
      reject(signal.reason);
    };
    signal.addEventListener("abort", onAbort, { once: true });
    const settled = () => signal.removeEventListener("abort", onAbort);
    this.#pending.set(id, {
      resolve: () => (settled(), resolve()),
      reject: (error) => (settled(), reject(error)),
    });
    const target = { endpoint: client.endpoint, region: client.region, credentials: client.credentials };
    this.#orders.push({ id, target, request }, request.body?.buffer);
    return promise;
  }

  /** Ends the thread (after the replicator's abort has settled what it was sending). */
  close(): void {
    this.#worker?.terminate();
    this.#worker = null;
    this.#inThread = true;
  }

  /** The running thread, started on first use; null once sends go from the calling thread. */
  #thread(): Worker | null {
    if (this.#worker || this.#inThread) return this.#worker;
    try {
      const worker = new Worker(new URL("./send_worker.ts", import.meta.url), { type: "module" });
      worker.onmessage = (event: MessageEvent<FromSendWorker>) => this.#receive(event.data);
      worker.onerror = (event) => {
        event.preventDefault();
        this.#fail(event.message);
      };
      worker.postMessage({ op: "start", caCerts: this.caCerts } satisfies ToSendWorker);
      this.#worker = worker;
    } catch (error) {
      this.#fail(error instanceof Error ? error.message : String(error));
    }
    return this.#worker;
  }

  #receive(message: FromSendWorker): void {
    for (const { id, failure } of message.batch) {
      const pending = this.#pending.get(id);
      this.#pending.delete(id);
      if (failure) pending?.reject(fromFailure(failure));
      else pending?.resolve();
    }
  }

  /** The thread is gone: what it held fails (the queue retries it) and later sends go from this thread. */
  #fail(reason: string): void {
    this.#worker?.terminate();
    this.#worker = null;
    this.#inThread = true;
    this.#orders.discard();
    for (const [id, pending] of this.#pending) {
      this.#pending.delete(id);
      pending.reject(new Error(`the replication send thread stopped (${reason})`));
    }
  }
}
