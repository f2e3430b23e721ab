/**
 * /license (spec 3 §2.5): the licence in force and the plans. With a subscription: Commercial License with
 * its organisation, registered capacity, expiry, plan and requester, a verified badge, Login to SUBNET and
 * (operator mode) Refresh Licence. Without: the GNU AGPL v3 card whose full text opens in a modal, and why
 * one would choose either licence. Then the plan comparison with the current plan highlighted. Rendered
 * with its data; the modal is a native popover, so console mode ships no script at all.
 */
import { type Context, Hono } from "hono";
import LicenseActions from "../islands/LicenseActions.tsx";
import { formatBytes, formatDate } from "../islands/lib/format.ts";
import { currentPlan, type PlanName, type SubscriptionInfo, TIB } from "../server/lib/contract/license.ts";
import type { AppDeps } from "../server/console/deps.ts";
import type { AppEnv } from "../server/console/session/env.ts";
import { Island } from "../server/console/render/island.tsx";
import { toApiError } from "../server/console/http/errors.ts";
import { accountInfo } from "../server/lib/s3/admin/info.ts";
import { isOperatorSession } from "../server/console/session/token.ts";
import { clientFor } from "../server/console/session/clients.ts";
import type { SessionData } from "../server/console/session/token.ts";
import { AGPL_V3_TEXT } from "./license/agpl_text.ts";
import { FEATURES, type FeatureValue, planButton, PLANS, withRef } from "./license/plans.ts";
import { t } from "../islands/lib/i18n/t.ts";
import { tNode } from "../islands/lib/i18n/rich.tsx";
import { PageHeader } from "./layout/Shell.tsx";
import { renderInShell } from "./page_context.tsx";

const SUBNET_URL = "https://subnet.min.io";
const COMPLIANCE_URL = "https://min.io/compliance";
const TRADEMARK_URL = "https://min.io/logo";
const SIGN_UP_URL = "https://min.io/signup";

function Field({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div>
      <dt className="text-xs uppercase tracking-wide opacity-70">{label}</dt>
      <dd className="font-bold" data-testid={testId}>{value}</dd>
    </div>
  );
}

function SubscriptionCard({ info }: { info: SubscriptionInfo }) {
  return (
    <div className="flex-1 min-w-72" data-testid="subscription">
      <div className="flex items-center gap-3 mb-4">
        <h2 className="text-xl font-bold">{t("settings.license.commercial")}</h2>
        <span className="badge badge-success gap-1" data-testid="verified-badge">
          <svg
            viewBox="0 0 24 24"
            width="14"
            height="14"
            fill="none"
            stroke="currentColor"
            strokeWidth="3"
            aria-hidden="true"
          >
            <path d="M5 12l5 5L20 7" />
          </svg>
          {t("settings.license.verified")}
        </span>
      </div>
      <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        <Field
          label={t("settings.license.organization")}
          value={info.organization}
          testId="license-organization"
        />
        <Field
          label={t("settings.license.capacity")}
          value={formatBytes(info.storage_capacity * TIB)}
          testId="license-capacity"
        />
        <Field
          label={t("settings.license.expiry")}
          value={formatDate(info.expires_at)}
          testId="license-expiry"
        />
        <Field label={t("settings.license.plan")} value={info.plan} testId="license-plan" />
        <Field label={t("settings.license.requester")} value={info.email} testId="license-requester" />
      </dl>
    </div>
  );
}

function AgplCard() {
  return (
    <div className="flex-1 min-w-72" data-testid="agpl-card">
      <div className="flex items-center gap-4">
        <div
          className="rounded-box border-2 border-current px-3 py-2 font-bold text-lg leading-none"
          aria-hidden="true"
        >
          AGPL
        </div>
        <div>
          {/* The licence's name is a name, in every language. */}
          <h2 className="text-xl font-bold" translate="no">GNU Affero General Public License</h2>
          <p className="opacity-80">{t("settings.license.version3")}</p>
        </div>
      </div>
      <button type="button" className="btn btn-sm mt-4" popoverTarget="agpl-license-text">
        {t("settings.license.readFull")}
      </button>
      <div
        id="agpl-license-text"
        popover="auto"
        role="dialog"
        aria-label={t("settings.license.textLabel")}
        className="deck-popover-modal"
      >
        <div className="flex items-center justify-between gap-4 mb-3">
          <h2 className="text-lg font-bold" translate="no">GNU AGPL v3</h2>
          <button
            type="button"
            className="btn btn-sm btn-ghost btn-square"
            popoverTarget="agpl-license-text"
            popoverTargetAction="hide"
            aria-label={t("common.action.close")}
          >
            ✕
          </button>
        </div>
        <pre
          className="whitespace-pre-wrap text-xs leading-relaxed overflow-y-auto max-h-[70vh]"
          data-testid="agpl-text"
        >{AGPL_V3_TEXT}</pre>
      </div>
    </div>
  );
}

