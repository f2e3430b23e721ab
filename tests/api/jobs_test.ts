/**
 * Jobs API (issue 28) over HTTP against the real embedded storage: the auth matrix, bad input, and copy,
 * move, rename and delete of folders with names in several scripts, checked object by object (bytes,
 * metadata, tags, content type), the conflict choices, a multipart copy, and the refusal of a destination
 * the user may not write.
 */
import assert from "node:assert/strict";
import type { JobView } from "../../server/lib/contract/jobs.ts";
import {
  getObject,
  getObjectLegalHold,
  getObjectRetention,
  getObjectTagging,
  headObject,
  listAllObjects,
  makeBucket,
  putObject,
} from "../../server/lib/s3/mod.ts";
import { eventually } from "../eventually.ts";
import {
  type ConsoleClient,
  createUser,
  runScenarios,
  signIn,
  signInAsRoot,
  startStack,
} from "../helpers.ts";
import { contentOf, WORLD_FOLDER, WORLD_NAMES } from "../names.ts";
import type { S3Client } from "../../server/lib/s3/client.ts";

const keysOf = async (admin: S3Client, bucket: string, prefix = "") =>
  (await listAllObjects(admin, bucket, { prefix })).objects.map((o) => o.key).sort();

async function seed(admin: S3Client, bucket: string, folder: string) {
  for (const name of WORLD_NAMES) {
    await putObject(admin, bucket, folder + name, new TextEncoder().encode(contentOf(name)), {
      contentType: "text/x-test",
      userMetadata: { origin: "seeded" },
      tags: { kept: "yes" },
    });
  }
  await putObject(admin, bucket, `${folder}sub dir/🦄 deep #1.txt`, new TextEncoder().encode("deep"));
}

async function finished(client: ConsoleClient, job: JobView): Promise<JobView> {
  return await eventually(
    `job ${job.kind} to end`,
    () => client.json<JobView>("GET", `/api/v1/jobs/${job.id}`, undefined, 200),
    { until: (j) => j.state !== "running" },
  );
}

async function expectSameObjects(admin: S3Client, bucket: string, folder: string) {
  for (const name of WORLD_NAMES) {
    const res = await getObject(admin, bucket, folder + name);
    assert.equal(await res.text(), contentOf(name), name);
    const info = await headObject(admin, bucket, folder + name);
    assert.equal(info.contentType, "text/x-test");
    assert.equal(info.userMetadata.origin, "seeded");
    assert.deepEqual(await getObjectTagging(admin, bucket, folder + name), { kept: "yes" });
  }
}

Deno.test("jobs API: auth matrix and bad input", async (t) => {
  const stack = await startStack();
  try {
    await makeBucket(stack.admin, "shared");
    await makeBucket(stack.admin, "private");
    await putObject(stack.admin, "shared", "a/one.txt", "1");
    const copyToPrivate = {
      kind: "copy",
      source: { bucket: "shared", base: "", names: ["a/"] },
      destination: { bucket: "private", prefix: "b/" },
    };
    await runScenarios(t, stack, [
      { name: "no session", as: "none", method: "GET", path: "/api/v1/jobs", status: 401 },
      {
        name: "no session",
        as: "none",
        method: "POST",
        path: "/api/v1/jobs",
        body: copyToPrivate,
        status: 401,
      },
      {
        name: "a destination the user may not write",
        as: "narrow",
        method: "POST",
        path: "/api/v1/jobs",
        body: copyToPrivate,
        status: 403,
      },
      {
        name: "a move whose sources the user may not delete",
        as: "narrow",
        method: "POST",
        path: "/api/v1/jobs",
        body: { ...copyToPrivate, kind: "move", destination: { bucket: "shared", prefix: "c/" } },
        status: 403,
      },
      {
        name: "the user's own (none)",
        as: "narrow",
        method: "GET",
        path: "/api/v1/jobs",
        status: 200,
        check: (b) => assert.deepEqual(b, { jobs: [] }),
      },
      {
        name: "no destination",
        as: "root",
        method: "POST",
        path: "/api/v1/jobs",
        body: { ...copyToPrivate, destination: undefined },
        status: 400,
      },
      {
        name: "a folder into itself",
        as: "root",
        method: "POST",
        path: "/api/v1/jobs",
        body: { ...copyToPrivate, destination: { bucket: "shared", prefix: "a/inner/" } },
        status: 400,
      },
      {
        name: "a name outside the base",
        as: "root",
        method: "POST",
        path: "/api/v1/jobs",
        body: { ...copyToPrivate, source: { bucket: "shared", base: "z/", names: ["a/"] } },
        status: 400,
      },
      {
        name: "an unknown kind",
        as: "root",
        method: "POST",
        path: "/api/v1/jobs",
        body: { ...copyToPrivate, kind: "zap" },
        status: 400,
      },
      {
        name: "a missing bucket",
        as: "root",
        method: "POST",
        path: "/api/v1/jobs",
        body: { ...copyToPrivate, destination: { bucket: "nowhere", prefix: "" } },
        status: 404,
      },
      { name: "an unknown job", as: "root", method: "GET", path: "/api/v1/jobs/nope", status: 404 },
      {
        name: "cancel an unknown job",
        as: "root",
        method: "POST",
        path: "/api/v1/jobs/nope/cancel",
        status: 404,
      },
    ]);
    assert.deepEqual(await keysOf(stack.admin, "private"), [], "nothing was written by refused jobs");
  } finally {
    await stack.close();
  }
});

