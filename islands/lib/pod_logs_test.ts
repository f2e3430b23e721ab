import assert from "node:assert/strict";
import { cleanLogLines } from "./pod_logs.ts";

Deno.test("pod logs lose colour codes and non-printables, keep tabs", () => {
  assert.deepEqual(
    cleanLogLines("\u001b[1mMinIO\u001b[0m up\n\tAPI: x\u0007\r\n\u001b[33mDocs:\u001b[0m y\n"),
    ["MinIO up", "\tAPI: x", "Docs: y"],
  );
});
