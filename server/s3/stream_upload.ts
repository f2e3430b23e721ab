/**
 * Sends a streamed request body with a Content-Length. Deno's fetch drops a Content-Length header on a
 * stream body and sends it with chunked transfer encoding instead; AWS S3 refuses such uploads (it wants
 * the aws-chunked encoded length), and a Deno server receives them at a fraction of the speed (hyper's
 * chunked decoding makes every body read cost in proportion to the view offered). node:http sends the
 * declared length as given, streaming the body without buffering it.
 */
import http from "node:http";
import https from "node:https";
import { Readable } from "node:stream";

export interface LengthRequest {
  method: string;
  headers: Record<string, string>;
  body: ReadableStream<Uint8Array>;
  /** Exactly the bytes `body` yields. */
  length: number;
  signal?: AbortSignal;
}

/** Answers without a body, whatever the server sends. */
const BODYLESS = new Set([101, 204, 205, 304]);

/**
 * Resolves with the answer as a fetch Response once its head arrives. A server may answer (403, say) before
 * reading the body: sending then stops, and the connection, which cannot carry another request, is closed
 * once the answer has been read. Connection failures reject with a TypeError, as fetch's do.
 */
export function sendWithLength(url: URL, request: LengthRequest): Promise<Response> {
  const transport = url.protocol === "https:" ? https : http;
  const reader = request.body.getReader();
  const sending = { stopped: false };
  return new Promise<Response>((resolve, reject) => {
    let answered = false;
    /** An error of the body stream itself, reported as it is rather than as a network error. */
    let bodyError: unknown = null;
    const outgoing = transport.request(
      url,
      { method: request.method, headers: { ...request.headers, "content-length": String(request.length) }, signal: request.signal },
      (incoming) => {
        answered = true;
        if (!outgoing.writableFinished) {
          sending.stopped = true;
          reader.cancel("answered before the body was sent").catch(() => {});
          incoming.once("close", () => outgoing.destroy());
        }
        const headers = new Headers();
        for (const [name, value] of Object.entries(incoming.headers)) {
          if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
        }
        const status = incoming.statusCode ?? 502;
        const body = BODYLESS.has(status) || request.method === "HEAD" ? null : (Readable.toWeb(incoming) as ReadableStream<Uint8Array>);
        if (!body) incoming.resume();
        resolve(new Response(body, { status, statusText: incoming.statusMessage, headers }));
      },
    );
    outgoing.on("error", (error: Error) => {
      reader.cancel(error).catch(() => {});
      if (answered) return;
      if (bodyError) reject(bodyError);
      else reject(error.name === "AbortError" ? error : new TypeError(`network error sending request for ${url.origin}: ${error.message}`, { cause: error }));
    });
    pump(reader, outgoing, sending).catch((error) => {
      bodyError = error;
      outgoing.destroy(error instanceof Error ? error : new Error(String(error)));
    });
  });
}

/** Writes the body as it is read, waiting for the socket to drain whenever node:http asks. */
async function pump(reader: ReadableStreamDefaultReader<Uint8Array>, outgoing: http.ClientRequest, sending: { stopped: boolean }): Promise<void> {
  while (true) {
    const { value, done } = await reader.read();
    if (sending.stopped || outgoing.destroyed) return;
    if (done) break;
    if (!outgoing.write(value)) {
      await new Promise<void>((resolve) => {
        const resume = () => {
          outgoing.off("drain", resume);
          outgoing.off("close", resume);
          resolve();
        };
        outgoing.on("drain", resume);
        outgoing.on("close", resume);
      });
    }
  }
  outgoing.end();
}
