/**
 * The rows S3 Select scans: the object's bytes decompressed (GZIP, BZIP2) and split into CSV records
 * (delimiters, quotes and their escape, comment lines, a header row) or JSON values (one per line, or a
 * stream of documents), counting the bytes scanned and processed for the Stats the answer ends with.
 */
import type { Compression, CsvInput, SelectRequest } from "./request.ts";
import { selectError } from "./request.ts";
import type { Row } from "./sql_eval.ts";

export interface ScanCounters {
  bytesScanned: number;
  bytesProcessed: number;
}

const corrupt = (compression: Compression, detail: string) =>
  selectError(
    "InvalidCompressionFormat",
    `The file is not in a supported compression format. GZIP and BZIP2 are supported. (${compression}: ${detail})`,
  );

async function* bzip2Chunks(source: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  // Loaded by the first BZIP2 select: held from start it cost the storage about 4 MiB it rarely needs.
  const { default: bunzip2 } = await import("unbzip2-stream");
  const stream = bunzip2();
  const out: Uint8Array[] = [];
  let failure: Error | null = null;
  let ended = false;
  stream.on("data", (chunk: Uint8Array) => out.push(new Uint8Array(chunk)));
  stream.on("error", (error: Error) => (failure = error));
  stream.on("end", () => (ended = true));
  const drain = function* () {
    if (failure) throw corrupt("BZIP2", (failure as Error).message);
    while (out.length) yield out.shift()!;
  };
  for await (const chunk of source) {
    stream.write(chunk);
    yield* drain();
  }
  stream.end();
  yield* drain();
  if (!ended && !failure) throw corrupt("BZIP2", "the data ended early");
}

async function* gzipChunks(source: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  const inflate = new DecompressionStream("gzip");
  const writer = inflate.writable.getWriter();
  const pump = (async () => {
    for await (const chunk of source) await writer.write(chunk as Uint8Array<ArrayBuffer>);
    await writer.close();
  })();
  pump.catch(() => {});
  try {
    for await (const chunk of inflate.readable) yield chunk;
    await pump;
  } catch (error) {
    throw error instanceof TypeError || (error as Error).name === "TypeError"
      ? corrupt("GZIP", (error as Error).message)
      : error;
  }
}

/** The object's bytes, decompressed, with the counters kept up to date. */
async function* plainBytes(
  body: ReadableStream<Uint8Array>,
  compression: Compression,
  counters: ScanCounters,
): AsyncGenerator<Uint8Array> {
  async function* scanned() {
    for await (const chunk of body) {
      counters.bytesScanned += chunk.length;
      yield chunk;
    }
  }
  const chunks = compression === "GZIP"
    ? gzipChunks(scanned())
    : compression === "BZIP2"
    ? bzip2Chunks(scanned())
    : scanned();
  for await (const chunk of chunks) {
    counters.bytesProcessed += chunk.length;
    yield chunk;
  }
}

async function* textOf(bytes: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  for await (const chunk of bytes) yield decoder.decode(chunk, { stream: true });
  const rest = decoder.decode();
  if (rest) yield rest;
}