Deno.test("jobs API: copy, move, rename and delete folders within and between buckets", async (t) => {
  // A low multipart threshold sends the 12 MiB object through UploadPartCopy.
  const stack = await startStack({ jobs: { multipartAbove: 6 * 1024 * 1024, partSize: 5 * 1024 * 1024 } });
  try {
    const admin = stack.admin;
    await makeBucket(admin, "src bucket".replace(" ", "-"));
    await makeBucket(admin, "other");
    await seed(admin, "src-bucket", WORLD_FOLDER);
    const client = await signInAsRoot(stack);

    await t.step("copy a folder to another bucket keeps bytes, metadata, tags and content type", async () => {
      const job = await client.json<JobView>("POST", "/api/v1/jobs", {
        kind: "copy",
        source: { bucket: "src-bucket", base: "", names: [WORLD_FOLDER] },
        destination: { bucket: "other", prefix: "copied 📁/" },
      }, 201);
      const done = await finished(client, job);
      assert.equal(done.state, "done");
      assert.equal(done.total_objects, WORLD_NAMES.length + 1);
      assert.equal(done.done_objects, done.total_objects);
      assert.equal(done.failed_objects, 0);
      await expectSameObjects(admin, "other", `copied 📁/${WORLD_FOLDER}`);
      assert.equal((await keysOf(admin, "src-bucket")).length, WORLD_NAMES.length + 1, "the sources stay");
    });

    await t.step("move a folder within the bucket: sources go, copies stay", async () => {
      const job = await client.json<JobView>("POST", "/api/v1/jobs", {
        kind: "move",
        source: { bucket: "src-bucket", base: "", names: [WORLD_FOLDER] },
        destination: { bucket: "src-bucket", prefix: "moved + 100% #?/" },
      }, 201);
      assert.equal((await finished(client, job)).state, "done");
      assert.deepEqual(await keysOf(admin, "src-bucket", WORLD_FOLDER), []);
      await expectSameObjects(admin, "src-bucket", `moved + 100% #?/${WORLD_FOLDER}`);
    });

    await t.step("rename a folder and a single object in place", async () => {
      const folder = `moved + 100% #?/${WORLD_FOLDER}`;
      const renamed = "renamed Ελληνικά/";
      let job = await client.json<JobView>("POST", "/api/v1/jobs", {
        kind: "move",
        source: { bucket: "src-bucket", base: folder, names: [folder] },
        destination: { bucket: "src-bucket", prefix: renamed },
      }, 201);
      assert.equal((await finished(client, job)).state, "done");
      await expectSameObjects(admin, "src-bucket", renamed);
      const key = `${renamed}${WORLD_NAMES[1]}`;
      job = await client.json<JobView>("POST", "/api/v1/jobs", {
        kind: "move",
        source: { bucket: "src-bucket", base: key, names: [key] },
        destination: { bucket: "src-bucket", prefix: `${renamed}报告 final 🎉.pdf` },
      }, 201);
      assert.equal((await finished(client, job)).state, "done");
      assert.equal(
        await (await getObject(admin, "src-bucket", `${renamed}报告 final 🎉.pdf`)).text(),
        contentOf(WORLD_NAMES[1]),
      );
      assert.ok(!(await keysOf(admin, "src-bucket")).includes(key));
    });

    await t.step("conflicts: skip keeps the destination, stop ends the job", async () => {
      await putObject(admin, "other", "conflict/a.txt", "theirs");
      await putObject(admin, "src-bucket", "c/a.txt", "mine");
      await putObject(admin, "src-bucket", "c/b.txt", "mine too");
      const body = (conflict: string) => ({
        kind: "copy",
        conflict,
        source: { bucket: "src-bucket", base: "c/", names: ["c/a.txt", "c/b.txt"] },
        destination: { bucket: "other", prefix: "conflict/" },
      });
      const skipped = await finished(
        client,
        await client.json<JobView>("POST", "/api/v1/jobs", body("skip"), 201),
      );
      assert.equal(skipped.state, "done");
      assert.equal(skipped.skipped_objects, 1);
      assert.equal(await (await getObject(admin, "other", "conflict/a.txt")).text(), "theirs");
      assert.equal(await (await getObject(admin, "other", "conflict/b.txt")).text(), "mine too");
      const stopped = await finished(
        client,
        await client.json<JobView>("POST", "/api/v1/jobs", body("stop"), 201),
      );
      assert.equal(stopped.state, "stopped");
      assert.match(stopped.reason ?? "", /conflict\/a\.txt already exists/);
      const overwritten = await finished(
        client,
        await client.json<JobView>("POST", "/api/v1/jobs", body("overwrite"), 201),
      );
      assert.equal(overwritten.state, "done");
      assert.equal(await (await getObject(admin, "other", "conflict/a.txt")).text(), "mine");
    });

    await t.step("a large object is copied part by part and verified", async () => {
      const big = new Uint8Array(12 * 1024 * 1024).map((_, i) => i % 251);
      await putObject(admin, "src-bucket", "big/blob.bin", big, { contentType: "application/x-big" });
      const job = await client.json<JobView>("POST", "/api/v1/jobs", {
        kind: "move",
        source: { bucket: "src-bucket", base: "big/", names: ["big/blob.bin"] },
        destination: { bucket: "other", prefix: "big/" },
      }, 201);
      const done = await finished(client, job);
      assert.equal(done.state, "done", JSON.stringify(done.failures));
      const copied = new Uint8Array(await (await getObject(admin, "other", "big/blob.bin")).arrayBuffer());
      assert.deepEqual(copied, big);
      assert.equal((await headObject(admin, "other", "big/blob.bin")).contentType, "application/x-big");
      assert.deepEqual(await keysOf(admin, "src-bucket", "big/"), []);
    });

    await t.step("delete a folder as a job; the list shows the user's jobs", async () => {
      const job = await client.json<JobView>("POST", "/api/v1/jobs", {
        kind: "delete",
        source: { bucket: "other", base: "", names: [`copied 📁/`] },
      }, 201);
      const done = await finished(client, job);
      assert.equal(done.state, "done");
      assert.equal(done.done_objects, WORLD_NAMES.length + 1);
      assert.deepEqual(await keysOf(admin, "other", "copied 📁/"), []);
      const { jobs } = await client.json<{ jobs: JobView[] }>("GET", "/api/v1/jobs", undefined, 200);
      assert.equal(jobs[0].id, job.id, "newest first");
      assert.ok(jobs.length >= 7);
    });
  } finally {
    await stack.close();
  }
});

