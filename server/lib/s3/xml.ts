/**
 * The small XML dialect S3 speaks: a safe parser (no DTDs, no external entities, bounded depth and size)
 * into a plain node tree, and a builder that escapes correctly. Used by the client for responses and by the
 * embedded server for request bodies and responses.
 */

export interface XmlNode {
  name: string;
  attributes: Record<string, string>;
  children: XmlNode[];
  text: string;
}

export class XmlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "XmlError";
  }
}

const MAX_DEPTH = 32;
const MAX_SIZE = 4 * 1024 * 1024;
const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#\d+|[a-z]+);/g, (whole, entity: string) => {
    if (entity[0] === "#") {
      const code = entity[1] === "x" ? parseInt(entity.slice(2), 16) : parseInt(entity.slice(1), 10);
      if (!Number.isFinite(code) || code > 0x10ffff) throw new XmlError(`bad character reference ${whole}`);
      return String.fromCodePoint(code);
    }
    const value = ENTITIES[entity];
    if (value === undefined) throw new XmlError(`unknown entity ${whole}`);
    return value;
  });
}

/** Strips a namespace prefix: `s3:Key` → `Key`. */
const localName = (name: string) => name.slice(name.indexOf(":") + 1);

/** Parses an XML document and returns its root element. Throws XmlError on anything malformed. */
export function parseXml(source: string): XmlNode {
  if (source.length > MAX_SIZE) throw new XmlError("document too large");
  // XML's end-of-line handling: a literal CR LF or CR is read as LF (a CR in a value is sent as &#13;).
  source = source.replace(/\r\n?/g, "\n");
  let pos = 0;
  const stack: XmlNode[] = [];
  let root: XmlNode | null = null;
  const fail = (message: string): never => {
    throw new XmlError(`${message} at offset ${pos}`);
  };
  while (pos < source.length) {
    const lt = source.indexOf("<", pos);
    const textEnd = lt === -1 ? source.length : lt;
    if (textEnd > pos) {
      const text = source.slice(pos, textEnd);
      if (stack.length > 0) stack[stack.length - 1].text += decodeEntities(text);
      else if (text.trim() !== "") fail("text outside the root element");
    }
    if (lt === -1) break;
    pos = lt;
    if (source.startsWith("<?", pos)) {
      const end = source.indexOf("?>", pos);
      if (end === -1) fail("unterminated processing instruction");
      pos = end + 2;
    } else if (source.startsWith("<!--", pos)) {
      const end = source.indexOf("-->", pos);
      if (end === -1) fail("unterminated comment");
      pos = end + 3;
    } else if (source.startsWith("<![CDATA[", pos)) {
      const end = source.indexOf("]]>", pos);
      if (end === -1) fail("unterminated CDATA");
      if (stack.length === 0) fail("CDATA outside the root element");
      stack[stack.length - 1].text += source.slice(pos + 9, end);
      pos = end + 3;
    } else if (source.startsWith("<!", pos)) {
      fail("DOCTYPE and declarations are not allowed");
    } else if (source.startsWith("</", pos)) {
      const end = source.indexOf(">", pos);
      if (end === -1) fail("unterminated end tag");
      const name = source.slice(pos + 2, end).trim();
      const open = stack.pop();
      if (!open || localName(name) !== open.name) fail(`mismatched end tag </${name}>`);
      pos = end + 1;
    } else {
      const match = /^<([A-Za-z_][\w.:-]*)((?:\s+[\w.:-]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>/.exec(
        source.slice(pos, pos + 65536),
      );
      if (!match) fail("malformed start tag");
      const node: XmlNode = { name: localName(match![1]), attributes: {}, children: [], text: "" };
      for (const attr of match![2].matchAll(/([\w.:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) {
        node.attributes[attr[1]] = decodeEntities(attr[2] ?? attr[3] ?? "");
      }
      if (stack.length > 0) stack[stack.length - 1].children.push(node);
      else if (root) fail("more than one root element");
      else root = node;
      if (!match![3]) {
        stack.push(node);
        if (stack.length > MAX_DEPTH) fail("nesting too deep");
      }
      pos += match![0].length;
    }
  }
  if (stack.length > 0) throw new XmlError(`unclosed element <${stack[stack.length - 1].name}>`);
  if (!root) throw new XmlError("no root element");
  return root;
}

/** First child with this name, or undefined. */
export function child(node: XmlNode | undefined, name: string): XmlNode | undefined {
  return node?.children.find((c) => c.name === name);
}

/** All children with this name. */
export function children(node: XmlNode | undefined, name: string): XmlNode[] {
  return node?.children.filter((c) => c.name === name) ?? [];
}

/**
 * Text of the first child with this name exactly as sent, or undefined when absent. Values are never
 * trimmed: object keys, tag values and prefixes may begin or end with spaces, tabs or newlines.
 */
export function childText(node: XmlNode | undefined, name: string): string | undefined {
  return child(node, name)?.text;
}

/** A boolean element as Go's XML decoding reads one (surrounding space ignored); undefined when absent. */
export function childBool(node: XmlNode | undefined, name: string): boolean | undefined {
  const text = childText(node, name)?.trim();
  if (text === undefined) return undefined;
  return ["1", "t", "T", "true", "TRUE", "True"].includes(text);
}

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&apos;",
  // Whitespace other than spaces as references (as Go's encoder writes them): a reader's end-of-line
  // handling would turn a literal CR into LF.
  "\t": "&#x9;",
  "\n": "&#xA;",
  "\r": "&#xD;",
};

export function escapeXml(text: string): string {
  return text.replace(/[&<>"'\t\n\r]/g, (ch) => ESCAPES[ch]);
}

/** A value in the builder: text, a nested element map, a list of repeated elements, or nothing. */
export type XmlValue = string | number | boolean | null | undefined | XmlObject | XmlValue[];
export interface XmlObject {
  [name: string]: XmlValue;
}

function render(name: string, value: XmlValue): string {
  if (value === undefined || value === null) return "";
  if (Array.isArray(value)) return value.map((v) => render(name, v)).join("");
  if (typeof value === "object") {
    const inner = Object.entries(value).map(([k, v]) => render(k, v)).join("");
    return `<${name}>${inner}</${name}>`;
  }
  return `<${name}>${escapeXml(String(value))}</${name}>`;
}

export const S3_NAMESPACE = "http://s3.amazonaws.com/doc/2006-03-01/";

/**
 * Builds a document: `buildXml("Tagging", { TagSet: { Tag: [{ Key: "a", Value: "b" }] } })`. Arrays repeat
 * the element; undefined/null fields are left out; field order is kept.
 */
export function buildXml(
  rootName: string,
  body: XmlObject,
  options: { namespace?: string | null; prologue?: boolean } = {},
): string {
  const namespace = options.namespace === undefined ? S3_NAMESPACE : options.namespace;
  const inner = Object.entries(body).map(([k, v]) => render(k, v)).join("");
  const attr = namespace ? ` xmlns="${namespace}"` : "";
  const prologue = options.prologue === false ? "" : `<?xml version="1.0" encoding="UTF-8"?>\n`;
  return `${prologue}<${rootName}${attr}>${inner}</${rootName}>`;
}
