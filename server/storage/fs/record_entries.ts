/**
 * The framing of a records log entry (record_log.ts): u32 payload length, u32 CRC-32 of the payload, then
 * the payload: u32 JSON length, the JSON `{key, versions, data?: [[versionId, length], ...]}`, and those
 * versions' bytes in that order. Integers are big-endian.
 */
import { crc32 } from "node:zlib";
import type { ObjectRecord } from "../core/records.ts";

export const HEADER = 8;

/** Where some bytes are: in a file, or within an encoded entry. */
export interface Located {
  offset: number;
  length: number;
}

/** One framed entry, and where each version's bytes are within it. */
export function encodeEntry(
  record: ObjectRecord,
  data: Map<string, Uint8Array>,
): { bytes: Uint8Array; located: Map<string, Located> } {
  const json = new TextEncoder().encode(
    JSON.stringify({ ...record, data: data.size ? [...data].map(([id, d]) => [id, d.length]) : undefined }),
  );
  const dataBytes = totalLength(data.values());
  const bytes = new Uint8Array(HEADER + 4 + json.length + dataBytes);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, 4 + json.length + dataBytes);
  view.setUint32(HEADER, json.length);
  bytes.set(json, HEADER + 4);
  const located = new Map<string, Located>();
  let at = HEADER + 4 + json.length;
  for (const [id, d] of data) {
    bytes.set(d, at);
    located.set(id, { offset: at, length: d.length });
    at += d.length;
  }
  view.setUint32(4, crc32(bytes.subarray(HEADER)));
  return { bytes, located };
}

/**
 * An entry's record and where its bytes are in the file (`payloadOffset`: the payload's file offset); null
 * when the payload does not match its checksum or is not a whole entry.
 */
export function decodePayload(
  payload: Uint8Array,
  checksum: number,
  payloadOffset: number,
): { record: ObjectRecord; data: Map<string, Located>; dataBytes: number } | null {
  if (crc32(payload) !== checksum) return null;
  try {
    const jsonLength = new DataView(payload.buffer, payload.byteOffset).getUint32(0);
    const parsed = JSON.parse(new TextDecoder().decode(payload.subarray(4, 4 + jsonLength))) as
      & ObjectRecord
      & { data?: [string, number][] };
    const data = new Map<string, Located>();
    let at = 4 + jsonLength;
    for (const [id, length] of parsed.data ?? []) {
      data.set(id, { offset: payloadOffset + at, length });
      at += length;
    }
    if (at !== payload.length || typeof parsed.key !== "string" || !Array.isArray(parsed.versions)) {
      return null;
    }
    return { record: { key: parsed.key, versions: parsed.versions }, data, dataBytes: at - 4 - jsonLength };
  } catch {
    return null;
  }
}

/** The summed length of byte arrays or locations. */
export function totalLength(pieces: Iterable<{ length: number }>): number {
  let total = 0;
  for (const piece of pieces) total += piece.length;
  return total;
}