Deno.test("jobs API: a user's job writes only where the user may", async () => {
  const stack = await startStack();
  try {
    await makeBucket(stack.admin, "mine");
    await makeBucket(stack.admin, "theirs");
    await putObject(stack.admin, "mine", "f/a.txt", "a");
    await createUser(stack, "writer", "writer-secret-1", [{
      name: "mine-only",
      document: {
        Version: "2012-10-17",
        Statement: [{
          Effect: "Allow",
          Action: ["s3:*"],
          Resource: ["arn:aws:s3:::mine", "arn:aws:s3:::mine/*"],
        }],
      },
    }]);
    const client = await signIn(stack, "writer", "writer-secret-1");
    const refused = await client.request("POST", "/api/v1/jobs", {
      kind: "copy",
      source: { bucket: "mine", base: "f/", names: ["f/a.txt"] },
      destination: { bucket: "theirs", prefix: "" },
    });
    assert.equal(refused.status, 403);
    assert.equal((await refused.json()).message, "you may not write to the destination");
    const job = await client.json<JobView>("POST", "/api/v1/jobs", {
      kind: "copy",
      source: { bucket: "mine", base: "f/", names: ["f/a.txt"] },
      destination: { bucket: "mine", prefix: "g/" },
    }, 201);
    assert.equal((await finished(client, job)).state, "done");
    const root = await signInAsRoot(stack);
    assert.deepEqual(
      await root.json("GET", "/api/v1/jobs", undefined, 200),
      { jobs: [] },
      "jobs are their owner's",
    );
    await root.json("GET", `/api/v1/jobs/${job.id}`, undefined, 404);
  } finally {
    await stack.close();
  }
});

