/**
 * A streaming reader of multipart/form-data bodies (RFC 7578): parts come one at a time, and a file part's
 * bytes are handed on as they arrive instead of being buffered, so a form upload of any size uses a
 * bounded amount of memory. Used by the embedded server's POST policy uploads and the console's form
 * upload endpoint.
 *
 *   for await (const part of formParts(request.body, boundaryOf(contentType)!)) {
 *     if (part.filename === undefined) fields.set(part.name, await part.text(1024 * 1024));
 *     else for await (const bytes of part.data()) sink.write(bytes);
 *   }
 */

/** One part of a form; read its data (or text) before asking for the next part. */
export interface FormPart {
  /** The field name from Content-Disposition. */
  name: string;
  /** The file name for file parts; undefined for plain fields. */
  filename?: string;
  /** The part's own Content-Type, when it has one. */
  contentType?: string;
  /** The part's headers by lower-case name (the last of repeated ones). */
  headers: Map<string, string>;
  /** The part's bytes as they arrive: views valid until the next one is asked for. */
  data(): AsyncGenerator<Uint8Array>;
  /** The whole part as UTF-8 text; throws FormError when it is longer than `limit` bytes. */
  text(limit: number): Promise<string>;
}

/** A malformed form, or a part over its limit. */
export class FormError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "FormError";
  }
}

/** The boundary of a multipart/form-data Content-Type, or null when it is not one. */
export function boundaryOf(contentType: string | null): string | null {
  if (!contentType || !/^multipart\/form-data\s*(;|$)/i.test(contentType)) return null;
  const match = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  const boundary = match?.[1] ?? match?.[2] ?? null;
  return boundary && boundary.length <= 70 ? boundary : null;
}

const HEADER_LIMIT = 16 * 1024;
const CR = 13, LF = 10, DASH = 45;

/** Buffered input with the search for the next delimiter. */
class Input {
  #buf = new Uint8Array(0);
  #start = 0;
  #end = 0;
  #done = false;
  readonly #reader: ReadableStreamDefaultReader<Uint8Array>;

  constructor(body: ReadableStream<Uint8Array>) {
    this.#reader = body.getReader();
  }

  get available(): number {
    return this.#end - this.#start;
  }

  get ended(): boolean {
    return this.#done;
  }

