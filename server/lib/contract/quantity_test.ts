import assert from "node:assert/strict";
import { binaryQuantity, canonicalQuantity, decimalQuantity, parseQuantity } from "./quantity.ts";

Deno.test("quantities parse rounded up and write canonically", () => {
  assert.equal(parseQuantity("25Gi"), 25 * 2 ** 30);
  assert.equal(parseQuantity("32780840Ki"), 32780840 * 1024);
  assert.equal(parseQuantity("500m"), 1);
  assert.equal(parseQuantity("1e3"), 1000);
  assert.equal(parseQuantity("1.5G"), 1.5e9);
  assert.equal(parseQuantity("107374182400"), 107374182400);
  assert.equal(parseQuantity("12 apples"), null);
  assert.equal(binaryQuantity(2147483648), "2Gi");
  assert.equal(binaryQuantity(3 * 2 ** 29), "1536Mi");
  assert.equal(decimalQuantity(107374182400), "107374182400");
  assert.equal(decimalQuantity(5e9), "5G");
  assert.equal(canonicalQuantity("1024Mi"), "1Gi");
  assert.equal(canonicalQuantity(undefined), "0");
});
