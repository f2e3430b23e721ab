/** Preview Configuration page (spec 3 §2.3): what Create will ask for, before asking. */
import { t } from "../lib/i18n/t.ts";
import { type SizeComputation, sizeText } from "./rules.ts";
import type { WizardState } from "./state.ts";

export function Preview({ state, size }: { state: WizardState; size: SizeComputation }) {
  const chosen = size.ec.storageFactors.find((f) => f.erasureCode === state.size.ecParity);
  const rows: [string, string][] = [
    [t("wizard.preview.tenantName"), state.name.tenantName],
    [t("wizard.word.namespace"), state.name.namespace],
    [t("wizard.word.storageClass"), state.name.storageClass],
    [t("wizard.preview.totalServers"), String(size.distribution.nodes)],
    [t("wizard.word.drivesPerServer"), String(size.distribution.disks)],
    [t("wizard.word.driveCapacity"), sizeText(size.distribution.pvSize)],
    [t("wizard.word.rawCapacity"), sizeText(size.ec.rawCapacity)],
    [t("wizard.word.usableCapacity"), chosen ? sizeText(chosen.maxCapacity) : "-"],
    [t("wizard.word.ecParity"), state.size.ecParity],
  ];
  if (state.advanced) {
    rows.push(
      [
        t("wizard.preview.minioImage"),
        state.configure.customImage ? state.configure.imageName : t("wizard.preview.defaultImage"),
      ],
      [
        t("wizard.word.memoryPerNode"),
        t("wizard.word.memoryWithLimit", {
          request: sizeText(size.memory.request),
          limit: sizeText(size.memory.limit),
        }),
      ],
      [
        t("wizard.steps.podAffinity"),
        {
          none: t("common.word.none"),
          default: t("wizard.word.defaultAffinity"),
          nodeSelector: t("wizard.word.nodeSelector"),
        }[state.affinity.kind],
      ],
      [
        t("wizard.steps.identityProvider"),
        { builtin: t("wizard.word.builtin"), openid: "OpenID", ad: "Active Directory" }[state.idp.kind],
      ],
      [
        "TLS",
        !state.security.enableTLS
          ? t("common.word.disabled")
          : state.security.autoCert
          ? "AutoCert"
          : t("wizard.preview.customCertificates"),
      ],
      [
        t("wizard.steps.encryption"),
        state.encryption.enabled ? state.encryption.kind.toUpperCase() : t("common.word.disabled"),
      ],
    );
  }
  return (
    <div>
      <h2 className="text-lg font-bold mb-1">{t("wizard.preview.heading")}</h2>
      <p className="text-sm text-base-content/70 mb-4">{t("wizard.preview.intro")}</p>
      <table className="table table-sm" data-testid="tenant-preview">
        <tbody>
          {rows.map(([label, value]) => (
            <tr key={label}>
              <th className="w-64">{label}</th>
              <td className="wrap-anywhere">{value}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
