/**
 * Content-Disposition for a file the browser saves or shows (RFC 6266): the exact name as UTF-8 in
 * `filename*` (RFC 8187, formerly 5987), which every current browser prefers, and a plain `filename` for
 * older clients: the name in printable ASCII, accents dropped ("é" → "e"), anything else as "_", and no
 * `"`, `\` or `%` (some clients unescape or percent-decode that parameter).
 */
export function contentDisposition(kind: "attachment" | "inline", name: string): string {
  const ascii = name.normalize("NFKD").replace(/\p{M}/gu, "").replace(/[^\x20-\x7e]|["\\%]/gu, "_");
  // encodeURIComponent leaves ' ( ) * alone; RFC 8187's attr-char does not allow them.
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
