/**
 * Names no request can address. MinIO refuses every request whose path or any query value holds a "." or ".."
 * segment (setRequestValidityMiddleware: segments split at "/" or "\", spaces around them ignored), so a
 * group or access key named like that could be created, since the name travels in a body, but then never
 * read, changed or deleted, and every page listing it would fail. The console's forms and API and the
 * embedded storage refuse such names with this one rule.
 */

/** MinIO's hasBadPathComponent: a "." or ".." segment, or more than 32 KiB. */
export function hasBadPathComponent(text: string): boolean {
  if (text.length > 32 * 1024) return true;
  return text.split(/[/\\]/).some((segment) => {
    const trimmed = segment.trim();
    return trimmed === "." || trimmed === "..";
  });
}

/** What is wrong with a new user, group or access key name ("" when nothing); `label` names the field. */
export function iamNameProblem(name: string, label: string): string {
  return hasBadPathComponent(name)
    ? `${label} must not be "." or ".." or have such a part between slashes`
    : "";
}
