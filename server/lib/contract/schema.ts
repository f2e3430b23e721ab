/**
 * A small typed schema library for API inputs: each schema parses unknown JSON into a typed value or reports
 * every bad field with its path. Schemas live in `server/lib/contract/<area>.ts` beside the wire types, so the
 * server validates and the islands share the types.
 *
 *   export const LoginInput = s.object({ accessKey: s.string({ min: 1 }), secretKey: s.string({ min: 1 }) });
 *   export type LoginInput = s.Infer<typeof LoginInput>;
 */

/** One problem with an input field; `path` is dotted (`quota.amount`, `actions.2.id`), "" for the root. */
export interface Issue {
  path: string;
  message: string;
}

export class SchemaError extends Error {
  constructor(readonly issues: Issue[]) {
    super(issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join("; "));
    this.name = "SchemaError";
  }
}

export interface Schema<T> {
  /** Returns the parsed value, or records issues and returns undefined. */
  check(value: unknown, path: string, issues: Issue[]): T | undefined;
  readonly optional?: boolean;
}

export type Infer<S> = S extends Schema<infer T> ? T : never;

/** Parses or throws SchemaError listing every problem. */
export function parse<T>(schema: Schema<T>, value: unknown): T {
  const issues: Issue[] = [];
  const result = schema.check(value, "", issues);
  if (issues.length > 0) throw new SchemaError(issues);
  return result as T;
}

const describe = (
  value: unknown,
) => (value === null ? "null" : Array.isArray(value) ? "array" : typeof value);

/** A string; `message` replaces every message, `maxMessage` the too-long one ("at least 8" is wrong for 41). */
export function string(
  options: {
    min?: number;
    max?: number;
    pattern?: RegExp;
    trim?: boolean;
    message?: string;
    maxMessage?: string;
    /** A further check of the (trimmed) text: its message, or "" when the text is fine. */
    problem?: (text: string) => string;
  } = {},
): Schema<string> {
  return {
    check(value, path, issues) {
      if (typeof value !== "string") {
        return void issues.push({ path, message: `must be text, not ${describe(value)}` });
      }
      const text = options.trim ? value.trim() : value;
      if (options.min !== undefined && text.length < options.min) {
        return void issues.push({
          path,
          message: options.message ??
            (options.min === 1 ? "must not be empty" : `must be at least ${options.min} characters`),
        });
      }
      if (options.max !== undefined && text.length > options.max) {
        return void issues.push({
          path,
          message: options.maxMessage ?? options.message ?? `must be at most ${options.max} characters`,
        });
      }
      if (options.pattern && !options.pattern.test(text)) {
        return void issues.push({ path, message: options.message ?? "has an invalid format" });
      }
      const problem = options.problem?.(text);
      if (problem) return void issues.push({ path, message: problem });
      return text;
    },
  };
}

/** A number; `message` replaces the range messages (a size reads better as "less than 8 PiB" than in bytes). */
export function number(
  options: { min?: number; max?: number; integer?: boolean; message?: string } = {},
): Schema<number> {
  return {
    check(value, path, issues) {
      if (typeof value !== "number" || !Number.isFinite(value)) {
        return void issues.push({ path, message: `must be a number, not ${describe(value)}` });
      }
      if (options.min !== undefined && value < options.min) {
        return void issues.push({ path, message: options.message ?? `must be at least ${options.min}` });
      }
      if (options.max !== undefined && value > options.max) {
        return void issues.push({ path, message: options.message ?? `must be at most ${options.max}` });
      }
      if (options.integer && !Number.isInteger(value)) {
        return void issues.push({ path, message: "must be a whole number" });
      }
      return value;
    },
  };
}

export function boolean(): Schema<boolean> {
  return {
    check(value, path, issues) {
      if (typeof value !== "boolean") {
        return void issues.push({ path, message: `must be true or false, not ${describe(value)}` });
      }
      return value;
    },
  };
}

export function literal<const T extends string>(...values: T[]): Schema<T> {
  return {
    check(value, path, issues) {
      if (typeof value !== "string" || !(values as string[]).includes(value)) {
        return void issues.push({ path, message: `must be one of ${values.join(", ")}` });
      }
      return value as T;
    },
  };
}

/** A list; `null` is accepted as the empty list, as the original API's clients send it. */
export function array<T>(item: Schema<T>, options: { min?: number; max?: number } = {}): Schema<T[]> {
  return {
    check(value, path, issues) {
      if (value === null) value = [];
      if (!Array.isArray(value)) {
        return void issues.push({ path, message: `must be a list, not ${describe(value)}` });
      }
      if (options.min !== undefined && value.length < options.min) {
        return void issues.push({
          path,
          message: `must have at least ${options.min} item${options.min === 1 ? "" : "s"}`,
        });
      }
      if (options.max !== undefined && value.length > options.max) {
        return void issues.push({ path, message: `must have at most ${options.max} items` });
      }
      const out: T[] = [];
      value.forEach((element, index) => {
        const parsed = item.check(element, path ? `${path}.${index}` : String(index), issues);
        if (parsed !== undefined) out.push(parsed);
      });
      return out;
    },
  };
}

/** A string-to-string map such as object tags. */
export function record<T>(valueSchema: Schema<T>): Schema<Record<string, T>> {
  return {
    check(value, path, issues) {
      if (typeof value !== "object" || value === null || Array.isArray(value)) {
        return void issues.push({ path, message: `must be an object, not ${describe(value)}` });
      }
      const out: Record<string, T> = {};
      for (const [key, element] of Object.entries(value)) {
        const parsed = valueSchema.check(element, path ? `${path}.${key}` : key, issues);
        if (parsed !== undefined) out[key] = parsed;
      }
      return out;
    },
  };
}

/** Marks a field optional: absent or null gives `fallback` (undefined when not given). */
export function optional<T>(schema: Schema<T>): Schema<T | undefined>;
export function optional<T>(schema: Schema<T>, fallback: T): Schema<T>;
export function optional<T>(schema: Schema<T>, fallback?: T): Schema<T | undefined> {
  return {
    optional: true,
    check(value, path, issues) {
      if (value === undefined || value === null) return fallback;
      return schema.check(value, path, issues);
    },
  };
}

type Shape = Record<string, Schema<unknown>>;
type OptionalKeys<S extends Shape> = { [K in keyof S]: undefined extends Infer<S[K]> ? K : never }[keyof S];
type ObjectOf<S extends Shape> =
  & { [K in Exclude<keyof S, OptionalKeys<S>>]: Infer<S[K]> }
  & { [K in OptionalKeys<S>]?: Infer<S[K]> };

/** An object with known fields; unknown fields are dropped (as the original server did). */
export function object<S extends Shape>(shape: S): Schema<{ [K in keyof ObjectOf<S>]: ObjectOf<S>[K] }> {
  return {
    check(value, path, issues) {
      if (typeof value !== "object" || value === null || Array.isArray(value)) {
        return void issues.push({ path, message: `must be an object, not ${describe(value)}` });
      }
      const input = value as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      const before = issues.length;
      for (const [key, field] of Object.entries(shape)) {
        const fieldPath = path ? `${path}.${key}` : key;
        if (input[key] === undefined && !field.optional) {
          issues.push({ path: fieldPath, message: "is required" });
          continue;
        }
        const parsed = field.check(input[key], fieldPath, issues);
        if (parsed !== undefined) out[key] = parsed;
      }
      return issues.length === before ? out as ObjectOf<S> : undefined;
    },
  };
}
