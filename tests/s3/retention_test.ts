/**
 * Changing an object's retention through the AWS SDK v3, as MinIO allows it: GOVERNANCE may become
 * COMPLIANCE, be shortened or removed only with x-amz-bypass-governance-retention; COMPLIANCE may only be
 * extended.
 */
import assert from "node:assert/strict";
import {
  CreateBucketCommand,
  GetObjectRetentionCommand,
  PutObjectCommand,
  PutObjectRetentionCommand,
  type PutObjectRetentionCommandInput,
} from "@aws-sdk/client-s3";
import { failsWith, startSdkStorage } from "./sdk_client.ts";

const DAY = 86_400_000;

Deno.test("retention: GOVERNANCE becomes COMPLIANCE only with the bypass; COMPLIANCE only grows", async () => {
  const f = await startSdkStorage();
  const sdk = f.sdk;
  try {
    await sdk.send(new CreateBucketCommand({ Bucket: "locked", ObjectLockEnabledForBucket: true }));
    const Key = "contrat signé 😀.pdf";
    const { VersionId } = await sdk.send(new PutObjectCommand({ Bucket: "locked", Key, Body: "signed" }));
    const inDays = (days: number) => new Date(Math.ceil((Date.now() + days * DAY) / 1000) * 1000);
    const set = (input: Partial<PutObjectRetentionCommandInput>) =>
      sdk.send(new PutObjectRetentionCommand({ Bucket: "locked", Key, VersionId, ...input }));
    const current = async () =>
      (await sdk.send(new GetObjectRetentionCommand({ Bucket: "locked", Key, VersionId }))).Retention;

    await set({ Retention: { Mode: "GOVERNANCE", RetainUntilDate: inDays(10) } });
    await failsWith(
      set({ Retention: { Mode: "COMPLIANCE", RetainUntilDate: inDays(20) } }),
      "AccessDenied",
      403,
    );
    await failsWith(
      set({ Retention: { Mode: "GOVERNANCE", RetainUntilDate: inDays(5) } }),
      "AccessDenied",
      403,
    );
    assert.equal((await current())?.Mode, "GOVERNANCE", "the refused change left the retention as it was");
    await set({ Retention: { Mode: "GOVERNANCE", RetainUntilDate: inDays(12) } });

    await set({
      Retention: { Mode: "COMPLIANCE", RetainUntilDate: inDays(20) },
      BypassGovernanceRetention: true,
    });
    assert.equal((await current())?.Mode, "COMPLIANCE");
    await failsWith(
      set({
        Retention: { Mode: "GOVERNANCE", RetainUntilDate: inDays(30) },
        BypassGovernanceRetention: true,
      }),
      "AccessDenied",
      403,
    );
    await failsWith(
      set({ Retention: { Mode: "COMPLIANCE", RetainUntilDate: inDays(15) } }),
      "AccessDenied",
      403,
    );
    // One instant, sent and compared: computed twice, the two could fall on either side of a second.
    const longer = inDays(25);
    await set({ Retention: { Mode: "COMPLIANCE", RetainUntilDate: longer } });
    const last = await current();
    assert.equal(last?.Mode, "COMPLIANCE");
    assert.equal(last?.RetainUntilDate?.getTime(), longer.getTime());
  } finally {
    await f.close();
  }
});
