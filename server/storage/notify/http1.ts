/**
 * A minimal HTTP/1.1 client for the webhook target's plain-http endpoints: one kept-alive connection, one
 * request at a time (never pipelined, so a failed request is the only one in doubt and none is sent twice
 * after a failure). `fetch` builds Request/Headers/AbortSignal/stream objects for every POST, which cost the
 * delivery thread more CPU than everything else an event needs; this writes the request as one buffer and
 * reads only the status line, the framing headers and the body's length.
 */

const encoder = new TextEncoder();
const CRLF2 = [13, 10, 13, 10];

export interface Http1Response {
  status: number;
}

export class Http1Connection {
  readonly #host: string;
  readonly #port: number;
  readonly #head: string;
  #conn: Deno.TcpConn | null = null;
  /** Bytes read past the previous response. */
  #rest: Uint8Array = new Uint8Array(0);

  /** `head`: the request line and fixed headers, each ending in CRLF (Content-Length is added per request). */
  constructor(url: URL, head: string) {
    this.#host = url.hostname.replace(/^\[|\]$/g, "");
    this.#port = Number(url.port) || 80;
    this.#head = head;
  }

  /** Sends one POST and reads its response; rejects on a broken connection or the deadline. */
  async post(body: string, timeoutMs: number): Promise<Http1Response> {
    const payload = encoder.encode(body);
    const request = concat(encoder.encode(`${this.#head}content-length: ${payload.length}\r\n\r\n`), payload);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const call = { late: false };
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        call.late = true;
        this.close();
        reject(new Error(`no answer within ${timeoutMs} ms`));
      }, timeoutMs);
    });
    try {
      return await Promise.race([this.#exchange(request, call), deadline]);
    } finally {
      clearTimeout(timer);
    }
  }

  async #exchange(request: Uint8Array, call: { late: boolean }): Promise<Http1Response> {
    const reused = this.#conn !== null;
    try {
      return await this.#once(request);
    } catch (error) {
      this.close();
      // A kept-alive connection the server closed while idle fails before any answer: the request never
      // reached it, so it is sent again once on a fresh connection.
      if (reused && !call.late && error instanceof IdleClosed) return await this.#once(request).catch((e) => (this.close(), Promise.reject(e)));
      throw error;
    }
  }

  async #once(request: Uint8Array): Promise<Http1Response> {
    if (!this.#conn) {
      this.#conn = await Deno.connect({ hostname: this.#host, port: this.#port });
      this.#conn.setNoDelay(true);
      this.#rest = new Uint8Array(0);
    }
    const conn = this.#conn;
    try {
      let written = 0;
      while (written < request.length) written += await conn.write(request.subarray(written));
    } catch (error) {
      throw new IdleClosed(error instanceof Error ? error.message : String(error));
    }
    // Status line and headers (an interim 1xx answer is passed over).
    let buffer = this.#rest;
    let lines: string[];
    let status: RegExpExecArray | null;
    let first = true;
    while (true) {
      let end = indexOf(buffer, CRLF2);
      while (end < 0) {
        const chunk = await this.#read(conn, first && buffer.length === 0);
        buffer = concat(buffer, chunk);
        end = indexOf(buffer, CRLF2);
      }
      first = false;
      lines = new TextDecoder().decode(buffer.subarray(0, end)).split("\r\n");
      buffer = buffer.subarray(end + 4);
      status = /^HTTP\/1\.[01] (\d{3})/.exec(lines[0]);
      if (!status) throw new Error(`not an HTTP/1.1 answer: ${lines[0].slice(0, 40)}`);
      if (status[1][0] !== "1" || status[1] === "101") break;
    }
    let length: number | null = null;
    let chunked = false;
    let close = lines[0].startsWith("HTTP/1.0");
    for (let i = 1; i < lines.length; i++) {
      const colon = lines[i].indexOf(":");
      const name = lines[i].slice(0, colon).trim().toLowerCase();
      const value = lines[i].slice(colon + 1).trim().toLowerCase();
      if (name === "content-length") length = Number(value);
      else if (name === "transfer-encoding") chunked = value.includes("chunked");
      else if (name === "connection") close = value.includes("close") ? true : value.includes("keep-alive") ? false : close;
    }
    const code = Number(status[1]);
    const bodyless = code === 204 || code === 304 || (code >= 100 && code < 200);
    if (bodyless) {
      // no body
    } else if (chunked) {
      buffer = await this.#skipChunked(conn, buffer);
    } else if (length !== null && Number.isFinite(length)) {
      while (buffer.length < length) buffer = concat(buffer, await this.#read(conn, false));
      buffer = buffer.subarray(length);
    } else {
      // Delimited by the end of the connection.
      while (true) {
        const n = await conn.read(new Uint8Array(16 * 1024)).catch(() => null);
        if (n === null) break;
      }
      close = true;
    }
    if (close) this.close();
    else this.#rest = buffer.slice();
    return { status: code };
  }

  /** Consumes a chunked body; resolves with the bytes after it. */
  async #skipChunked(conn: Deno.TcpConn, buffer: Uint8Array): Promise<Uint8Array> {
    while (true) {
      let nl = indexOf(buffer, [13, 10]);
      while (nl < 0) {
        buffer = concat(buffer, await this.#read(conn, false));
        nl = indexOf(buffer, [13, 10]);
      }
      const size = parseInt(new TextDecoder().decode(buffer.subarray(0, nl)).split(";")[0].trim(), 16);
      if (!Number.isFinite(size)) throw new Error("bad chunk size in the answer");
      buffer = buffer.subarray(nl + 2);
      if (size === 0) {
        // Trailers (if any) end with an empty line.
        let end = indexOf(buffer, [13, 10]);
        while (true) {
          while (end < 0) {
            buffer = concat(buffer, await this.#read(conn, false));
            end = indexOf(buffer, [13, 10]);
          }
          const empty = end === 0;
          buffer = buffer.subarray(end + 2);
          if (empty) return buffer;
          end = indexOf(buffer, [13, 10]);
        }
      }
      while (buffer.length < size + 2) buffer = concat(buffer, await this.#read(conn, false));
      buffer = buffer.subarray(size + 2);
    }
  }

  async #read(conn: Deno.TcpConn, first: boolean): Promise<Uint8Array> {
    const chunk = new Uint8Array(16 * 1024);
    let n: number | null;
    try {
      n = await conn.read(chunk);
    } catch (error) {
      if (first) throw new IdleClosed(error instanceof Error ? error.message : String(error));
      throw error;
    }
    if (n === null) {
      if (first) throw new IdleClosed("connection closed");
      throw new Error("connection closed in the middle of the answer");
    }
    return chunk.subarray(0, n);
  }

  close(): void {
    try {
      this.#conn?.close();
    } catch { /* already closed */ }
    this.#conn = null;
    this.#rest = new Uint8Array(0);
  }
}

/** The connection ended before any byte of the answer. */
class IdleClosed extends Error {}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length === 0) return b;
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

function indexOf(buffer: Uint8Array, pattern: number[]): number {
  outer: for (let i = buffer.indexOf(pattern[0]); i >= 0 && i <= buffer.length - pattern.length; i = buffer.indexOf(pattern[0], i + 1)) {
    for (let j = 1; j < pattern.length; j++) if (buffer[i + j] !== pattern[j]) continue outer;
    return i;
  }
  return -1;
}
