/** Byte helpers shared by the client and the embedded storage. */

/** The parts joined into one array; a single part (not in shared memory) is returned as it is, without a copy. */
export function concatBytes(parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  if (parts.length === 1 && parts[0].buffer instanceof ArrayBuffer) {
    return parts[0] as Uint8Array<ArrayBuffer>;
  }
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
