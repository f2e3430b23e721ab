/**
 * Operator mode's tenant API (api-index §9), mounted only in operator mode. Every handler calls Kubernetes
 * with the signed-in operator's own token.
 *
 *   GET    /tenants                                  all tenants          POST /tenants      create
 *   GET    /namespaces/{ns}/tenants                  a namespace's tenants
 *   GET    /namespaces/{ns}/tenants/{t}              details              PUT  (version)     DELETE
 *   GET    /namespaces/{ns}/tenants/{t}/yaml         YAML                 PUT  /yaml
 *   GET    /namespaces/{ns}/tenants/{t}/usage        usage from the tenant's admin API
 *   GET    /namespaces/{ns}/tenants/{t}/pods         pods; /pods/{p} logs, DELETE /pods/{p}, /pods/{p}/events
 *   POST   /namespaces/{ns}/tenants/{t}/pools        add a pool
 *   GET    /namespaces/{ns}/tenants/{t}/security     certificates         POST (update)
 *   POST   /namespace                                create a namespace
 *   GET    /namespaces/{ns}/resourcequotas/{name}    storage quota
 *   GET    /cluster/max-allocatable-memory, /get-parity/{nodes}/{disks}, /nodes/labels
 *   POST   /subscription/namespaces/{ns}/tenants/{t}/activate   "Attach License": the licence in force into the tenant
 *
 * The other subscription calls (/subscription/info, validate, refresh) are the License area's (api/license.ts).
 */
import { type Context, Hono } from "hono";
import {
  CreateNamespaceInput,
  CreateTenantInput,
  DeletePodInput,
  DeleteTenantInput,
  PoolInput,
  TenantYamlInput,
  UpdateSecurityInput,
  UpdateTenantInput,
} from "../../lib/contract/operator.ts";
import type { AppDeps } from "../deps.ts";
import type { AppEnv } from "../session/env.ts";
import { ApiError } from "../http/errors.ts";
import { operatorOf } from "../session/operator.ts";
import * as cluster from "../services/operator/cluster.ts";
import * as pods from "../services/operator/pods.ts";
import * as security from "../services/operator/security.ts";
import { attachLicense } from "../services/operator/license.ts";
import { createTenant } from "../services/operator/tenant_create.ts";
import * as tenantList from "../services/operator/tenant_list.ts";
import * as tenants from "../services/operator/tenants.ts";
import { pageQuery, readJson } from "./input.ts";

function positiveInt(value: string | undefined, name: string, min: number): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) {
    throw new ApiError(422, `${name} must be an integer of at least ${min}`, {
      detail: `${name} is "${value ?? ""}"`,
    });
  }
  return n;
}

