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
import { SectionLayout } from "./layout/SectionMenu.tsx";
import { renderInShell } from "./page_context.tsx";

function StorageLayout(
  { base, active, children }: { base: string; active: "volumes" | "drives"; children: ReactNode },
) {
  return (
    <SectionLayout
      label="Storage sections"
      current={active}
      items={(["volumes", "drives"] as const).map((id) => ({
        id,
        label: id === "volumes" ? "Volumes" : "Drives",
        href: `${base}storage/${id}`,
      }))}
    >
      {children}
    </SectionLayout>
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
