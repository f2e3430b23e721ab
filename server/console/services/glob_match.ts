/**
 * Glob matching for the bucket search: `*` any run of characters (also none), `?` exactly one character (an
 * emoji counts as one), everything else itself; the whole key must match, letters in any case.
 *
 * Matching is the two-pointer walk with one remembered star, never a regular expression: a backtracking
 * engine spent 13.7 s on `*a*a*a*a*a*a*b` against one 60-character key, with the console's only thread
 * stuck in it. Here a failed attempt only moves the last star on by one character, so a key of n
 * characters costs at most n × (pattern length) steps.
 */

/** Longest glob accepted: with keys of at most 1,024 characters, a key then costs at most ~260,000 steps. */
export const MAX_GLOB_LENGTH = 256;

const STAR = 0;
const ANY = 1;
type Token = string | typeof STAR | typeof ANY;

/** Characters folded one by one, so a character whose lower case is longer still counts as one. */
const fold = (text: string): string[] => Array.from(text, (c) => c.toLowerCase());

function tokensOf(pattern: string): Token[] {
  const tokens: Token[] = [];
  for (const c of fold(pattern)) {
    if (c === "*") {
      if (tokens.at(-1) !== STAR) tokens.push(STAR); // a run of stars means what one star means
    } else tokens.push(c === "?" ? ANY : c);
  }
  return tokens;
}

/** Whether the whole of `text` matches the tokens. */
function matches(tokens: Token[], text: string[]): boolean {
  let p = 0, t = 0;
  // The last star seen and the text position it was last tried to end at; -1 while no star was seen.
  let star = -1, resume = 0;
  while (t < text.length) {
    const token = tokens[p];
    if (token === STAR) {
      star = p++;
      resume = t;
    } else if (p < tokens.length && (token === ANY || token === text[t])) {
      p++;
      t++;
    } else if (star >= 0) {
      // Let the last star swallow one more character and retry what follows it; earlier stars never need
      // to move, since whatever the later part matched, it can still match further right.
      p = star + 1;
      t = ++resume;
    } else return false;
  }
  while (tokens[p] === STAR) p++;
  return p === tokens.length;
}

/** Compiles a glob once; the returned function tests one key (or key relative to a prefix). */
export function globMatcher(pattern: string): (text: string) => boolean {
  const tokens = tokensOf(pattern);
  return (text) => matches(tokens, fold(text));
}
