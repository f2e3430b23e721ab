/**
 * Storage (spec 3 §2.7): the left list Volumes and Drives; /storage opens Volumes.
 */
import { Hono } from "hono";
import type { ReactNode } from "react";
import StorageDrives from "../islands/StorageDrives.tsx";
import StorageVolumes from "../islands/StorageVolumes.tsx";
import type { DriveInfo, PvcInfo } from "../server/contract/storage.ts";
import type { AppDeps, AppEnv } from "../server/deps.ts";
import { toApiError } from "../server/errors.ts";
import { Island } from "../server/render/island.tsx";
import { listDrives, listPvcs } from "../server/services/storage.ts";
import { PageHeader } from "./layout/Shell.tsx";
import { operatorPage } from "./operator.tsx";
import { renderInShell } from "./page_context.tsx";

function StorageLayout({ base, active, children }: { base: string; active: "volumes" | "drives"; children: ReactNode }) {
  return (
    <div className="flex flex-col lg:flex-row gap-4 lg:gap-6">
      <ul className="menu menu-horizontal lg:menu-vertical bg-base-100 rounded-box w-full lg:w-48 shrink-0" aria-label="Storage sections">
        {(["volumes", "drives"] as const).map((id) => (
          <li key={id}>
            <a href={`${base}storage/${id}`} className={id === active ? "menu-active" : undefined} aria-current={id === active ? "page" : undefined}>{id === "volumes" ? "Volumes" : "Drives"}</a>
          </li>
        ))}
      </ul>
      <section className="flex-1 min-w-0">{children}</section>
    </div>
  );
}

export function storagePages(deps: AppDeps) {
  const base = deps.render.href("/");
  return new Hono<AppEnv>()
    .get("/storage", (c) => c.redirect(`${base}storage/volumes`, 302))
    .get("/storage/volumes", async (c) => {
      const { op, token } = operatorPage(c, deps);
      let pvcs: PvcInfo[] = [];
      let error: unknown;
      try {
        pvcs = await listPvcs(op, token);
      } catch (e) {
        error = e;
      }
      return renderInShell(deps, c, {
        title: "Volumes",
        error,
        body: (
          <StorageLayout base={base} active="volumes">
            <PageHeader title="Volumes" />
            <Island name="StorageVolumes" component={StorageVolumes} props={{ pvcs, base }} />
          </StorageLayout>
        ),
      });
    })
    .get("/storage/drives", async (c) => {
      const { op, token } = operatorPage(c, deps);
      let drives: DriveInfo[] | null = null;
      let failure = "";
      try {
        drives = await listDrives(op, token);
      } catch (e) {
        failure = toApiError(e).detail || toApiError(e).message; // spec 3 §8: treated as direct-csi missing
      }
      return renderInShell(deps, c, {
        title: "Drives",
        body: (
          <StorageLayout base={base} active="drives">
            <PageHeader title="Drives" />
            <Island name="StorageDrives" component={StorageDrives} props={{ drives, failure }} />
          </StorageLayout>
        ),
      });
    });
}