function PlanTable({ current, operator }: { current: PlanName; operator: boolean }) {
  const highlight = (name: PlanName) => (name === current ? "bg-primary/10" : "");
  const cell = (value: FeatureValue) =>
    typeof value === "string"
      ? t(value)
      : typeof value === "object"
      ? <span translate="no">{value.name}</span>
      : value
      ? <span aria-label={t("common.word.yes")} className="text-success font-bold">✓</span>
      : <span aria-label={t("common.word.no")} className="opacity-40">—</span>;
  return (
    <div className="overflow-x-auto">
      <table className="table bg-base-100 rounded-box text-center" data-testid="plan-table">
        <caption className="sr-only">{t("settings.license.comparison")}</caption>
        <thead>
          <tr>
            <th className="text-left">{t("settings.license.feature")}</th>
            {PLANS.map((plan) => (
              <th
                key={plan.name}
                scope="col"
                className={`${highlight(plan.name)} min-w-44 text-base-content`}
                data-current={plan.name === current}
                data-testid={`plan-${plan.name}`}
              >
                <div className="text-xs uppercase tracking-wide opacity-70 h-4">
                  {plan.name === current ? t("settings.license.currentPlan") : ""}
                </div>
                <div className="text-lg">{plan.name}</div>
                <div className="font-normal">{t(plan.price)}</div>
                <div className="font-normal text-xs opacity-70 h-4">
                  {plan.capacity ? t(plan.capacity) : ""}
                </div>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {FEATURES.map((row) => (
            <tr key={row.feature}>
              <th scope="row" className="text-left font-normal">{t(row.feature)}</th>
              {row.values.map((value, i) => (
                <td key={PLANS[i].name} className={highlight(PLANS[i].name)}>{cell(value)}</td>
              ))}
            </tr>
          ))}
          <tr>
            <td />
            {PLANS.map((plan) => {
              const button = planButton(plan, current);
              return (
                <td key={plan.name} className={highlight(plan.name)}>
                  {button.disabled
                    ? <button type="button" className="btn btn-sm" disabled>{t(button.label)}</button>
                    : (
                      <a
                        className="btn btn-sm btn-primary"
                        href={withRef(plan.link, operator)}
                        target="_blank"
                        rel="noopener noreferrer"
                      >
                        {t(button.label)}
                      </a>
                    )}
                </td>
              );
            })}
          </tr>
        </tbody>
      </table>
    </div>
  );
}

/**
 * The page shows no storage data, but a session the storage server refuses (revoked, user disabled) must
 * still go to sign-in like every page: one account-info call asks. Operator sessions are Kubernetes'.
 */
async function refusedSession(deps: AppDeps, session: SessionData): Promise<unknown> {
  if (session.k8sToken) return undefined;
  try {
    await accountInfo(clientFor(deps, session));
    return undefined;
  } catch (error) {
    return toApiError(error).status === 401 ? error : undefined;
  }
}

export function licensePages(deps: AppDeps) {
  const page = async (c: Context<AppEnv>) => {
    const session = c.get("session")!;
    const operator = isOperatorSession(session);
    const [{ info, problem }, refused] = await Promise.all([
      deps.license.read(),
      refusedSession(deps, session),
    ]);
    const ref = (url: string) => withRef(url, operator);
    return renderInShell(deps, c, {
      title: t("settings.license.title"),
      error: refused,
      body: (
        <>
          <PageHeader title={t("settings.license.title")} />
          {problem
            ? (
              <div role="alert" className="alert alert-warning mb-4" data-testid="license-problem">
                {problem}
              </div>
            )
            : null}
          <section className="card bg-base-100 shadow-sm mb-6">
            <div className="card-body flex-row flex-wrap gap-8">
              {info ? <SubscriptionCard info={info} /> : <AgplCard />}
              <div className="flex-1 min-w-72 flex flex-col gap-3 text-sm">
                {info
                  ? (
                    <a
                      className="btn btn-primary btn-sm self-start"
                      href={ref(SUBNET_URL)}
                      target="_blank"
                      rel="noopener noreferrer"
                    >
                      {t("settings.license.loginSubnet")}
                    </a>
                  )
                  : (
                    <>
                      <p>{t("settings.license.agplTerms")}</p>
                      <p>
                        {tNode("settings.license.commercialTerms", {
                          compliance: (
                            <a
                              className="link"
                              href={ref(COMPLIANCE_URL)}
                              target="_blank"
                              rel="noopener noreferrer"
                            >
                              {t("settings.license.compliance")}
                            </a>
                          ),
                          trademark: (
                            <a
                              className="link"
                              href={ref(TRADEMARK_URL)}
                              target="_blank"
                              rel="noopener noreferrer"
                            >
                              {t("settings.license.trademark")}
                            </a>
                          ),
                        })}
                      </p>
                    </>
                  )}
                {operator
                  ? (
                    <Island
                      name="LicenseActions"
                      component={LicenseActions}
                      props={{ hasLicense: !!info, signUpUrl: ref(SIGN_UP_URL) }}
                    />
                  )
                  : null}
              </div>
            </div>
          </section>
          <h2 className="text-lg font-bold mb-3">{t("settings.license.plans")}</h2>
          <PlanTable current={currentPlan(info)} operator={operator} />
        </>
      ),
    });
  };
  return new Hono<AppEnv>().get("/license", page);
}
