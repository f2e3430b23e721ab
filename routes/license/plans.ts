/**
 * The plan comparison of the License page (spec 3 §2.5, §9): the three plans, their prices and their rows.
 * Texts are message keys of the settings catalogue, looked up in the request's language when the page is
 * drawn; the plans' names are product names and stay as they are.
 */
import type { PlanName } from "../../server/lib/contract/license.ts";
import type { MessageKey } from "../../islands/lib/i18n/t.ts";

export interface Plan {
  name: PlanName;
  price: MessageKey;
  capacity?: MessageKey;
  /** Join Slack for Community, Subscribe (or Upgrade from a lower plan) for the others. */
  link: string;
}

export const PLANS: Plan[] = [
  { name: "Community", price: "settings.license.priceOpenSource", link: "https://slack.min.io" },
  {
    name: "Standard",
    price: "settings.license.priceStandard",
    capacity: "settings.license.capacityStandard",
    link: "https://min.io/pricing",
  },
  {
    name: "Enterprise",
    price: "settings.license.priceEnterprise",
    capacity: "settings.license.capacityEnterprise",
    link: "https://min.io/pricing",
  },
];

/** A cell: a message key, a name shown as it is (`{ name }`), or true/false drawn as a check or a dash. */
export type FeatureValue = MessageKey | { name: string } | boolean;

/** One feature row: the value per plan, in PLANS order. */
export interface FeatureRow {
  feature: MessageKey;
  values: [FeatureValue, FeatureValue, FeatureValue];
}

export const FEATURES: FeatureRow[] = [
  {
    feature: "settings.license.featureLicense",
    values: [{ name: "GNU AGPL v3" }, "settings.license.commercial", "settings.license.commercial"],
  },
  {
    feature: "settings.license.featureRelease",
    values: [
      "settings.license.releaseLatest",
      "settings.license.releaseOneYear",
      "settings.license.releaseFiveYears",
    ],
  },
  {
    feature: "settings.license.featureSla",
    values: ["settings.license.slaNone", "settings.license.sla24Hours", "settings.license.sla1Hour"],
  },
  {
    feature: "settings.license.featureSupport",
    values: [
      "settings.license.supportCommunity",
      "settings.license.supportSubnet",
      "settings.license.supportSubnet",
    ],
  },
  { feature: "settings.license.featureUpdateGuidance", values: [false, true, true] },
  {
    feature: "settings.license.featurePanicButton",
    values: [false, "settings.license.panicOnePerYear", "settings.license.panicUnlimited"],
  },
  { feature: "settings.license.featureArchitectureReview", values: [false, true, true] },
  { feature: "settings.license.featurePerformanceReview", values: [false, true, true] },
  { feature: "settings.license.featureIndemnification", values: [false, false, true] },
  { feature: "settings.license.featureSecurityReview", values: [false, false, true] },
];

/** The button of a plan's column for the current plan (spec 3 §2.5): its label's message key. */
export function planButton(plan: Plan, current: PlanName): { label: MessageKey; disabled: boolean } {
  // The community channel stays open to everyone; "disabled on the current plan" applies to buying one.
  if (plan.name === "Community") return { label: "settings.license.joinSlack", disabled: false };
  const order: PlanName[] = ["Community", "Standard", "Enterprise"];
  const label = order.indexOf(plan.name) > order.indexOf(current) && current !== "Community"
    ? "settings.license.upgrade"
    : "settings.license.subscribe";
  return { label, disabled: plan.name === current };
}

/** External links carry ref=op in operator mode and ref=con otherwise. */
export const withRef = (url: string, operator: boolean) =>
  `${url}${url.includes("?") ? "&" : "?"}ref=${operator ? "op" : "con"}`;