/** CSV records as field lists; a quoted field may hold delimiters and record delimiters. */
async function* csvRecords(text: AsyncIterable<string>, args: CsvInput): AsyncGenerator<string[]> {
  const { fieldDelimiter: fd, recordDelimiter: rd, quoteCharacter: q, quoteEscapeCharacter: esc } = args;
  let buffer = "";
  let fields: string[] = [];
  let field = "";
  let quoted = false, inQuotes = false, atFieldStart = true;
  let pos = 0;
  const endRecord = function* () {
    fields.push(field);
    const record = fields;
    // A blank line is no record; a line starting with the comment character is a comment.
    const skipped = (record.length === 1 && record[0] === "" && !quoted) ||
      (!!args.comments && !quoted && record[0].startsWith(args.comments));
    fields = [];
    field = "";
    quoted = false;
    atFieldStart = true;
    if (!skipped) yield record;
  };
  const consume = function* (final: boolean) {
    while (pos < buffer.length) {
      // Multi-character delimiters may straddle a chunk: wait for more text unless this is the end.
      const need = Math.max(fd.length, rd.length, q.length, esc.length, 2);
      if (!final && buffer.length - pos < need) break;
      if (inQuotes) {
        if (esc !== q && buffer.startsWith(esc, pos) && buffer.startsWith(q, pos + esc.length)) {
          field += q;
          pos += esc.length + q.length;
        } else if (buffer.startsWith(q, pos)) {
          if (esc === q && buffer.startsWith(q, pos + q.length)) {
            field += q;
            pos += 2 * q.length;
          } else {
            inQuotes = false;
            pos += q.length;
          }
        } else field += buffer[pos++];
      } else if (atFieldStart && q && buffer.startsWith(q, pos)) {
        inQuotes = quoted = true;
        atFieldStart = false;
        pos += q.length;
      } else if (buffer.startsWith(fd, pos)) {
        fields.push(field);
        field = "";
        atFieldStart = true;
        pos += fd.length;
      } else if (buffer.startsWith(rd, pos) || (rd === "\n" && buffer.startsWith("\r\n", pos))) {
        pos += buffer.startsWith("\r\n", pos) && rd === "\n" ? 2 : rd.length;
        yield* endRecord();
      } else {
        field += buffer[pos++];
        atFieldStart = false;
      }
    }
    buffer = buffer.slice(pos);
    pos = 0;
  };
  for await (const chunk of text) {
    buffer += chunk;
    yield* consume(false);
  }
  yield* consume(true);
  if (inQuotes) {
    throw selectError(
      "CSVParsingError",
      "Encountered an error parsing the CSV file: a quoted field never ends.",
    );
  }
  if (field !== "" || fields.length) yield* endRecord();
}

/** Splits a stream of concatenated JSON documents (or one per line) into parsed values. */
async function* jsonValues(text: AsyncIterable<string>): AsyncGenerator<unknown> {
  let buffer = "", depth = 0, inString = false, escaped = false, start = -1, scanned = 0;
  const parse = (source: string) => {
    try {
      return JSON.parse(source);
    } catch (error) {
      throw selectError(
        "JSONParsingError",
        `Encountered an error parsing the JSON file: ${(error as Error).message}`,
      );
    }
  };
  const flushScalar = function* (end: number) {
    const scalar = buffer.slice(start, end).trim();
    if (scalar) yield parse(scalar);
    start = -1;
  };
  for await (const chunk of text) {
    buffer += chunk;
    for (let i = scanned; i < buffer.length; i++) {
      const c = buffer[i];
      if (inString) {
        if (escaped) escaped = false;
        else if (c === "\\") escaped = true;
        else if (c === '"') {
          inString = false;
          if (depth === 0) yield* flushScalar(i + 1);
        }
      } else if (c === '"') {
        if (start < 0) start = i;
        inString = true;
      } else if (c === "{" || c === "[") {
        if (start < 0) start = i;
        depth++;
      } else if (c === "}" || c === "]") {
        if (--depth === 0) yield* flushScalar(i + 1);
      } else if (/\s/.test(c)) {
        if (depth === 0 && start >= 0) yield* flushScalar(i);
      } else if (start < 0) start = i;
    }
    scanned = buffer.length;
    if (start < 0 && depth === 0 && !inString) {
      buffer = "";
      scanned = 0;
    } else if (start > 0) {
      buffer = buffer.slice(start);
      scanned -= start;
      start = 0;
    }
  }
  if (inString || depth > 0) {
    throw selectError("JSONParsingError", "Encountered an error parsing the JSON file: it ends early.");
  }
  if (start >= 0) yield* flushScalar(buffer.length);
}

/** The rows of the object as the request describes its input. */
export async function* inputRows(
  body: ReadableStream<Uint8Array>,
  input: SelectRequest["input"],
  counters: ScanCounters,
): AsyncGenerator<Row> {
  const text = textOf(plainBytes(body, input.compression, counters));
  if (input.format === "JSON") {
    for await (const value of jsonValues(text)) {
      // Non-object values are one column, `_1`, as MinIO (and S3) read them.
      yield {
        json: value !== null && typeof value === "object" && !Array.isArray(value) ? value : { _1: value },
      };
    }
    return;
  }
  let names: string[] | undefined;
  let first = true;
  for await (const record of csvRecords(text, input.csv)) {
    if (first && input.csv.fileHeaderInfo !== "NONE") {
      first = false;
      if (input.csv.fileHeaderInfo === "USE") names = record;
      continue;
    }
    first = false;
    yield { csv: record, names };
  }
}