  /** Reads more; false at the end of the body. */
  async fill(): Promise<boolean> {
    if (this.#done) return false;
    const { value, done } = await this.#reader.read();
    if (done) {
      this.#done = true;
      return false;
    }
    const unread = this.available;
    if (this.#end + value.length <= this.#buf.length) {
      this.#buf.set(value, this.#end);
      this.#end += value.length;
      return true;
    }
    if (unread + value.length > this.#buf.length) {
      const grown = new Uint8Array(Math.max(unread + value.length, this.#buf.length * 2, 64 * 1024));
      grown.set(this.#buf.subarray(this.#start, this.#end));
      this.#buf = grown;
    } else {
      this.#buf.copyWithin(0, this.#start, this.#end);
    }
    this.#start = 0;
    this.#end = unread + value.length;
    this.#buf.set(value, unread);
    return true;
  }

  /** Offset from the unread start of `needle`, or -1. */
  indexOf(needle: Uint8Array, from = 0): number {
    const buf = this.#buf, first = needle[0], last = this.#end - needle.length;
    for (let i = this.#start + from; i <= last; i++) {
      i = buf.indexOf(first, i);
      if (i === -1 || i > last) return -1;
      let j = 1;
      while (j < needle.length && buf[i + j] === needle[j]) j++;
      if (j === needle.length) return i - this.#start;
    }
    return -1;
  }

  byteAt(offset: number): number {
    return this.#buf[this.#start + offset];
  }

  /** Takes `n` bytes as a view (valid until the next fill). */
  take(n: number): Uint8Array {
    const view = this.#buf.subarray(this.#start, this.#start + n);
    this.#start += n;
    return view;
  }

  cancel(reason: unknown): Promise<void> {
    return this.#reader.cancel(reason).catch(() => {});
  }
}

/**
 * A part's header block. Browsers send names in it as raw UTF-8 (RFC 7578 §5.1), which a fetch Headers
 * object cannot hold (it takes bytes as Latin-1 and refuses anything above): the block is decoded as
 * UTF-8, strictly, into a plain map.
 */
function parseHeaders(bytes: Uint8Array): Map<string, string> {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new FormError("a part's headers are not valid UTF-8 (send names as UTF-8)");
  }
  const headers = new Map<string, string>();
  for (const line of text.split("\r\n")) {
    const colon = line.indexOf(":");
    if (colon <= 0) throw new FormError("malformed part header");
    headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return headers;
}

/** Content-Disposition parameters: name and filename (quoted strings with backslash escapes, or filename*). */
function dispositionOf(value: string | null): { name: string; filename?: string } {
  if (!value || !/^form-data\s*(;|$)/i.test(value)) throw new FormError("part without form-data disposition");
  const params: Record<string, string> = {};
  const re = /;\s*([A-Za-z0-9_*-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]*))/g;
  for (let m = re.exec(value); m; m = re.exec(value)) {
    params[m[1].toLowerCase()] = m[2] !== undefined ? m[2].replace(/\\(.)/g, "$1") : m[3].trim();
  }
  if (params.name === undefined) throw new FormError("part without a name");
  let filename = params.filename === undefined ? undefined : unescapeFormName(params.filename);
  const extended = params["filename*"];
  if (extended) {
    const m = /^UTF-8''(.*)$/i.exec(extended);
    try {
      if (m) filename = decodeURIComponent(m[1]);
    } catch {
      throw new FormError("a part's filename* is not percent-encoded UTF-8");
    }
  }
  return { name: unescapeFormName(params.name), filename };
}

/**
 * Browsers (and the WHATWG FormData encoder) send `"`, CR and LF in names as %22, %0D and %0A and leave
 * every other byte alone, so only those three are decoded.
 */
function unescapeFormName(text: string): string {
  return text.replace(/%(22|0D|0A)/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** A part's bytes up to the next delimiter, which is consumed too. */
async function* partData(input: Input, delimiter: Uint8Array): AsyncGenerator<Uint8Array> {
  while (true) {
    const at = input.indexOf(delimiter);
    if (at !== -1) {
      if (at > 0) yield input.take(at);
      input.take(delimiter.length);
      return;
    }
    // Everything but a possible start of the delimiter can go now.
    const safe = input.available - (delimiter.length - 1);
    if (safe > 0) yield input.take(safe);
    if (!(await input.fill())) throw new FormError("form ended inside a part");
  }
}

/**
 * The parts of a multipart/form-data body, in order. Each part's data must be read (or is skipped) before
 * the next part is produced. Malformed bodies throw FormError. Leaving a for-await loop over the parts (break,
 * return) ends the generator and cancels the body: a reader that stops at a part to stream its data later
 * must take the parts with next() instead.
 */
export async function* formParts(
  body: ReadableStream<Uint8Array>,
  boundary: string,
): AsyncGenerator<FormPart> {
  const input = new Input(body);
  const enc = new TextEncoder();
  const opening = enc.encode(`--${boundary}`);
  const delimiter = enc.encode(`\r\n--${boundary}`);
  const headerEnd = enc.encode("\r\n\r\n");
  let finished = false;
  try {
    // The preamble ends at the first boundary line.
    while (true) {
      const at = input.indexOf(opening);
      if (at !== -1) {
        input.take(at + opening.length);
        break;
      }
      if (input.available > HEADER_LIMIT || !(await input.fill())) {
        throw new FormError("no multipart boundary found");
      }
    }
    while (true) {
      // After a boundary: "--" closes the form, CRLF starts a part.
      while (input.available < 2) {
        if (!(await input.fill())) throw new FormError("form ended after a boundary");
      }
      if (input.byteAt(0) === DASH && input.byteAt(1) === DASH) {
        finished = true;
        return;
      }
      // Transport padding (spaces, tabs) may follow a boundary before its CRLF.
      let lineEnd: number;
      while ((lineEnd = input.indexOf(new Uint8Array([CR, LF]))) === -1) {
        if (input.available > HEADER_LIMIT || !(await input.fill())) {
          throw new FormError("malformed boundary line");
        }
      }
      input.take(lineEnd + 2);
      let end: number;
      while ((end = input.indexOf(headerEnd)) === -1) {
        if (input.available > HEADER_LIMIT || !(await input.fill())) {
          throw new FormError("part headers too long or cut off");
        }
      }
      const headers = parseHeaders(input.take(end));
      input.take(4);
      const { name, filename } = dispositionOf(headers.get("content-disposition") ?? null);
      let consumed = false;
      const data = () => {
        if (consumed) throw new FormError("part data already read");
        consumed = true;
        return partData(input, delimiter);
      };
      const part: FormPart = {
        name,
        filename,
        contentType: headers.get("content-type") ?? undefined,
        headers,
        data,
        async text(limit) {
          const chunks: Uint8Array[] = [];
          let size = 0;
          for await (const piece of data()) {
            size += piece.length;
            if (size > limit) throw new FormError(`form field ${name} is larger than ${limit} bytes`);
            chunks.push(piece.slice());
          }
          const all = new Uint8Array(size);
          let at = 0;
          for (const c of chunks) (all.set(c, at), at += c.length);
          return new TextDecoder().decode(all);
        },
      };
      yield part;
      if (!consumed) { for await (const _ of data()); // the consumer skipped it
       }
    }
  } finally {
    if (!finished) await input.cancel("form not read to its end");
  }
}
