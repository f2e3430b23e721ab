/** Reading request bodies without a fresh buffer per read. */

/**
 * Iterates a body's bytes. A byte stream is read with a BYOB reader into one reused 64 KiB buffer, so each
 * piece is a view valid only until the next iteration: consumers must use it (hash, write, copy) before
 * asking for more. Other streams yield their own chunks.
 */
export async function* piecesOf(body: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  let reader: ReadableStreamBYOBReader;
  try {
    reader = body.getReader({ mode: "byob" });
  } catch {
    for await (const chunk of body) yield chunk;
    return;
  }
  // 64 KiB: reading a request body directly costs in proportion to the view offered.
  let buffer = new ArrayBuffer(64 * 1024);
  try {
    while (true) {
      const { value, done } = await reader.read(new Uint8Array(buffer));
      if (value) buffer = value.buffer as ArrayBuffer;
      if (done || !value) return;
      if (value.byteLength) yield value;
    }
  } finally {
    reader.releaseLock();
  }
}
