/**
 * Lifecycle configurations as MinIO validates and keeps them: an Expiration or Transition Date is RFC 3339
 * at midnight UTC (a bare "20200101" or a noon time is refused with MinIO's message), and a rule sent with
 * its Prefix outside a Filter comes back as sent.
 */
import assert from "node:assert/strict";
import {
  CreateBucketCommand,
  GetBucketLifecycleConfigurationCommand,
  PutBucketLifecycleConfigurationCommand,
} from "@aws-sdk/client-s3";
import { md5Base64 } from "../../server/lib/s3/md5.ts";
import { childText, parseXml } from "../../server/lib/s3/xml.ts";
import { failsWith, startSdkStorage } from "../s3/sdk_client.ts";

const ruleXml = (inner: string) =>
  `<LifecycleConfiguration><Rule><ID>r</ID><Status>Enabled</Status><Filter></Filter>${inner}</Rule></LifecycleConfiguration>`;

Deno.test("lifecycle: dates are RFC 3339 midnight UTC, as MinIO requires", async () => {
  const f = await startSdkStorage();
  try {
    await f.sdk.send(new CreateBucketCommand({ Bucket: "dates" }));
    const put = async (body: string) =>
      await f.root.send({
        method: "PUT",
        bucket: "dates",
        query: { lifecycle: "" },
        headers: { "content-md5": await md5Base64(body) },
        body,
        allow: [400],
      });
    for (
      const [date, message] of [
        ["20200101", "Date must be provided in ISO 8601 format"],
        ["2020-01-01", "Date must be provided in ISO 8601 format"],
        ["2020-02-30T00:00:00Z", "Date must be provided in ISO 8601 format"],
        ["2020-01-01T12:00:00Z", "'Date' must be at midnight GMT"],
        ["2020-01-01T00:00:00+01:00", "'Date' must be at midnight GMT"],
      ]
    ) {
      for (const action of ["Expiration", "Transition"]) {
        const inner = action === "Expiration"
          ? `<Expiration><Date>${date}</Date></Expiration>`
          : `<Transition><Date>${date}</Date><StorageClass>NOPE</StorageClass></Transition>`;
        const res = await put(ruleXml(inner));
        assert.equal(res.status, 400, `${action} ${date}`);
        const error = parseXml(await res.text());
        assert.equal(childText(error, "Code"), "InvalidArgument", `${action} ${date}`);
        assert.equal(childText(error, "Message"), message, `${action} ${date}`);
      }
    }
    const ok = await put(ruleXml("<Expiration><Date>2030-01-01T00:00:00.000Z</Date></Expiration>"));
    assert.equal(ok.status, 200);
    await ok.body?.cancel();
    const got = await f.sdk.send(new GetBucketLifecycleConfigurationCommand({ Bucket: "dates" }));
    assert.equal(got.Rules?.[0].Expiration?.Date?.toISOString(), "2030-01-01T00:00:00.000Z");
    const stored = await f.root.text({ method: "GET", bucket: "dates", query: { lifecycle: "" } });
    assert.match(stored, /<Date>2030-01-01T00:00:00Z<\/Date>/, "kept in MinIO's form");
    await failsWith(
      f.sdk.send(
        new PutBucketLifecycleConfigurationCommand({
          Bucket: "dates",
          LifecycleConfiguration: {
            Rules: [{
              ID: "noon",
              Status: "Enabled",
              Filter: {},
              Expiration: { Date: new Date("2031-05-01T12:00:00Z") },
            }],
          },
        }),
      ),
      "InvalidArgument",
      400,
    );
  } finally {
    await f.close();
  }
});

Deno.test("lifecycle: a rule's Prefix outside a Filter is kept as sent", async () => {
  const f = await startSdkStorage();
  try {
    await f.sdk.send(new CreateBucketCommand({ Bucket: "legacy" }));
    await f.sdk.send(
      new PutBucketLifecycleConfigurationCommand({
        Bucket: "legacy",
        LifecycleConfiguration: {
          Rules: [
            { ID: "old style", Status: "Enabled", Prefix: "journaux été/", Expiration: { Days: 7 } },
            { ID: "new style", Status: "Enabled", Filter: { Prefix: "tmp/" }, Expiration: { Days: 1 } },
          ],
        },
      }),
    );
    const got = await f.sdk.send(new GetBucketLifecycleConfigurationCommand({ Bucket: "legacy" }));
    const [old, current] = got.Rules ?? [];
    assert.equal(old.Prefix, "journaux été/");
    assert.equal(old.Filter, undefined, "not rewritten into a Filter");
    assert.equal(current.Prefix, undefined);
    assert.equal(current.Filter?.Prefix, "tmp/");
  } finally {
    await f.close();
  }
});
