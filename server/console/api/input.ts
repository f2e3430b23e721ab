/**
 * Reading validated input in handlers: every malformed or invalid body becomes the same 400 ApiError naming
 * the bad fields, so API areas never hand-roll checks.
 *
 *   const { accessKey, secretKey } = await readJson(c, LoginInput);
 */
import type { Context } from "hono";
import { parse, type Schema, SchemaError } from "../../lib/contract/schema.ts";
import { ApiError } from "../http/errors.ts";
import { t } from "../../../islands/lib/i18n/t.ts";

const ACRONYMS = new Set(["arn", "id", "kms", "url", "tls", "sse"]);

/** "secretKey" → "Secret key", "targetURL" → "Target URL", "quota.amount" → "Quota amount", "actions.2.id" → "Actions 3 ID". */
export function fieldLabel(path: string): string {
  const words = path.split(".").flatMap((part) =>
    /^\d+$/.test(part)
      ? [String(Number(part) + 1)]
      : part.replace(/_/g, " ").replace(/([a-z\d])([A-Z])/g, "$1 $2").replace(
        /([A-Z]+)([A-Z][a-z])/g,
        "$1 $2",
      ).split(" ")
  ).filter(Boolean).map((
    word,
  ) => (ACRONYMS.has(word.toLowerCase()) ? word.toUpperCase() : word.toLowerCase()));
  const text = words.join(" ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * One problem as a sentence a user can read: a message that already names its subject (a capitalised sentence
 * such as the spec's "Passwords must be at least 8 characters long", or one opening with "the") is kept;
 * otherwise the field's label opens it ("Prefix must be at most 1024 characters").
 */
export function issueSentence(issue: { path: string; message: string }): string {
  const { path, message } = issue;
  if (/^[A-Z]/.test(message)) return message;
  if (!path) return `The request body ${message}`;
  if (message.startsWith("the ")) return "T" + message.slice(1);
  return `${fieldLabel(path)} ${message}`;
}

function invalid(error: SchemaError): ApiError {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) fields[issue.path || "body"] = issue.message;
  const sentences = error.issues.map(issueSentence);
  return new ApiError(400, sentences[0] ?? t("common.error.invalidRequest"), {
    detail: sentences.join("\n"),
    fields,
  });
}

/** Parses the JSON body against `schema`; an empty body counts as `{}` so optional-only inputs work. */
export async function readJson<T>(c: Context, schema: Schema<T>): Promise<T> {
  const text = await c.req.text();
  let value: unknown = {};
  if (text.trim() !== "") {
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new ApiError(400, t("common.error.malformedJson"), {
        detail: error instanceof Error ? error.message : "",
      });
    }
  }
  return validate(schema, value);
}

/** Validates already-parsed data (query objects, path params) against `schema`. */
export function validate<T>(schema: Schema<T>, value: unknown): T {
  try {
    return parse(schema, value);
  } catch (error) {
    if (error instanceof SchemaError) throw invalid(error);
    throw error;
  }
}

/** A required, non-empty query parameter; 400 naming it when missing. */
export function requiredQuery(c: Context, name: string): string {
  const value = c.req.query(name);
  if (value === undefined || value === "") {
    throw new ApiError(400, t("common.error.queryRequired", { name }), {
      detail: t("common.error.queryMissing", { name }),
    });
  }
  return value;
}

/** Optional `offset` and `limit` query parameters as non-negative integers (0 limit = all). */
export function pageQuery(c: Context): { offset: number; limit: number } {
  const read = (name: string) => {
    const raw = c.req.query(name);
    if (raw === undefined || raw === "") return 0;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < 0) {
      throw new ApiError(400, t("common.error.queryNotCount", { name }), {
        detail: t("common.error.queryValue", { name, value: raw }),
      });
    }
    return value;
  };
  return { offset: read("offset"), limit: read("limit") };
}
