/**
 * Archives that unpack on upload (issue 28), the console and the storage each in their own process as in
 * production: 10,000 files of 4 KiB sent through the console as one tar that the storage unpacks
 * ("Upload as archive": the tar is built the way the object browser builds it, tarBlob over the files),
 * against the same files sent one by one through the object browser's uploader path (the form upload
 * endpoint, one file a request, three files in flight as the browser's upload panel runs them). Goal: ≥ 10x
 * files per second. The console's and the storage's peak RSS over each run are reported.
 * Run: npx -y deno@2.9.6 task bench archive
 */
import { startBenchConsole } from "./console_process.ts";
import { S3Client } from "../../server/lib/s3/client.ts";
import { listAllObjects, makeBucket } from "../../server/lib/s3/mod.ts";
import { spawnStorage } from "../../tests/storage_process.ts";
import { tarBlob } from "../../islands/lib/tar_writer.ts";
import { emit, freePort, rssOf } from "./measure.ts";

const FILES = 10_000;
const SIZE = 4 * 1024;
const MiB = 1024 * 1024;
/** Files the upload panel sends at once (islands/ObjectBrowser/UploadsPanel.tsx runBatch). */
const BROWSER_PARALLEL = 3;
const root = { accessKey: "benchroot", secretKey: "bench-secret-1" };
const log = (text: string) => console.error(`  archive bench: ${text}`);

/** Peak RSS of each process over `work`, sampled every 50 ms. */
async function peakRss<T>(pids: number[], work: () => Promise<T>): Promise<{ result: T; peaks: number[] }> {
  const peaks = await Promise.all(pids.map(rssOf));
  const sample = () =>
    pids.forEach((pid, i) => rssOf(pid).then((r) => (peaks[i] = Math.max(peaks[i], r)), () => {}));
  const timer = setInterval(sample, 50);
  try {
    const result = await work();
    sample();
    return { result, peaks };
  } finally {
    clearInterval(timer);
  }
}

/** The benchmark's files: distinct 4 KiB bodies under a few folders, names in several scripts. */
const files = Array.from({ length: FILES }, (_, i) => {
  const body = new Uint8Array(SIZE).fill(i % 251);
  new DataView(body.buffer).setUint32(0, i);
  return { path: `dossier ${i % 10} été/fichier 😀 ${String(i).padStart(5, "0")}.txt`, body };
});

const dir = await Deno.makeTempDir({ prefix: "deck-bench-archive-" });
const storage = await spawnStorage(`${dir}/storage`, await freePort(), root);
const admin = new S3Client({ endpoint: storage.url, credentials: root });
const deck = await startBenchConsole(storage.url, root);
try {
  const call = async (path: string, init: RequestInit) => {
    const res = await deck.call(path, init);
    const text = await res.text();
    if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${text}`);
  };
  await makeBucket(admin, "bench");
  const pids = [deck.pid, storage.child.pid];
  const count = async (prefix: string) => (await listAllObjects(admin, "bench", { prefix })).objects.length;

  // One by one, as the object browser's uploader sends small files: a form with one file per request.
  log(`uploading ${FILES} files one by one`);
  const oneByOne = await peakRss(pids, async () => {
    const started = performance.now();
    let next = 0;
    await Promise.all(Array.from({ length: BROWSER_PARALLEL }, async () => {
      while (next < FILES) {
        const file = files[next++];
        const form = new FormData();
        form.append(`single/${file.path}`, new Blob([file.body]), file.path.split("/").pop());
        await call("/api/v1/buckets/bench/objects/upload?prefix=", { method: "POST", body: form });
      }
    }));
    return performance.now() - started;
  });
  if ((await count("single/")) !== FILES) throw new Error("the one-by-one upload lost files");

  // As one archive, built as the object browser builds it and sent to the console's archive endpoint.
  log(`uploading ${FILES} files as one archive`);
  const archive = await peakRss(pids, async () => {
    const started = performance.now();
    const body = tarBlob(
      files.map((f) => ({ name: f.path, file: new Blob([f.body]), modified: new Date() })),
    );
    await call("/api/v1/buckets/bench/objects/archive?prefix=archive%2F", { method: "PUT", body });
    return performance.now() - started;
  });
  if ((await count("archive/")) !== FILES) throw new Error("the archive upload lost files");

  const rate = (ms: number) => FILES / (ms / 1000);
  const archiveRate = rate(archive.result), singleRate = rate(oneByOne.result);
  log(`archive ${archiveRate.toFixed(0)} files/s, one by one ${singleRate.toFixed(0)} files/s`);
  emit({
    name: "Upload of 10,000 files of 4 KiB as one archive",
    deck: archiveRate,
    baseline: singleRate,
    unit: "files/s",
    ratio: archiveRate / singleRate,
    goal: "≥ 10x",
    pass: archiveRate >= 10 * singleRate,
    baselineName:
      "the same files one by one through the object browser's uploader (form upload, 3 in flight)",
  });
  for (const [i, name] of ["Console", "Storage"].entries()) {
    emit({
      name: `${name} peak RSS, archive upload of 10,000 files`,
      deck: archive.peaks[i] / MiB,
      baseline: oneByOne.peaks[i] / MiB,
      unit: "MiB",
      ratio: archive.peaks[i] / oneByOne.peaks[i],
      goal: "(reported)",
      pass: true,
      baselineName: "peak RSS of the same process over the one-by-one upload",
    });
  }
} finally {
  await deck.close();
  storage.child.kill("SIGTERM");
  await storage.child.status;
  await Deno.remove(dir, { recursive: true }).catch(() => {});
}
