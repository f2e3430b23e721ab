import assert from "node:assert/strict";
import { checkSpec } from "./jobs.ts";
import { ApiError } from "../http/errors.ts";

const refused = (input: Parameters<typeof checkSpec>[0], message: string) =>
  assert.throws(
    () => checkSpec(input),
    (e) => e instanceof ApiError && e.status === 400 && e.message === message,
  );

Deno.test("checkSpec: what a job may be asked to do", () => {
  const source = { bucket: "b", base: "a/", names: ["a/x/", "a/y.txt"] };
  assert.deepEqual(
    checkSpec({ kind: "copy", source, destination: { bucket: "c", prefix: "" }, conflict: "skip" }),
    {
      kind: "copy",
      source,
      destination: { bucket: "c", prefix: "" },
      conflict: "skip",
    },
  );
  refused(
    { kind: "delete", source, destination: { bucket: "c", prefix: "" }, conflict: "skip" },
    "a delete job has no destination",
  );
  refused({ kind: "move", source, conflict: "skip" }, "a move job needs a destination");
  refused(
    { kind: "copy", source, destination: { bucket: "b", prefix: "a/" }, conflict: "skip" },
    "the destination is the source",
  );
  refused(
    { kind: "copy", source, destination: { bucket: "b", prefix: "a/x/z/" }, conflict: "skip" },
    "a folder cannot go inside itself",
  );
  refused({
    kind: "copy",
    source: { ...source, base: "z/" },
    destination: { bucket: "c", prefix: "" },
    conflict: "skip",
  }, "every name must start with the base path");
  refused({
    kind: "copy",
    source: { bucket: "b", base: "", names: ["a/../b"] },
    destination: { bucket: "c", prefix: "" },
    conflict: "skip",
  }, "names may not have empty, . or .. path segments");
  // Renaming a folder to an object's name (or back) would change what it is.
  refused({
    kind: "move",
    source: { bucket: "b", base: "a/x/", names: ["a/x/"] },
    destination: { bucket: "b", prefix: "a/file" },
    conflict: "skip",
  }, "a folder's destination must end with / and an object's must not");
});
