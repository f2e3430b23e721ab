/**
 * Pod log text for display (spec 3 §2.3b Logs): colour codes and other terminal escapes and non-printable
 * characters are stripped; tabs stay (the view shows them as indentation).
 */

// CSI sequences (colours, cursor moves) and two-byte ESC sequences: control characters are the point here.
// deno-lint-ignore no-control-regex
const ESCAPES = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b[@-Z\\-_]/g;
// C0 controls but tab and newline, DEL and C1 controls.
// deno-lint-ignore no-control-regex
const NON_PRINTABLE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

export function cleanLogLines(text: string): string[] {
  const lines = text.replace(ESCAPES, "").replace(/\r\n?/g, "\n").replace(NON_PRINTABLE, "").split("\n");
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  return lines;
}
