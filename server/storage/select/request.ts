/**
 * The SelectObjectContent request document (`<SelectObjectContentRequest>` or `<SelectRequest>`) as MinIO
 * reads it: the SQL expression, the input's format (CSV, JSON; Parquet only where enabled) and compression,
 * the output's format, progress and the scan range; with MinIO's error codes for what it refuses.
 */
import { child, childBool, childText, type XmlNode } from "../../lib/s3/xml.ts";
import { StoreError } from "../core/errors.ts";

export type Compression = "NONE" | "GZIP" | "BZIP2";

export interface CsvInput {
  fileHeaderInfo: "USE" | "IGNORE" | "NONE";
  recordDelimiter: string;
  fieldDelimiter: string;
  quoteCharacter: string;
  quoteEscapeCharacter: string;
  comments: string;
  allowQuotedRecordDelimiter: boolean;
}

export interface CsvOutput {
  quoteFields: "ALWAYS" | "ASNEEDED";
  recordDelimiter: string;
  fieldDelimiter: string;
  quoteCharacter: string;
  quoteEscapeCharacter: string;
}

export interface SelectRequest {
  expression: string;
  input:
    & { compression: Compression }
    & ({ format: "CSV"; csv: CsvInput } | { format: "JSON"; lines: boolean });
  output: { format: "CSV"; csv: CsvOutput } | { format: "JSON"; recordDelimiter: string };
  progress: boolean;
  /** Bytes of the object to scan: [start, end) (end exclusive), or the last `suffix` bytes. */
  scanRange?: { start?: number; end?: number };
}

/** A select failure with its code (400 unless said otherwise), before or during the answer. */
export const selectError = (code: string, message: string, status = 400) =>
  new StoreError(code, message, status);

const missing = (what: string) =>
  selectError(
    "MissingRequiredParameter",
    `The SelectRequest entity is missing a required parameter. Check the service documentation and try again. (${what})`,
  );

/** A delimiter-like field: its text as sent, or the default when absent or empty. */
const text = (node: XmlNode | undefined, name: string, fallback: string) => {
  const value = childText(node, name);
  return value === undefined || value === "" ? fallback : value;
};

function csvInput(node: XmlNode): CsvInput {
  const header = (childText(node, "FileHeaderInfo") ?? "NONE").toUpperCase();
  if (header !== "USE" && header !== "IGNORE" && header !== "NONE") {
    throw selectError(
      "InvalidFileHeaderInfo",
      "The FileHeaderInfo is invalid. Only NONE, USE, and IGNORE are supported.",
    );
  }
  const quote = text(node, "QuoteCharacter", '"');
  return {
    fileHeaderInfo: header,
    recordDelimiter: text(node, "RecordDelimiter", "\n"),
    fieldDelimiter: text(node, "FieldDelimiter", ","),
    quoteCharacter: quote,
    quoteEscapeCharacter: text(node, "QuoteEscapeCharacter", quote),
    comments: text(node, "Comments", "#"),
    allowQuotedRecordDelimiter: childBool(node, "AllowQuotedRecordDelimiter") === true,
  };
}

function inputOf(node: XmlNode | undefined): SelectRequest["input"] {
  if (!node) throw missing("InputSerialization must be provided");
  const compressionText = (childText(node, "CompressionType") ?? "NONE").toUpperCase() || "NONE";
  if (!["NONE", "GZIP", "BZIP2"].includes(compressionText)) {
    throw selectError(
      "InvalidCompressionFormat",
      "The file is not in a supported compression format. GZIP and BZIP2 are supported.",
    );
  }
  const compression = compressionText as Compression;
  const formats = ["CSV", "JSON", "Parquet"].filter((name) => child(node, name));
  if (formats.length !== 1) {
    throw selectError(
      "InvalidDataSource",
      "Invalid data source type. Only CSV, JSON, and Parquet are supported.",
    );
  }
  if (formats[0] === "Parquet") {
    // MinIO reads Parquet only with MINIO_API_SELECT_PARQUET=on (otherwise a 500); there is no reader here.
    throw selectError(
      "NotImplemented",
      "Parquet input is not supported: parquet format parsing not enabled on server",
      501,
    );
  }
  if (formats[0] === "CSV") return { compression, format: "CSV", csv: csvInput(child(node, "CSV")!) };
  const type = (childText(child(node, "JSON"), "Type") ?? "").toUpperCase();
  if (type !== "DOCUMENT" && type !== "LINES") {
    throw selectError("InvalidJsonType", "The JsonType is invalid. Only DOCUMENT and LINES are supported.");
  }
  return { compression, format: "JSON", lines: type === "LINES" };
}

function outputOf(node: XmlNode | undefined): SelectRequest["output"] {
  if (!node) throw missing("OutputSerialization must be provided");
  const csv = child(node, "CSV"), json = child(node, "JSON");
  if (!!csv === !!json) {
    throw selectError(
      "ObjectSerializationConflict",
      "InputSerialization specifies more than one format (CSV, JSON, or Parquet), or OutputSerialization specifies more than one format (CSV or JSON). InputSerialization and OutputSerialization can only specify one format each.",
    );
  }
  if (json) return { format: "JSON", recordDelimiter: text(json, "RecordDelimiter", "\n") };
  const quote = text(csv, "QuoteCharacter", '"');
  const quoteFields = (childText(csv, "QuoteFields") ?? "ASNEEDED").toUpperCase();
  return {
    format: "CSV",
    csv: {
      quoteFields: quoteFields === "ALWAYS" ? "ALWAYS" : "ASNEEDED",
      recordDelimiter: text(csv, "RecordDelimiter", "\n"),
      fieldDelimiter: text(csv, "FieldDelimiter", ","),
      quoteCharacter: quote,
      quoteEscapeCharacter: text(csv, "QuoteEscapeCharacter", quote),
    },
  };
}

function scanRangeOf(node: XmlNode | undefined): SelectRequest["scanRange"] {
  if (!node) return undefined;
  const number = (name: string) => {
    const value = childText(node, name)?.trim();
    if (value === undefined) return undefined;
    if (!/^\d+$/.test(value)) throw selectError("InvalidScanRange", `ScanRange: ${name} is not a number`);
    return Number(value);
  };
  const start = number("Start"), end = number("End");
  if (start === undefined && end === undefined) {
    throw selectError("InvalidScanRange", "ScanRange: No Start or End specified");
  }
  if (start !== undefined && end !== undefined && start > end) {
    throw selectError("InvalidScanRange", "ScanRange: Start cannot be after end");
  }
  return { start, end };
}

/** Reads the request document; the expression itself is parsed by the SQL parser. */
export function parseSelectRequest(root: XmlNode): SelectRequest {
  if (root.name !== "SelectObjectContentRequest" && root.name !== "SelectRequest") {
    throw selectError(
      "MalformedXML",
      "The XML provided was not well-formed or did not validate against our published schema.",
    );
  }
  const expressionType = (childText(root, "ExpressionType") ?? "").toLowerCase();
  if (expressionType !== "sql") {
    throw selectError(
      "InvalidExpressionType",
      "The ExpressionType is invalid. Only SQL expressions are supported.",
    );
  }
  const expression = childText(root, "Expression");
  if (!expression) throw missing("Expression must be provided");
  return {
    expression,
    input: inputOf(child(root, "InputSerialization")),
    output: outputOf(child(root, "OutputSerialization")),
    progress: childBool(child(root, "RequestProgress"), "Enabled") === true,
    scanRange: scanRangeOf(child(root, "ScanRange")),
  };
}