export function operatorApi(deps: AppDeps) {
  const of = (c: Context<AppEnv>) => operatorOf(c, deps);
  const params = (c: Context<AppEnv>) => ({ ns: c.req.param("namespace")!, t: c.req.param("tenant")! });
  const base = "/namespaces/:namespace/tenants/:tenant";
  return new Hono<AppEnv>()
    .get("/tenants", async (c) => {
      const { op, token } = of(c);
      return c.json(await tenantList.listTenants(op, token, pageQuery(c)));
    })
    .post("/tenants", async (c) => {
      const { op, token } = of(c);
      const input = await readJson(c, CreateTenantInput);
      return c.json(await createTenant(op, token, input, (await deps.license.current()).key), 200);
    })
    .get("/namespaces/:namespace/tenants", async (c) => {
      const { op, token } = of(c);
      return c.json(
        await tenantList.listTenants(op, token, { namespace: c.req.param("namespace"), ...pageQuery(c) }),
      );
    })
    .get(base, async (c) => {
      const { op, token } = of(c);
      return c.json(await tenants.tenantDetails(op, token, params(c).ns, params(c).t, deps.license));
    })
    .put(base, async (c) => {
      const { op, token } = of(c);
      await tenants.updateTenant(op, token, params(c).ns, params(c).t, await readJson(c, UpdateTenantInput));
      return c.body(null, 201);
    })
    .delete(base, async (c) => {
      const { op, token } = of(c);
      const input = await readJson(c, DeleteTenantInput);
      await tenants.deleteTenant(op, token, params(c).ns, params(c).t, {
        confirm: input.confirm,
        deletePvcs: input.delete_pvcs,
      });
      return c.body(null, 204);
    })
    .get(`${base}/yaml`, async (c) => {
      const { op, token } = of(c);
      return c.json({ yaml: await tenants.tenantYaml(op, token, params(c).ns, params(c).t) });
    })
    .put(`${base}/yaml`, async (c) => {
      const { op, token } = of(c);
      await tenants.putTenantYaml(
        op,
        token,
        params(c).ns,
        params(c).t,
        (await readJson(c, TenantYamlInput)).yaml,
      );
      return c.body(null, 201);
    })
    .get(`${base}/usage`, async (c) => {
      const { op, token } = of(c);
      return c.json(await tenants.tenantUsage(op, token, params(c).ns, params(c).t));
    })
    .get(`${base}/pods`, async (c) => {
      const { op, token } = of(c);
      return c.json(await pods.listTenantPods(op, token, params(c).ns, params(c).t));
    })
    .get(`${base}/pods/:pod`, async (c) => {
      const { op, token } = of(c);
      return c.json(await pods.podLogs(op, token, params(c).ns, c.req.param("pod")));
    })
    .delete(`${base}/pods/:pod`, async (c) => {
      const { op, token } = of(c);
      const { confirm } = await readJson(c, DeletePodInput);
      await pods.deleteTenantPod(op, token, params(c).ns, params(c).t, c.req.param("pod"), confirm);
      return c.body(null, 204);
    })
    .get(`${base}/pods/:pod/events`, async (c) => {
      const { op, token } = of(c);
      return c.json(await pods.podEvents(op, token, params(c).ns, c.req.param("pod")));
    })
    .post(`${base}/pools`, async (c) => {
      const { op, token } = of(c);
      await tenants.addPool(op, token, params(c).ns, params(c).t, await readJson(c, PoolInput));
      return c.body(null, 201);
    })
    .get(`${base}/security`, async (c) => {
      const { op, token } = of(c);
      return c.json(await security.tenantSecurity(op, token, params(c).ns, params(c).t));
    })
    .post(`${base}/security`, async (c) => {
      const { op, token } = of(c);
      await security.updateTenantSecurity(
        op,
        token,
        params(c).ns,
        params(c).t,
        await readJson(c, UpdateSecurityInput),
      );
      return c.body(null, 204);
    })
    .post("/namespace", async (c) => {
      const { op, token } = of(c);
      await cluster.createNamespace(op, token, (await readJson(c, CreateNamespaceInput)).name);
      return c.body(null, 201);
    })
    .get("/namespaces/:namespace/resourcequotas/:name", async (c) => {
      const { op, token } = of(c);
      return c.json(await cluster.resourceQuota(op, token, c.req.param("namespace"), c.req.param("name")));
    })
    .get("/cluster/max-allocatable-memory", async (c) => {
      const { op, token } = of(c);
      return c.json({
        max_memory: await cluster.maxAllocatableMemory(
          op,
          token,
          positiveInt(c.req.query("num_nodes"), "num_nodes", 1),
        ),
      });
    })
    .get("/get-parity/:nodes/:disks", (c) => {
      of(c);
      return c.json(
        cluster.getParity(
          positiveInt(c.req.param("nodes"), "nodes", 2),
          positiveInt(c.req.param("disks"), "disksPerNode", 1),
        ),
      );
    })
    .get("/nodes/labels", async (c) => {
      const { op, token } = of(c);
      return c.json(await cluster.nodeLabels(op, token));
    })
    .post("/subscription/namespaces/:namespace/tenants/:tenant/activate", async (c) => {
      const { op, token } = of(c);
      await attachLicense(op, token, deps.license, params(c).ns, params(c).t);
      return c.body(null, 204);
    });
}
