/**
 * Text in S3 headers that is not ASCII (user metadata values): HTTP header values are bytes, and a fetch
 * Headers object refuses anything above Latin-1, so such values travel as RFC 2047 encoded words
 * (`=?UTF-8?B?…?=`), as AWS S3 returns them and as AWS and MinIO clients send them. Reading decodes those
 * words, and also the raw UTF-8 some clients store (Go's minio-go sends it), which fetch hands over as
 * one Latin-1 character per byte.
 */

/** Bytes of UTF-8 per encoded word, so each word stays within RFC 2047's 75 characters. */
const WORD_BYTES = 45;

const encoder = new TextEncoder();

/** `value` as it may go in a header: printable ASCII as it is, anything else as RFC 2047 B-encoded words. */
export function encodeHeaderText(value: string): string {
  if (/^[\x20-\x7e]*$/.test(value)) return value;
  const words: string[] = [];
  let chunk = "";
  for (const char of value) {
    if (encoder.encode(chunk + char).length > WORD_BYTES) (words.push(chunk), chunk = "");
    chunk += char;
  }
  if (chunk) words.push(chunk);
  return words.map((word) => `=?UTF-8?B?${encoder.encode(word).toBase64()}?=`).join(" ");
}

const ENCODED_WORD = /=\?([^?\s]+)\?([BbQq])\?([^?\s]*)\?=/g;

function decodeWord(charset: string, encoding: string, text: string): string | null {
  try {
    const bytes = encoding.toUpperCase() === "B" ? Uint8Array.fromBase64(text) : Uint8Array.from(
      text.replace(/_/g, " ").replace(
        /=([0-9A-Fa-f]{2})|[^]/g,
        (all, hex) => hex ? String.fromCharCode(parseInt(hex, 16)) : all,
      ),
      (c) => c.charCodeAt(0),
    );
    // A language suffix (RFC 2231, "UTF-8*en") is not part of the charset's name.
    return new TextDecoder(charset.replace(/\*.*$/, ""), { fatal: true }).decode(bytes);
  } catch {
    return null; // an unknown charset or broken encoding: the word is left as it came
  }
}

/** A header's raw UTF-8 bytes (one Latin-1 character each, as fetch hands them over) read as UTF-8; else as it is. */
export function rawUtf8HeaderText(value: string): string {
  if (!/[\x80-\xff]/.test(value) || /[\u0100-\uffff]/.test(value)) return value;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(Uint8Array.from(value, (c) => c.charCodeAt(0)));
  } catch {
    return value; // really Latin-1
  }
}

/** A header's value as text: encoded words decoded, and raw UTF-8 bytes read as UTF-8. */
export function decodeHeaderText(value: string): string {
  const text = rawUtf8HeaderText(value);
  if (!text.includes("=?")) return text;
  // Whitespace between two encoded words only separates them (RFC 2047 §6.2).
  return text.replace(/(\?=)\s+(?==\?)/g, "$1").replace(
    ENCODED_WORD,
    (word, charset: string, encoding: string, encoded: string) =>
      decodeWord(charset, encoding, encoded) ?? word,
  );
}
