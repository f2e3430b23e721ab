/** Preview Configuration page (spec 3 §2.3): what Create will ask for, before asking. */
import { niceBytes } from "../../server/lib/contract/operator_rules.ts";
import type { SizeComputation } from "./rules.ts";
import type { WizardState } from "./state.ts";

export function Preview({ state, size }: { state: WizardState; size: SizeComputation }) {
  const chosen = size.ec.storageFactors.find((f) => f.erasureCode === state.size.ecParity);
  const rows: [string, string][] = [
    ["Tenant Name", state.name.tenantName],
    ["Namespace", state.name.namespace],
    ["Storage Class", state.name.storageClass],
    ["Total Number of Servers", String(size.distribution.nodes)],
    ["Drives per Server", String(size.distribution.disks)],
    ["Drive Capacity", niceBytes(size.distribution.pvSize)],
    ["Raw Capacity", niceBytes(size.ec.rawCapacity)],
    ["Usable Capacity", chosen ? niceBytes(chosen.maxCapacity) : "-"],
    ["EC Parity", state.size.ecParity],
  ];
  if (state.advanced) {
    rows.push(
      ["MinIO Image", state.configure.customImage ? state.configure.imageName : "Default"],
      ["Memory per Node", `${niceBytes(size.memory.request)} (limit ${niceBytes(size.memory.limit)})`],
      [
        "Pod Affinity",
        {
          none: "None",
          default: "Default (Pod Anti-Affinity)",
          nodeSelector: "Node Selector",
        }[state.affinity.kind],
      ],
      [
        "Identity Provider",
        { builtin: "Built-in", openid: "OpenID", ad: "Active Directory" }[state.idp.kind],
      ],
      [
        "TLS",
        !state.security.enableTLS ? "Disabled" : state.security.autoCert ? "AutoCert" : "Custom certificates",
      ],
      ["Encryption", state.encryption.enabled ? state.encryption.kind.toUpperCase() : "Disabled"],
    );
  }
  return (
    <div>
      <h2 className="text-lg font-bold mb-1">Review</h2>
      <p className="text-sm text-base-content/70 mb-4">Review the details of the new tenant</p>
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
