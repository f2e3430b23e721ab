/**
 * What an anonymous browser form may make the storage hold before its policy signature is checked: each field
 * at most 1 MiB (MinIO's maxFormFieldSize), all of them together at most 2 MiB, at most 1,000. A form past
 * that is refused with MinIO's answer (400 MalformedPOSTRequest, "multipart: message too large") as soon as
 * the bound is crossed, without the server buffering the rest: the storage runs as its own process here and
 * its resident memory is read from /proc. One request once took it from 293 to 1,303 MB.
 */
import assert from "node:assert/strict";
import { S3Client as SdkClient } from "@aws-sdk/client-s3";
import { createPresignedPost } from "@aws-sdk/s3-presigned-post";
import { S3Client } from "../../server/lib/s3/client.ts";
import { makeBucket } from "../../server/lib/s3/mod.ts";
import { freePort, spawnStorage } from "../storage_process.ts";
import { formBody } from "../raw_http.ts";
import { LINGER_BYTES } from "../../server/lib/http/listener.ts";

const ROOT = { accessKey: "formlimitroot", secretKey: "form-limit-secret-1" };
const MiB = 1024 * 1024;
const BOUNDARY = "limits-7MA4YWxkTrZu0gW";
const enc = new TextEncoder();

/** What an anonymous form may hold before its signature is checked: all its fields (post_policy.ts). */
const FORM_BOUND = 2 * MiB;

/**
 * The most a client can have sent when the answer reaches it, with none of it held by the server: the form's
 * bound, what the listener drains after answering (LINGER_BYTES), one more field written before the answer
 * was seen, and what the kernel holds in flight on loopback (both sockets' buffers at their largest, which
 * Linux grows on its own: 36 MiB on a default kernel). The server's memory is checked separately.
 */
function mostSentBeforeTheAnswer(): number {
  const largest = (file: string) => Number(Deno.readTextFileSync(file).trim().split(/\s+/)[2]);
  const kernel = largest("/proc/sys/net/ipv4/tcp_rmem") + largest("/proc/sys/net/ipv4/tcp_wmem");
  return FORM_BOUND + LINGER_BYTES + MiB + kernel;
}

function residentBytes(pid: number): number {
  const status = Deno.readTextFileSync(`/proc/${pid}/status`);
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) * 1024;
}

async function writeAll(conn: Deno.Conn, bytes: Uint8Array): Promise<void> {
  for (let at = 0; at < bytes.length;) at += await conn.write(bytes.subarray(at));
}

/** Everything the server sends until it closes the connection. */
async function readAnswer(conn: Deno.Conn): Promise<string> {
  let text = "";
  const buffer = new Uint8Array(16 * 1024);
  try {
    for (let n = await conn.read(buffer); n !== null; n = await conn.read(buffer)) {
      text += new TextDecoder().decode(buffer.subarray(0, n));
    }
  } catch { /* reset after the answer */ }
  return text;
}

/**
 * Sends an endless anonymous form, `field(i)` after `field(i - 1)`, until the server answers or more than it
 * may take is out; returns the answer and how much had been sent when it came.
 */
async function endlessForm(
  url: string,
  field: (i: number) => string,
): Promise<{ answer: string; sent: number }> {
  const { hostname, port } = new URL(url);
  const conn = await Deno.connect({ hostname, port: Number(port) });
  let answered = false;
  const answer = readAnswer(conn).then((text) => ((answered = true), text));
  let sent = 0;
  try {
    await writeAll(
      conn,
      enc.encode(
        `POST /forms HTTP/1.1\r\nHost: ${hostname}:${port}\r\n` +
          `Content-Type: multipart/form-data; boundary=${BOUNDARY}\r\nContent-Length: ${1024 * MiB}\r\n\r\n`,
      ),
    );
    const enough = mostSentBeforeTheAnswer() + 8 * MiB;
    for (let i = 0; !answered && sent < enough; i++) {
      const part = enc.encode(
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${`x-ignore-${i}`}"\r\n\r\n${field(i)}\r\n`,
      );
      await writeAll(conn, part);
      sent += part.length;
    }
  } catch { /* the server stopped reading and closed */ }
  const text = await answer;
  try {
    conn.close();
  } catch { /* closed */ }
  return { answer: text, sent };
}

Deno.test({
  name: "an oversized anonymous form is refused as it crosses the bound, without being buffered",
  sanitizeResources: false,
  sanitizeOps: false,
}, async (t) => {
  const dataDir = await Deno.makeTempDir({ prefix: "deck-form-limits-" });
  const { child, url } = await spawnStorage(dataDir, await freePort(), ROOT);
  try {
    await makeBucket(new S3Client({ endpoint: url, credentials: ROOT }), "forms");
    const before = residentBytes(child.pid);

    for (
      const [name, field] of [
        ["fields of 1 MiB less a byte, each within the field bound", () => "a".repeat(MiB - 1)],
        ["a thousand small fields and more", () => "small"],
      ] as [string, (i: number) => string][]
    ) {
      await t.step(name, async () => {
        const started = performance.now();
        const { answer, sent } = await endlessForm(url, field);
        assert.match(answer, /^HTTP\/1\.1 400 /, answer.slice(0, 200));
        assert.match(answer, /<Code>MalformedPOSTRequest<\/Code>/);
        assert.match(answer, /multipart: message too large/);
        assert.ok(sent < mostSentBeforeTheAnswer(), `the answer came after ${sent} bytes had been sent`);
        assert.ok(performance.now() - started < 20_000);
      });
    }
    const grown = residentBytes(child.pid) - before;
    assert.ok(grown < 48 * MiB, `the storage grew by ${Math.round(grown / MiB)} MiB`);

    await t.step("a form with one field of MinIO's largest is still taken", async () => {
      const sdk = new SdkClient({
        endpoint: url,
        region: "us-east-1",
        forcePathStyle: true,
        credentials: { accessKeyId: ROOT.accessKey, secretAccessKey: ROOT.secretKey },
      });
      const { fields } = await createPresignedPost(sdk, { Bucket: "forms", Key: "big field ✓.txt" });
      sdk.destroy();
      const body = formBody(
        BOUNDARY,
        [...Object.entries(fields), ["x-ignore-padding", "p".repeat(MiB - 1)]],
        { filename: "big field.txt", bytes: enc.encode("within the bounds") },
      );
      const res = await fetch(`${url}/forms`, {
        method: "POST",
        headers: { "content-type": `multipart/form-data; boundary=${BOUNDARY}` },
        body,
      });
      assert.equal(res.status, 204, await res.text());
    });
  } finally {
    child.kill("SIGTERM");
    await child.status;
    await Deno.remove(dataDir, { recursive: true }).catch(() => {});
  }
});
