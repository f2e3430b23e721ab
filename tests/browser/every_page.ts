/**
 * Every page of the console and of operator mode, with the data that gives each something to show: the
 * accessibility sweeps (a11y_test.ts, operator_a11y_test.ts) and the language sweep (languages_test.ts) walk the
 * same lists, so a new screen added here is checked by all of them.
 */
import { addUser, setPolicy, updateGroupMembers } from "../../server/lib/s3/admin/iam.ts";
import { makeBucket, putBucketVersioning, putObject } from "../../server/lib/s3/mod.ts";
import type { TestStack } from "../helpers.ts";

/** An object whose name wraps only at its hyphens at 800 px. */
export const SAMPLE_OBJECT = "reports/quarterly-finance-summary-2026-final-version.txt";

/** Every page of the console; a new screen adds its own here. */
export const CONSOLE_PAGES = [
  "/dashboard",
  "/metrics",
  "/license",
  "/account",
  "/users",
  "/users/alice",
  "/groups",
  "/policies",
  "/policies/readwrite",
  "/buckets",
  "/buckets/photos/summary",
  "/buckets/photos/events",
  "/buckets/photos/replication",
  "/buckets/photos/lifecycle",
  "/buckets/photos/access",
  "/buckets/photos/prefix",
  "/object-browser",
  "/object-browser/photos",
  "/object-browser/photos/reports/",
  `/object-browser/photos/${SAMPLE_OBJECT}`,
  "/settings",
  "/settings?section=notifications",
  "/settings?section=tiers",
  "/webhook/logger",
  "/webhook/audit",
  "/trace",
  "/logs",
  "/logs?tab=audit",
  "/watch",
  "/heal",
  "/health-info",
];

/** The data CONSOLE_PAGES show: a versioned bucket with one object, a user in a group with a policy. */
export async function seedConsolePages(stack: TestStack): Promise<void> {
  await makeBucket(stack.admin, "photos");
  await putBucketVersioning(stack.admin, "photos", { status: "Enabled" });
  await putObject(stack.admin, "photos", SAMPLE_OBJECT, "numbers", { contentType: "text/plain" });
  await addUser(stack.admin, "alice", "alice-secret-1");
  await updateGroupMembers(stack.admin, { group: "devs", members: ["alice"], isRemove: false });
  await setPolicy(stack.admin, ["readwrite"], "alice", false);
}

/** The seeded tenant of `startOperatorStack({ seedTenant: true })`. */
export const OPERATOR_TENANT = "/namespaces/tenant-lite/tenants/storage-lite";

/** Every page of operator mode but a pod's own (its name is read from the stand-in once it runs). */
export const OPERATOR_PAGES = [
  "/tenants",
  "/tenants/add",
  "/license",
  `${OPERATOR_TENANT}/summary`,
  `${OPERATOR_TENANT}/metrics`,
  `${OPERATOR_TENANT}/security`,
  `${OPERATOR_TENANT}/pools`,
  `${OPERATOR_TENANT}/pods`,
  `${OPERATOR_TENANT}/license`,
  "/storage/volumes",
  "/storage/drives",
];
