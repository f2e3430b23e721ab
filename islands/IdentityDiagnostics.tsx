/**
 * Settings › Identity: runs the identity checks on demand (POST /api/v1/identity/diagnostics) and shows each
 * step passed or failed with its message, for the directory (identity_ldap) and the OpenID provider. A test
 * user name, when given, is looked up in the directory with its groups and mapped policies (no password).
 */
import { useState } from "react";
import type { DiagnosticsSection, IdentityDiagnostics as Report } from "../server/lib/contract/identity.ts";
import { ErrorBanner } from "./ui/ErrorBanner.tsx";
import { api, ApiClientError } from "./lib/request.ts";
import { t } from "./lib/i18n/t.ts";
import { tNode } from "./lib/i18n/rich.tsx";

function Section({ title, section, none }: { title: string; section: DiagnosticsSection; none: string }) {
  return (
    <section className="flex flex-col gap-2" aria-label={title}>
      <h2 className="text-lg font-bold">{title}</h2>
      {!section.configured
        ? <p className="text-sm text-base-content/70">{none}</p>
        : (
          <ol className="flex flex-col gap-2">
            {section.steps.map((step, i) => (
              <li
                key={i}
                className="flex items-start gap-3 rounded-box border border-base-300 p-3"
                data-testid="diagnostic-step"
                data-passed={step.passed ? "true" : "false"}
              >
                <span className={`badge shrink-0 ${step.passed ? "badge-success" : "badge-error"}`}>
                  {step.passed ? t("settings.identity.passed") : t("settings.identity.failed")}
                </span>
                <span className="flex flex-col min-w-0">
                  <span className="font-bold">{step.name}</span>
                  <span className="text-sm break-words">{step.message}</span>
                </span>
              </li>
            ))}
          </ol>
        )}
    </section>
  );
}

export default function IdentityDiagnostics() {
  const [testUser, setTestUser] = useState("");
  const [running, setRunning] = useState(false);
  const [report, setReport] = useState<Report | null>(null);
  const [error, setError] = useState<ApiClientError | null>(null);

  async function run(event: React.FormEvent) {
    event.preventDefault();
    setRunning(true);
    setError(null);
    try {
      setReport(await api.post<Report>("/api/v1/identity/diagnostics", { testUser }));
    } catch (e) {
      setError(
        e instanceof ApiClientError
          ? e
          : new ApiClientError(0, t("settings.identity.unreachable"), String(e)),
      );
    } finally {
      setRunning(false);
    }
  }

  return (
    <div className="card bg-base-100 shadow-sm max-w-3xl">
      <div className="card-body gap-4">
        <p className="text-sm text-base-content/80">
          {tNode("settings.identity.intro", { ad: <span translate="no">Active Directory</span> })}
        </p>
        {error
          ? <ErrorBanner message={error.message} detail={error.detail} onClose={() => setError(null)} />
          : null}
        <form className="flex flex-wrap items-end gap-3" onSubmit={run}>
          <label className="flex flex-col gap-1 grow">
            <span className="text-sm font-bold">{t("settings.identity.testUser")}</span>
            <input
              className="input w-full border-base-300"
              name="testUser"
              placeholder={t("settings.identity.testUserPlaceholder")}
              value={testUser}
              onChange={(e) => setTestUser(e.target.value)}
            />
          </label>
          <button className="btn btn-primary" type="submit" disabled={running}>
            {running ? <span className="loading loading-spinner loading-sm" /> : null}
            {t("settings.identity.run")}
          </button>
        </form>
        {report
          ? (
            <div className="flex flex-col gap-6" role="status">
              <Section
                title={t("settings.identity.directory")}
                section={report.ldap}
                none={t("settings.identity.noDirectory")}
              />
              <Section
                title={t("settings.identity.openid")}
                section={report.openid}
                none={t("settings.identity.noOpenid")}
              />
            </div>
          )
          : null}
      </div>
    </div>
  );
}
