/**
 * Operator mode's storage area (operator-k8s.md §3.14, §3.15, §7): the tenants' volume claims and the
 * DirectCSI drives, and formatting drives by asking direct-csi for it (requestedFormat on the drive).
 */
import {
  type DriveInfo,
  FORMAT_CONFIRMATION,
  type FormatDrivesInput,
  type FormatIssue,
  type PvcInfo,
} from "../../lib/contract/volumes.ts";
import type { OperatorDeps } from "../k8s/connection.ts";
import { ApiError } from "../http/errors.ts";
import { t } from "../../../islands/lib/i18n/t.ts";
import { corePath, groupPath, K8sError } from "../k8s/client.ts";
import { canonicalQuantity } from "../../lib/contract/quantity.ts";
import {
  type DirectCSIDrive,
  type DirectCSIVolume,
  type PersistentVolumeClaim,
  TENANT_LABEL,
} from "../k8s/types.ts";

const DIRECT_CSI = "direct.csi.min.io/v1beta1";

export async function listPvcs(op: OperatorDeps, token: string): Promise<PvcInfo[]> {
  const claims = await op.k8s.list<PersistentVolumeClaim>(token, corePath("persistentvolumeclaims"), {
    labelSelector: TENANT_LABEL,
  });
  return claims.items.map((pvc) => ({
    name: pvc.metadata.name,
    namespace: pvc.metadata.namespace ?? "",
    status: pvc.status?.phase ?? "",
    volume: pvc.spec?.volumeName ?? "",
    tenant: pvc.metadata.labels?.[TENANT_LABEL] ?? "",
    capacity: canonicalQuantity(pvc.status?.capacity?.storage),
    storageClass: pvc.spec?.storageClassName ?? "",
    age: pvc.metadata.creationTimestamp ?? "",
  }));
}

/** "/var/lib/direct-csi/devices/sdb-part-1" → "/dev/sdb1" (operator-k8s.md §7.2). */
export function driveDisplayName(path: string): string {
  return "/dev/" +
    path.replace("/var/lib/direct-csi/devices/", "").replace("/dev/", "").replace("-part-", "");
}

function driveMessage(drive: DirectCSIDrive): string {
  let message = "";
  for (const c of drive.status.conditions ?? []) {
    if ((c.type === "Initialized" || c.type === "Owned") && c.status !== "True" && c.message) {
      message = c.message;
    }
  }
  return message.replaceAll(drive.metadata.name, "").replaceAll("/var/lib/direct-csi/devices", "/dev")
    .replaceAll("-part-", "").split("\n")[0];
}

async function drivesAndVolumes(
  op: OperatorDeps,
  token: string,
): Promise<{ drives: DirectCSIDrive[]; volumes: DirectCSIVolume[] }> {
  const [drives, volumes] = await Promise.all([
    op.k8s.list<DirectCSIDrive>(token, groupPath(DIRECT_CSI, "directcsidrives")),
    op.k8s.list<DirectCSIVolume>(token, groupPath(DIRECT_CSI, "directcsivolumes")),
  ]);
  return { drives: drives.items, volumes: volumes.items };
}

export async function listDrives(op: OperatorDeps, token: string): Promise<DriveInfo[]> {
  const { drives, volumes } = await drivesAndVolumes(op, token);
  const key = (d: DirectCSIDrive) => [d.status.nodeName ?? "", d.status.path, d.status.driveStatus ?? ""];
  return drives
    .sort((a, b) => {
      const [x, y] = [key(a), key(b)];
      return x[0].localeCompare(y[0]) || x[1].localeCompare(y[1]) || x[2].localeCompare(y[2]);
    })
    .map((d) => {
      const message = driveMessage(d);
      return {
        drive: driveDisplayName(d.status.path),
        capacity: d.status.totalCapacity ?? 0,
        allocated: d.status.allocatedCapacity ?? 0,
        volumes: volumes.filter((v) => v.status?.drive === d.metadata.name).length,
        node: d.status.nodeName ?? "",
        status: message ? `${d.status.driveStatus}*` : d.status.driveStatus ?? "",
        ...(message ? { message } : {}),
      };
    });
}

/** Why a drive may not be formatted, or "" (operator-k8s.md §7.3 step 2). */
function formatRefusal(drive: DirectCSIDrive, force: boolean): string {
  const status = drive.status.driveStatus;
  if (status === "Unavailable") return "Status is unavailable";
  if (status === "InUse") return "Drive in use. Cannot be formatted";
  if (!force && status === "Ready") return "Drive already owned and managed. Use force to overwrite";
  if (!force && drive.status.filesystem) return "Drive already has a fs. Use force to overwrite";
  return "";
}

/** POST /direct-csi/drives/format: the confirmation phrase must be given; per-drive refusals come back as issues. */
export async function formatDrives(
  op: OperatorDeps,
  token: string,
  input: FormatDrivesInput,
): Promise<FormatIssue[]> {
  if (input.confirm !== FORMAT_CONFIRMATION) {
    throw new ApiError(400, t("operator.drives.typeToFormat", { phrase: FORMAT_CONFIRMATION }), {
      detail: t("operator.drives.phraseRequired"),
    });
  }
  const wanted = new Set(input.drives);
  const { drives } = await drivesAndVolumes(op, token);
  if (drives.length === 0) {
    throw new ApiError(500, t("operator.api.tryAgain"), { detail: "no resources found globally" });
  }
  const issues: FormatIssue[] = [];
  for (const drive of drives) {
    const display = driveDisplayName(drive.status.path);
    if (!wanted.has(`${drive.status.nodeName}:${display}`)) continue;
    const refusal = formatRefusal(drive, input.force);
    if (refusal) {
      issues.push({ node: drive.status.nodeName ?? "", drive: display, error: refusal });
      continue;
    }
    drive.spec = {
      ...drive.spec,
      directCSIOwned: true,
      requestedFormat: { filesystem: "xfs", force: input.force },
    };
    try {
      await op.k8s.replace(
        token,
        groupPath(DIRECT_CSI, "directcsidrives", { name: drive.metadata.name }),
        drive,
      );
    } catch (error) {
      if (!(error instanceof K8sError)) throw error;
      issues.push({ node: drive.status.nodeName ?? "", drive: display, error: error.message });
    }
  }
  return issues;
}
