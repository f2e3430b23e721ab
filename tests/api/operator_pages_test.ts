/**
 * Operator pages rendered on the server for a token Kubernetes limits to one namespace: the tenants list says
 * why it is empty (Kubernetes' own refusal), the tenant that token may read still opens, and the License tab
 * offers 'Activate Product' while the console holds no licence, and the drives page shows the direct-csi notice
 * with its controls disabled when the drives cannot be listed.
 */
import assert from "node:assert/strict";
import { signInOperator, startOperatorStack } from "../operator_helpers.ts";

Deno.test("operator pages: a namespace-limited token sees Kubernetes' refusal and what it may read", async (t) => {
  const stack = await startOperatorStack({ seedTenant: true, backTenants: false });
  try {
    const viewer = await signInOperator(stack, stack.cluster.viewerToken);
    await t.step(
      "/tenants: refused cluster-wide, it lists its own namespace's tenant and says why",
      async () => {
        const res = await viewer.request("GET", "/tenants");
        const html = await res.text();
        assert.equal(res.status, 200);
        assert.match(html, /cannot list resource (&quot;|")tenants(&quot;|")/);
        assert.match(html, /so only those in namespace tenant-lite are shown/);
        assert.equal(html.includes('data-row="tenant-lite/storage-lite"'), true);
      },
    );
    await t.step("its own namespace's tenant opens; the License tab offers 'Activate Product'", async () => {
      const res = await viewer.request("GET", "/namespaces/tenant-lite/tenants/storage-lite/license");
      const html = await res.text();
      assert.equal(res.status, 200);
      assert.match(html, /Activate Product/);
      // The page's texts for its islands (the #deck-i18n block) name every operator button; the page shows none.
      const shown = html.replace(/<script type="application\/json" id="deck-i18n">.*?<\/script>/s, "");
      assert.equal(shown.includes("Attach License"), false);
    });
    await t.step("a tenant in a namespace it may not read: Kubernetes' 403, not a blank page", async () => {
      const res = await viewer.request("GET", "/namespaces/ns-a/tenants/anything/summary");
      const html = await res.text();
      assert.equal(res.status, 403);
      assert.match(html, /forbidden/i);
    });
    await t.step(
      "/storage/drives when the drives cannot be listed: the direct-csi notice, controls disabled",
      async () => {
        const res = await viewer.request("GET", "/storage/drives");
        const html = await res.text();
        assert.equal(res.status, 200);
        assert.match(html, /data-testid="direct-csi-notice"/);
        assert.match(html, /Managing locally attached drives requires the direct-csi component/);
        for (const label of ["Refresh", "Format Selected Drives", "Format All Drives"]) {
          assert.match(
            html,
            new RegExp(`<button[^>]*disabled=""[^>]*>${label}</button>`),
            `${label} is disabled`,
          );
        }
      },
    );
  } finally {
    await stack.close();
  }
});
