/** The sizing algorithms with the worked values of operator-k8s.md §5 and the spec's rules. */
import assert from "node:assert/strict";
import {
  calculateDistribution,
  erasureCodeCalc,
  GI,
  joinLabels,
  memoryResources,
  niceBytes,
  NO_QUOTA,
  parityOptions,
  parseLabels,
  PI,
  randomKey,
  storageClassesFromQuota,
  TI,
  totalSizeError,
} from "./operator_rules.ts";

Deno.test("parity options follow the reference's worked examples", () => {
  assert.deepEqual(parityOptions(4, 1), ["EC:2"]);
  assert.deepEqual(parityOptions(4, 4), ["EC:8", "EC:7", "EC:6", "EC:5", "EC:4", "EC:3", "EC:2"]);
  assert.deepEqual(parityOptions(8, 1), ["EC:4", "EC:3", "EC:2"]);
  assert.deepEqual(parityOptions(6, 2), ["EC:6", "EC:5", "EC:4", "EC:3", "EC:2"]);
  assert.deepEqual(parityOptions(10, 3), ["EC:5", "EC:4", "EC:3", "EC:2"]);
  assert.throws(
    () => parityOptions(17, 1),
    /number of disks 17 is not divisible by any supported erasure set sizes/,
  );
  assert.throws(
    () => parityOptions(3, 1),
    /incorrect number of endpoints provided \[http:\/\/minio\{1\.\.\.3\}\/export\/set\{1\.\.\.1\}\]/,
  );
  assert.throws(() => parityOptions(4, 0), /invalid number of endpoints/);
});

Deno.test("erasure-code calculation: capacity, tolerance and the default choice", () => {
  // 4 servers × 4 drives of 1 TiB, choices EC:8..EC:2: set size 16.
  const calc = erasureCodeCalc(parityOptions(4, 4), 16, TI, 4);
  assert.equal(calc.rawCapacity, 16 * TI);
  assert.equal(calc.defaultEC, "EC:8");
  const ec4 = calc.storageFactors.find((f) => f.erasureCode === "EC:4")!;
  assert.equal(ec4.storageFactor, 16 / 12);
  assert.equal(ec4.maxCapacity, 12 * TI);
  assert.equal(ec4.maxFailureTolerations, 4);
  const ec8 = calc.storageFactors[0];
  assert.equal(ec8.maxCapacity, 8 * TI);
  assert.equal(ec8.maxFailureTolerations, 8);
  // More than 16 nodes with at least 8 volumes and EC:4 offered: EC:4 is the default.
  assert.equal(erasureCodeCalc(parityOptions(32, 1), 32, TI, 32).defaultEC, "EC:4");
  assert.equal(erasureCodeCalc([], 4, GI, 4).error, true);
});

Deno.test("distribution of the total size over servers and drives", () => {
  assert.deepEqual(calculateDistribution(100 * GI, 4, 1), {
    error: "",
    nodes: 4,
    persistentVolumes: 4,
    disks: 1,
    pvSize: 25 * GI,
  });
  assert.deepEqual(calculateDistribution(100 * GI, 4, 3).pvSize, Math.floor(100 * GI / 12));
  assert.equal(calculateDistribution(GI - 1, 4, 1).error, "The pool size must be greater than 1Gi");
  assert.equal(calculateDistribution(100 * GI, 4, 0).error, "Number of drives must be at least 1");
  assert.equal(
    calculateDistribution(100 * GI, Number.NaN, 1).error,
    "Some provided data is invalid, please try again.",
  );
  assert.equal(
    calculateDistribution(2 * GI, 4, 1).error,
    "Disk Size with this combination would be less than 1Gi, please try another combination",
  );
});

Deno.test("memory request and limit, with every message of spec 3 §5", () => {
  assert.deepEqual(memoryResources(2, 100 * GI, 16 * GI), { error: "", request: 2 * GI, limit: 2 * GI });
  assert.equal(memoryResources(2, TI, 16 * GI).limit, 8 * GI);
  assert.equal(memoryResources(2, 10 * TI, 16 * GI).limit, 16 * GI);
  assert.equal(memoryResources(2, 100 * TI, 16 * GI).limit, 32 * GI);
  assert.equal(memoryResources(2, PI, 16 * GI).limit, 64 * GI);
  assert.equal(
    memoryResources(48, 100 * TI, 64 * GI).limit,
    48 * GI,
    "a request above the table's floor stays",
  );
  assert.equal(
    memoryResources(2, GI, 0).error,
    "There is no memory available for the selected number of nodes",
  );
  assert.equal(memoryResources(2, GI, GI).error, "There are not enough memory resources available");
  assert.equal(memoryResources(1, GI, 16 * GI).error, "The requested memory size must be greater than 2Gi");
  assert.equal(
    memoryResources(32, GI, 16 * GI).error,
    "The requested memory is greater than the max available memory for the selected number of nodes",
  );
});

Deno.test("storage classes and the remaining quota", () => {
  const classes = storageClassesFromQuota([
    { name: "standard.storageclass.storage.k8s.io/requests.storage", hard: TI, used: 100 * GI },
    { name: "requests.storage", hard: 10 * TI },
    { name: "fast.storageclass.storage.k8s.io/requests.storage", hard: NO_QUOTA, used: 0 },
  ]);
  assert.deepEqual(classes.map((c) => c.name), ["standard", "requests.storage", "fast"]);
  assert.equal(classes[0].remaining, TI - 100 * GI);
  assert.equal(totalSizeError(100 * GI, classes[0].remaining), "");
  assert.equal(
    totalSizeError(TI, classes[0].remaining),
    "Volume size must be greater than 1Gi and less than 924 GiB",
  );
  assert.equal(
    totalSizeError(GI, classes[0].remaining),
    "Volume size must be greater than 1Gi and less than 924 GiB",
  );
  assert.equal(niceBytes(1.5 * TI), "1.5 TiB");
});

Deno.test("node-selector labels and generated keys", () => {
  assert.equal(
    joinLabels([{ key: "zone", value: "a" }, { key: "", value: "x" }, { key: "zone", value: "a" }, {
      key: "disk",
      value: "ssd",
    }]),
    "zone=a&disk=ssd",
  );
  assert.deepEqual(parseLabels("zone=a&bad&x=1=2&disk=ssd"), { zone: "a", disk: "ssd" });
  assert.match(randomKey(16), /^[A-Za-z0-9]{16}$/);
  assert.match(randomKey(32), /^[A-Za-z0-9]{32}$/);
});
