/**
 * Object names users really have, for any test of names end to end: Latin with diacritics, Chinese, Greek,
 * Japanese half-width katakana, emoji (outside the BMP), and the characters URLs, forms and shells treat
 * specially (`+ % # ?`, spaces, quotes). Each is a file name; join them to folders for keys.
 */
import assert from "node:assert/strict";

export const WORLD_NAMES = [
  "héllo wörld ✓.txt",
  "报告 2026.pdf",
  "Ελληνικά.md",
  "ｶﾀｶﾅ ﾌｧｲﾙ.txt",
  "🎉 party 🦄.txt",
  "a+b 100% #1 ?.txt",
  'it\'s "quoted".txt',
] as const;

/** A folder name in another script, to hold some of the names above. */
export const WORLD_FOLDER = "Документы/";

/** Different bytes per name, so a swapped or truncated file shows. */
export const contentOf = (name: string) => `contents of ${name}\n`;

/** Decodes a Content-Disposition's `filename*=UTF-8''…` (RFC 5987) and its plain `filename="…"`. */
export function dispositionNames(header: string | null): { utf8?: string; ascii?: string } {
  const star = /filename\*=UTF-8''([^;\s]+)/i.exec(header ?? "")?.[1];
  const plain = /filename="((?:[^"\\]|\\.)*)"/i.exec(header ?? "")?.[1];
  return { utf8: star === undefined ? undefined : decodeURIComponent(star), ascii: plain };
}

/** The entries of a zip's central directory: name bytes decoded as UTF-8 and the general purpose flags. */
export function zipEntries(zip: Uint8Array): { name: string; flags: number }[] {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const end = zip.length - 22;
  assert.equal(view.getUint32(end, true), 0x06054b50, "an end of central directory record without comment");
  const out: { name: string; flags: number }[] = [];
  for (let at = view.getUint32(end + 16, true); view.getUint32(at, true) === 0x02014b50;) {
    const nameLength = view.getUint16(at + 28, true);
    const skip = nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
    const name = new TextDecoder("utf-8", { fatal: true }).decode(
      zip.subarray(at + 46, at + 46 + nameLength),
    );
    out.push({ name, flags: view.getUint16(at + 8, true) });
    at += 46 + skip;
  }
  return out;
}
