/**
 * Object names users really have, for any test of names end to end: Latin with diacritics, Chinese, Greek,
 * Japanese half-width katakana, emoji (outside the BMP), and the characters URLs, forms and shells treat
 * specially (`+ % # ?`, spaces, quotes). Each is a file name; join them to folders for keys.
 */
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
