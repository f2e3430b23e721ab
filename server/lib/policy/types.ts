/** Normalised IAM policy shapes (lists always lists), as validate.ts produces and evaluate.ts consumes. */

export interface Statement {
  Sid?: string;
  Effect: "Allow" | "Deny";
  Principal?: string[];
  Action?: string[];
  NotAction?: string[];
  Resource?: string[];
  NotResource?: string[];
  /** operator → condition key → values */
  Condition?: Record<string, Record<string, string[]>>;
}

export interface Policy {
  Version: string;
  Id?: string;
  Statement: Statement[];
}

/** A policy with the name it is known by (canned policy name, "inline", "session", "bucket"). */
export interface NamedPolicy {
  name: string;
  policy: Policy;
}

/** Normalises a parsed-but-unvalidated policy value (strings → lists). Tolerant: unknown shapes become empty. */
export function normalizePolicy(value: unknown): Policy {
  const raw = (value ?? {}) as Record<string, unknown>;
  const list = (v: unknown): string[] | undefined =>
    v === undefined
      ? undefined
      : (Array.isArray(v) ? v : [v]).filter((x): x is string => typeof x === "string");
  const statements = Array.isArray(raw.Statement) ? raw.Statement : raw.Statement ? [raw.Statement] : [];
  return {
    Version: typeof raw.Version === "string" ? raw.Version : "",
    Statement: statements.map((s: Record<string, unknown>) => {
      const principal = s.Principal;
      const condition: Record<string, Record<string, string[]>> = {};
      for (
        const [op, keys] of Object.entries((s.Condition ?? {}) as Record<string, Record<string, unknown>>)
      ) {
        condition[op] = {};
        for (const [k, v] of Object.entries(keys ?? {})) {
          condition[op][k] = (Array.isArray(v) ? v : [v]).map(String);
        }
      }
      return {
        Sid: typeof s.Sid === "string" ? s.Sid : undefined,
        Effect: s.Effect === "Deny" ? "Deny" : "Allow",
        Principal: typeof principal === "string" ? [principal] : list((principal as { AWS?: unknown })?.AWS),
        Action: list(s.Action),
        NotAction: list(s.NotAction),
        Resource: list(s.Resource),
        NotResource: list(s.NotResource),
        Condition: s.Condition ? condition : undefined,
      } satisfies Statement;
    }),
  };
}
