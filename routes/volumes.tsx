/**
 * Storage (spec 3 §2.7): the left list Volumes and Drives; /storage opens Volumes.
 */
import { Hono } from "hono";
import type { ReactNode } from "react";
import DrivesList from "../islands/DrivesList.tsx";
import { t } from "../islands/lib/i18n/t.ts";
import VolumesList from "../islands/VolumesList.tsx";
import type { DriveInfo, PvcInfo } from "../server/lib/contract/volumes.ts";
import type { AppDeps } from "../server/console/deps.ts";
import type { AppEnv } from "../server/console/session/env.ts";
import { toApiError } from "../server/console/http/errors.ts";
import { Island } from "../server/console/render/island.tsx";
import { listDrives, listPvcs } from "../server/console/services/volumes.ts";
import { operatorOf } from "../server/console/session/operator.ts";
import { PageHeader } from "./layout/Shell.tsx";
import { SectionLayout } from "./layout/SectionMenu.tsx";
import { renderInShell } from "./page_context.tsx";

function StorageLayout(
  { base, active, children }: { base: string; active: "volumes" | "drives"; children: ReactNode },
) {
  return (
    <SectionLayout
      label={t("operator.storage.sections")}
      current={active}
      items={(["volumes", "drives"] as const).map((id) => ({
        id,
        label: id === "volumes" ? t("operator.word.volumes") : t("operator.word.drives"),
        href: `${base}storage/${id}`,
      }))}
    >
      {children}
    </SectionLayout>
  );
}

export function volumesPages(deps: AppDeps) {
  const base = deps.render.href("/");
  return new Hono<AppEnv>()
    .get("/storage", (c) => c.redirect(`${base}storage/volumes`, 302))
    .get("/storage/volumes", async (c) => {
      const { op, token } = operatorOf(c, deps);
      let pvcs: PvcInfo[] = [];
      let error: unknown;
      try {
        pvcs = await listPvcs(op, token);
      } catch (e) {
        error = e;
      }
      return renderInShell(deps, c, {
        title: t("operator.word.volumes"),
        error,
        body: (
          <StorageLayout base={base} active="volumes">
            <PageHeader title={t("operator.word.volumes")} />
            <Island name="VolumesList" component={VolumesList} props={{ pvcs, base }} />
          </StorageLayout>
        ),
      });
    })
    .get("/storage/drives", async (c) => {
      const { op, token } = operatorOf(c, deps);
      let drives: DriveInfo[] | null = null;
      let failure = "";
      try {
        drives = await listDrives(op, token);
      } catch (e) {
        failure = toApiError(e).detail || toApiError(e).message; // spec 3 §8: treated as direct-csi missing
      }
      return renderInShell(deps, c, {
        title: t("operator.word.drives"),
        body: (
          <StorageLayout base={base} active="drives">
            <PageHeader title={t("operator.word.drives")} />
            <Island name="DrivesList" component={DrivesList} props={{ drives, failure }} />
          </StorageLayout>
        ),
      });
    });
}
