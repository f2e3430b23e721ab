/**
 * HTTP/1.1 requests written by hand on a socket of their own, for what no client library does on purpose:
 * stopping halfway through a body, closing mid-body, half-closing, sending a body to a route that answers
 * before reading it. What came back is reported as the status line's code, or null when nothing did.
 */

/**
 * How the body goes out: all of it; half, then the socket closes; half, then only the sending side closes;
 * half, then the rest once the answer has come (a client that did not notice it was refused).
 */
export type SendMode = "whole" | "close-mid-body" | "half-close" | "rest-after-answer";

export interface RawRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: Uint8Array;
  /** Content-Length to declare (default: the body's length). */
  declaredLength?: number;
}

const encoder = new TextEncoder();

/** Sends the request as `mode` says and resolves with the answer's status, or null (no answer, or reset). */
export async function sendRaw(url: string, request: RawRequest, mode: SendMode): Promise<number | null> {
  const { hostname, port } = new URL(url);
  const conn = await Deno.connect({ hostname, port: Number(port) });
  const headers = { host: `${hostname}:${port}`, ...request.headers };
  const head = `${request.method} ${request.path} HTTP/1.1\r\n` +
    Object.entries({ ...headers, "content-length": String(request.declaredLength ?? request.body.length) })
      .map(([name, value]) => `${name}: ${value}\r\n`).join("") +
    "\r\n";
  const answer = readStatus(conn);
  try {
    const body = mode === "whole" ? request.body : request.body.subarray(0, request.body.length >> 1);
    await writeAll(conn, encoder.encode(head));
    await writeAll(conn, body);
    if (mode === "half-close") await conn.closeWrite();
    if (mode === "rest-after-answer" && (await answer) !== null) {
      await writeAll(conn, request.body.subarray(body.length));
    }
  } catch { /* the server stopped reading and closed: it may have answered before */ }
  try {
    return mode === "close-mid-body" ? null : await answer;
  } finally {
    try {
      conn.close();
    } catch { /* already closed */ }
    await answer.catch(() => {});
  }
}

async function writeAll(conn: Deno.Conn, bytes: Uint8Array): Promise<void> {
  for (let at = 0; at < bytes.length;) at += await conn.write(bytes.subarray(at));
}

/** The status code of the first answer on the connection, or null when it closes (or resets) without one. */
async function readStatus(conn: Deno.Conn): Promise<number | null> {
  const buffer = new Uint8Array(256);
  let text = "";
  try {
    while (!text.includes("\r\n")) {
      const n = await conn.read(buffer);
      if (n === null) break;
      text += new TextDecoder().decode(buffer.subarray(0, n));
    }
  } catch {
    return null;
  }
  const match = /^HTTP\/1\.[01] (\d{3})/.exec(text);
  return match ? Number(match[1]) : null;
}

/**
 * A multipart/form-data body: the fields in order, then (if given) the file part, then the closing line. The
 * file part is named `file` (S3's browser forms) unless `field` names it (the console's form, one part per object).
 */
export function formBody(
  boundary: string,
  fields: [string, string][],
  file?: { field?: string; filename: string; bytes: Uint8Array },
): Uint8Array<ArrayBuffer> {
  let text = "";
  for (const [name, value] of fields) {
    text += `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  }
  const parts: Uint8Array[] = [encoder.encode(text)];
  if (file) {
    parts.push(
      encoder.encode(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? "file"}"; ` +
          `filename="${file.filename}"\r\n` +
          "Content-Type: application/octet-stream\r\n\r\n",
      ),
      file.bytes,
      encoder.encode("\r\n"),
    );
  }
  parts.push(encoder.encode(`--${boundary}--\r\n`));
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) (out.set(part, at), at += part.length);
  return out;
}
