/**
 * The replication send thread's entry: signs and sends the requests the main thread hands over (see
 * send_thread.ts for the protocol) with the same S3Client, one per target, so connections to a target are
 * kept alive between sends. Their fetch trusts the certificates the start message names besides the system's.
 */
/// <reference lib="deno.worker" />
import { S3Client } from "../../lib/s3/client.ts";
import { fetchTrusting } from "../../lib/http/trusted_cas.ts";
import { Handover, lowerThisThreadsPriority } from "../core/background_thread.ts";
import {
  HANDOVER_MS,
  type SendOrder,
  type SendResult,
  type TargetAddress,
  toFailure,
  type ToSendWorker,
} from "./send_thread.ts";

lowerThisThreadsPriority();

const clients = new Map<string, S3Client>();
/** Set by the start message, which comes before any send. */
let trustingFetch: typeof fetch = globalThis.fetch;
const inFlight = new Map<number, AbortController>();
/** Answers of a burst go back in one message. */
const answers = new Handover<SendResult>(HANDOVER_MS, (batch) => self.postMessage({ op: "done", batch }));

function clientFor(target: TargetAddress): S3Client {
  const id = JSON.stringify(target);
  let client = clients.get(id);
  if (!client) clients.set(id, client = new S3Client({ ...target, fetch: trustingFetch }));
  return client;
}

async function send({ id, target, request }: SendOrder): Promise<void> {
  const abort = new AbortController();
  inFlight.set(id, abort);
  try {
    await clientFor(target).empty({ ...request, signal: abort.signal });
    answers.push({ id });
  } catch (error) {
    answers.push({ id, failure: toFailure(error) });
  } finally {
    inFlight.delete(id);
  }
}

self.onmessage = (event: MessageEvent<ToSendWorker>) => {
  const message = event.data;
  if (message.op === "start") return void (trustingFetch = fetchTrusting(message.caCerts));
  if (message.op === "abort") return inFlight.get(message.id)?.abort();
  for (const order of message.batch) send(order);
};