Deno.test("jobs API: signing out stops the user's job; their next session resumes it, nothing lost or doubled", async () => {
  // One object at a time, so the job is still running when its owner signs out.
  const stack = await startStack({ jobs: { concurrency: 1 } });
  try {
    await makeBucket(stack.admin, "work");
    const keys = Array.from({ length: 400 }, (_, i) => `in/ファイル ${i} #?.txt`);
    for (let i = 0; i < keys.length; i += 32) {
      await Promise.all(keys.slice(i, i + 32).map((key) => putObject(stack.admin, "work", key, key)));
    }
    await createUser(stack, "mover", "mover-secret-1", [{
      name: "work-only",
      document: {
        Version: "2012-10-17",
        Statement: [{
          Effect: "Allow",
          Action: ["s3:*"],
          Resource: ["arn:aws:s3:::work", "arn:aws:s3:::work/*"],
        }],
      },
    }]);
    const first = await signIn(stack, "mover", "mover-secret-1");
    const job = await first.json<JobView>("POST", "/api/v1/jobs", {
      kind: "move",
      source: { bucket: "work", base: "in/", names: ["in/"] },
      destination: { bucket: "work", prefix: "out/" },
    }, 201);
    await eventually("some objects moved", () => first.json<JobView>("GET", `/api/v1/jobs/${job.id}`), {
      until: (j) => j.done_objects > 0,
    });
    assert.equal((await first.request("POST", "/api/v1/logout")).status, 200);
    const second = await signIn(stack, "mover", "mover-secret-1");
    // The new session is not shown to the jobs until a jobs call: the job waits for it.
    const waiting = await eventually(
      "the job to stop",
      () => stack.deps.jobs.list("mover").find((j) => j.id === job.id)!,
      { until: (j) => j.state === "waiting" },
    );
    assert.match(waiting.reason ?? "", /session of mover ended/);
    assert.ok(waiting.done_objects < keys.length);
    const done = await finished(second, job);
    assert.equal(done.state, "done");
    assert.deepEqual(await keysOf(stack.admin, "work", "in/"), []);
    assert.deepEqual(
      await keysOf(stack.admin, "work", "out/"),
      keys.map((k) => k.replace("in/", "out/")).sort(),
    );
  } finally {
    await stack.close();
  }
});

Deno.test("jobs API: retention and legal hold go with a copy where the destination has object lock", async () => {
  const stack = await startStack();
  try {
    const admin = stack.admin;
    await makeBucket(admin, "locked-src", { objectLock: true });
    await makeBucket(admin, "locked-dst", { objectLock: true });
    await makeBucket(admin, "plain-dst");
    const until = new Date(Date.now() + 86_400_000).toISOString().replace(/\.\d+Z$/, "Z");
    await putObject(admin, "locked-src", "kept/held ✓.txt", "held", {
      retention: { mode: "GOVERNANCE", until },
      legalHold: true,
    });
    const client = await signInAsRoot(stack);
    for (const bucket of ["locked-dst", "plain-dst"]) {
      const job = await client.json<JobView>("POST", "/api/v1/jobs", {
        kind: "copy",
        source: { bucket: "locked-src", base: "", names: ["kept/"] },
        destination: { bucket, prefix: "" },
      }, 201);
      const done = await finished(client, job);
      assert.equal(done.state, "done", JSON.stringify(done.failures));
    }
    assert.equal(await getObjectLegalHold(admin, "locked-dst", "kept/held ✓.txt"), true);
    const retention = await getObjectRetention(admin, "locked-dst", "kept/held ✓.txt");
    assert.equal(retention?.mode, "GOVERNANCE");
    assert.equal(Date.parse(retention!.until), Date.parse(until));
    // A bucket without object lock takes the bytes without the lock settings it could not hold.
    assert.equal(await (await getObject(admin, "plain-dst", "kept/held ✓.txt")).text(), "held");
    assert.equal(await getObjectRetention(admin, "plain-dst", "kept/held ✓.txt").catch(() => null), null);
  } finally {
    await stack.close();
  }
});
