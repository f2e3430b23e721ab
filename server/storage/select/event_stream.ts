/**
 * The binary event stream SelectObjectContent answers with (AWS's application/vnd.amazon.eventstream, as
 * MinIO writes it): each message is its total and header lengths, a CRC-32 of those, string headers
 * (`:message-type`, `:event-type`, `:content-type`), the payload, and a CRC-32 of everything before it.
 */
import { crc32 } from "node:zlib";

const encoder = new TextEncoder();

/** One message with string headers (value type 7) in the order given. */
export function eventMessage(
  headers: [string, string][],
  payload: Uint8Array = new Uint8Array(0),
): Uint8Array {
  const encoded = headers.map(([name, value]) => [encoder.encode(name), encoder.encode(value)] as const);
  const headersLength = encoded.reduce((n, [name, value]) => n + 1 + name.length + 1 + 2 + value.length, 0);
  const total = 12 + headersLength + payload.length + 4;
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  view.setUint32(0, total);
  view.setUint32(4, headersLength);
  view.setUint32(8, crc32(out.subarray(0, 8)) >>> 0);
  let at = 12;
  for (const [name, value] of encoded) {
    out[at++] = name.length;
    out.set(name, at);
    at += name.length;
    out[at++] = 7;
    view.setUint16(at, value.length);
    at += 2;
    out.set(value, at);
    at += value.length;
  }
  out.set(payload, at);
  view.setUint32(total - 4, crc32(out.subarray(0, total - 4)) >>> 0);
  return out;
}

const event = (type: string, contentType?: string): [string, string][] => [
  [":message-type", "event"],
  ...(contentType ? [[":content-type", contentType] as [string, string]] : []),
  [":event-type", type],
];

export const recordsMessage = (payload: Uint8Array) =>
  eventMessage(event("Records", "application/octet-stream"), payload);

export interface ScanStats {
  bytesScanned: number;
  bytesProcessed: number;
  bytesReturned: number;
}

const statsXml = (root: string, s: ScanStats) =>
  encoder.encode(
    `<?xml version="1.0" encoding="UTF-8"?><${root}><BytesScanned>${s.bytesScanned}</BytesScanned><BytesProcessed>${s.bytesProcessed}</BytesProcessed><BytesReturned>${s.bytesReturned}</BytesReturned></${root}>`,
  );

export const statsMessage = (s: ScanStats) => eventMessage(event("Stats", "text/xml"), statsXml("Stats", s));
export const progressMessage = (s: ScanStats) =>
  eventMessage(event("Progress", "text/xml"), statsXml("Progress", s));
/** Sent while a scan finds nothing to send, so the client knows the server is still at work. */
export const continuationMessage = () => eventMessage(event("Cont"));
export const endMessage = () => eventMessage(event("End"));
/** A failure after the answer has started: its code and message end the stream. */
export const errorMessage = (code: string, message: string) =>
  eventMessage([[":message-type", "error"], [":error-message", message], [":error-code", code]]);
