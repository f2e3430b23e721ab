/**
 * A JSON parser that remembers where every value came from (line and column), so policy errors can point
 * at the line the user must fix. Pure and browser-safe: the JSON editor island uses it too.
 */

export interface Position {
  line: number;
  column: number;
}

export type JsonNode =
  | { kind: "object"; at: Position; entries: { key: string; keyAt: Position; value: JsonNode }[] }
  | { kind: "array"; at: Position; items: JsonNode[] }
  | { kind: "string"; at: Position; value: string }
  | { kind: "number"; at: Position; value: number }
  | { kind: "boolean"; at: Position; value: boolean }
  | { kind: "null"; at: Position };

export class JsonSyntaxError extends Error {
  constructor(message: string, readonly at: Position) {
    super(`${message} (line ${at.line}, column ${at.column})`);
    this.name = "JsonSyntaxError";
  }
}

/** Parses JSON text into a positioned tree; throws JsonSyntaxError with the position of the problem. */
export function parseJsonSource(text: string): JsonNode {
  let i = 0;
  let line = 1;
  let lineStart = 0;
  const here = (): Position => ({ line, column: i - lineStart + 1 });
  const fail = (message: string): never => {
    throw new JsonSyntaxError(message, here());
  };
  const skip = () => {
    while (i < text.length) {
      const ch = text[i];
      if (ch === "\n") {
        line++;
        lineStart = i + 1;
      } else if (ch !== " " && ch !== "\t" && ch !== "\r") break;
      i++;
    }
  };
  const parseString = (): string => {
    i++; // opening quote
    let out = "";
    while (true) {
      if (i >= text.length) fail("unterminated string");
      const ch = text[i];
      if (ch === '"') {
        i++;
        return out;
      }
      if (ch === "\n") fail("line break inside a string");
      if (ch === "\\") {
        const esc = text[i + 1];
        const map: Record<string, string> = {
          '"': '"',
          "\\": "\\",
          "/": "/",
          b: "\b",
          f: "\f",
          n: "\n",
          r: "\r",
          t: "\t",
        };
        if (esc in map) {
          out += map[esc];
          i += 2;
        } else if (esc === "u" && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
          out += String.fromCharCode(parseInt(text.slice(i + 2, i + 6), 16));
          i += 6;
        } else fail("invalid escape in string");
      } else {
        out += ch;
        i++;
      }
    }
  };
  const parseValue = (depth: number): JsonNode => {
    if (depth > 64) fail("nesting too deep");
    skip();
    const at = here();
    const ch = text[i];
    if (ch === "{") {
      i++;
      const entries: { key: string; keyAt: Position; value: JsonNode }[] = [];
      skip();
      if (text[i] === "}") {
        i++;
        return { kind: "object", at, entries };
      }
      while (true) {
        skip();
        if (text[i] !== '"') {
          fail(text[i] === "}" ? "trailing comma before }" : "expected a quoted property name");
        }
        const keyAt = here();
        const key = parseString();
        skip();
        if (text[i] !== ":") fail("expected : after property name");
        i++;
        entries.push({ key, keyAt, value: parseValue(depth + 1) });
        skip();
        if (text[i] === ",") {
          i++;
          continue;
        }
        if (text[i] === "}") {
          i++;
          return { kind: "object", at, entries };
        }
        fail("expected , or } after a property");
      }
    }
    if (ch === "[") {
      i++;
      const items: JsonNode[] = [];
      skip();
      if (text[i] === "]") {
        i++;
        return { kind: "array", at, items };
      }
      while (true) {
        items.push(parseValue(depth + 1));
        skip();
        if (text[i] === ",") {
          i++;
          skip();
          if (text[i] === "]") fail("trailing comma before ]");
          continue;
        }
        if (text[i] === "]") {
          i++;
          return { kind: "array", at, items };
        }
        fail("expected , or ] after a list item");
      }
    }
    if (ch === '"') return { kind: "string", at, value: parseString() };
    const literal = /^(true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(
      text.slice(i, i + 64),
    );
    if (!literal) {
      return fail(i >= text.length ? "unexpected end of text" : `unexpected character ${JSON.stringify(ch)}`);
    }
    i += literal[1].length;
    if (literal[1] === "true" || literal[1] === "false") {
      return { kind: "boolean", at, value: literal[1] === "true" };
    }
    if (literal[1] === "null") return { kind: "null", at };
    return { kind: "number", at, value: Number(literal[1]) };
  };
  const root = parseValue(0);
  skip();
  if (i < text.length) fail("unexpected text after the JSON value");
  return root;
}

/** Converts a positioned tree back to a plain value. */
export function toPlain(node: JsonNode): unknown {
  switch (node.kind) {
    case "object":
      return Object.fromEntries(node.entries.map((e) => [e.key, toPlain(e.value)]));
    case "array":
      return node.items.map(toPlain);
    case "null":
      return null;
    default:
      return node.value;
  }
}
