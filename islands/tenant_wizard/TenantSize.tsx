/**
 * Tenant Size page (spec 3 §2.3, §4, §5): servers, drives per server, total size with unit, erasure-code
 * parity (choices from the server), memory per node in advanced mode; shows the distribution, raw and usable
 * capacity and failure tolerance. The server's memory and parity answers are facts the page's validity uses.
 */
import { useEffect, useRef } from "react";
import { MIN_SERVERS, SIZE_UNITS } from "../../server/lib/contract/operator_rules.ts";
import { operatorApi } from "../lib/api/operator.ts";
import { t } from "../lib/i18n/t.ts";
import { ApiClientError } from "../lib/request.ts";
import { NumberWithUnit, SelectField, TextField } from "../ui/fields.tsx";
import { Section } from "./controls.tsx";
import type { PageProps } from "./NameTenant.tsx";
import { computeSize, type SizeFacts, sizeText } from "./rules.ts";

const messageOf = (
  error: unknown,
) => (error instanceof ApiClientError ? error.detail || error.message : String(error));

export function TenantSize(
  { state, patch, facts, setFacts }: PageProps & {
    facts: SizeFacts;
    setFacts: (update: (f: SizeFacts) => SizeFacts) => void;
  },
) {
  const size = state.size;
  const nodes = Number(size.nodes);
  const drives = Number(size.drivesPerServer);
  const memoryTicket = useRef(0);
  const parityTicket = useRef(0);

  useEffect(() => {
    const ticket = ++memoryTicket.current;
    if (!Number.isInteger(nodes) || nodes < 1) {
      return setFacts((f) => ({ ...f, maxMemory: null, memoryLookupError: "" }));
    }
    operatorApi.maxMemory(nodes).then(
      (maxMemory) =>
        ticket === memoryTicket.current && setFacts((f) => ({ ...f, maxMemory, memoryLookupError: "" })),
      (error) =>
        ticket === memoryTicket.current &&
        setFacts((f) => ({ ...f, maxMemory: null, memoryLookupError: messageOf(error) })),
    );
  }, [size.nodes]);

  useEffect(() => {
    // Any change that moves the distribution clears the parity before the new choices arrive (spec 3 §4).
    patch("size", { ecParity: "" });
    setFacts((f) => ({ ...f, parityChoices: [], parityError: "" }));
    const ticket = ++parityTicket.current;
    // Below the minimum the page is invalid anyway; no need to ask the server.
    if (!Number.isInteger(nodes) || nodes < MIN_SERVERS || !Number.isInteger(drives) || drives < 1) return;
    operatorApi.parity(nodes, drives).then(
      (choices) => {
        if (ticket !== parityTicket.current) return;
        setFacts((f) => ({ ...f, parityChoices: choices, parityError: "" }));
      },
      (error) =>
        ticket === parityTicket.current &&
        setFacts((f) => ({ ...f, parityChoices: [], parityError: messageOf(error) })),
    );
  }, [size.nodes, size.drivesPerServer, size.volumeSize, size.sizeFactor]);

  const computed = computeSize(state, facts);
  // The default parity once choices arrive: EC:4 for large layouts, else the highest (spec 3 §4).
  useEffect(() => {
    if (!size.ecParity && computed.ec.defaultEC) patch("size", { ecParity: computed.ec.defaultEC });
  }, [computed.ec.defaultEC, size.ecParity]);

  const chosen = computed.ec.storageFactors.find((f) => f.erasureCode === size.ecParity);
  const set = (value: Partial<typeof size>) => patch("size", value);
  return (
    <div>
      <h2 className="text-lg font-bold mb-1">{t("wizard.steps.tenantSize")}</h2>
      <p className="text-sm text-base-content/70 mb-4">{t("wizard.size.intro")}</p>
      <div className="grid md:grid-cols-2 gap-x-6">
        <div>
          <TextField
            label={t("wizard.word.numberOfServers")}
            type="number"
            value={size.nodes}
            onChange={(nodes) => set({ nodes })}
            error={computed.errors.nodes}
          />
          <TextField
            label={t("wizard.word.drivesPerServer")}
            type="number"
            value={size.drivesPerServer}
            onChange={(drivesPerServer) => set({ drivesPerServer })}
            error={computed.errors.drivesPerServer}
          />
          <NumberWithUnit
            label={t("wizard.size.totalSize")}
            value={size.volumeSize}
            onChange={(volumeSize) => set({ volumeSize })}
            unit={size.sizeFactor}
            units={SIZE_UNITS.map((u) => ({ value: u, label: u }))}
            onUnitChange={(sizeFactor) => set({ sizeFactor })}
            error={computed.errors.volumeSize}
          />
          {state.advanced
            ? (
              <TextField
                label={t("wizard.size.memoryPerNodeGi")}
                type="number"
                value={size.memoryNode}
                onChange={(memoryNode) => set({ memoryNode })}
                error={computed.errors.memoryNode ?? (computed.memory.error || undefined)}
              />
            )
            : computed.memory.error
            ? <p className="text-error text-sm mb-3" role="alert">{computed.memory.error}</p>
            : null}
          <SelectField
            label={t("wizard.size.erasureCodeParity")}
            value={size.ecParity}
            options={[
              // An empty choice while none is chosen, so the list never shows a parity the state does not hold.
              ...(size.ecParity ? [] : [{
                value: "",
                label: facts.parityError
                  ? t("wizard.size.noParityFits")
                  : facts.parityChoices.length
                  ? t("wizard.size.selectParity")
                  : t("wizard.size.loadingParity"),
              }]),
              ...facts.parityChoices.map((ec) => ({ value: ec, label: ec })),
            ]}
            onChange={(ecParity) => set({ ecParity })}
            disabled={facts.parityChoices.length === 0}
          />
          {facts.parityError
            ? <p className="text-error text-sm mb-3" role="alert">{facts.parityError}</p>
            : null}
          {computed.distribution.error
            ? (
              <p className="text-error text-sm mb-3" role="alert" data-testid="distribution-error">
                {computed.distribution.error}
              </p>
            )
            : null}
        </div>
        <div>
          <Section title={t("wizard.size.resourceAllocation")}>
            <table className="table table-sm" data-testid="size-summary">
              <tbody>
                <tr>
                  <th>{t("wizard.word.numberOfServers")}</th>
                  <td>{computed.distribution.nodes || "-"}</td>
                </tr>
                <tr>
                  <th>{t("wizard.word.drivesPerServer")}</th>
                  <td>{computed.distribution.disks || "-"}</td>
                </tr>
                <tr>
                  <th>{t("wizard.word.driveCapacity")}</th>
                  <td>{computed.distribution.pvSize ? sizeText(computed.distribution.pvSize) : "-"}</td>
                </tr>
                <tr>
                  <th>{t("wizard.size.totalVolumes")}</th>
                  <td>{computed.distribution.persistentVolumes || "-"}</td>
                </tr>
                {state.advanced
                  ? (
                    <tr>
                      <th>{t("wizard.word.memoryPerNode")}</th>
                      <td>
                        {computed.memory.request
                          ? t("wizard.word.memoryWithLimit", {
                            request: sizeText(computed.memory.request),
                            limit: sizeText(computed.memory.limit),
                          })
                          : "-"}
                      </td>
                    </tr>
                  )
                  : null}
              </tbody>
            </table>
          </Section>
          <Section title={t("wizard.size.erasureCodeConfiguration")}>
            <table className="table table-sm" data-testid="capacity-summary">
              <tbody>
                <tr>
                  <th>{t("wizard.word.ecParity")}</th>
                  <td>{size.ecParity || "-"}</td>
                </tr>
                <tr>
                  <th>{t("wizard.word.rawCapacity")}</th>
                  <td>{computed.ec.rawCapacity ? sizeText(computed.ec.rawCapacity) : "-"}</td>
                </tr>
                <tr>
                  <th>{t("wizard.word.usableCapacity")}</th>
                  <td>{chosen ? sizeText(chosen.maxCapacity) : "-"}</td>
                </tr>
                <tr>
                  <th>{t("wizard.size.failuresTolerated")}</th>
                  <td>{chosen ? chosen.maxFailureTolerations : "-"}</td>
                </tr>
              </tbody>
            </table>
          </Section>
        </div>
      </div>
    </div>
  );
}
