/** The plan comparison of the License page (spec 3 §2.5, §9): the three plans, their prices and their rows. */
import type { PlanName } from "../../server/lib/contract/license.ts";

export interface Plan {
  name: PlanName;
  price: string;
  capacity: string;
  /** Join Slack for Community, Subscribe (or Upgrade from a lower plan) for the others. */
  link: string;
}

export const PLANS: Plan[] = [
  { name: "Community", price: "Open Source", capacity: "", link: "https://slack.min.io" },
  { name: "Standard", price: "$10 per TB per month", capacity: "Up to 10PB", link: "https://min.io/pricing" },
  {
    name: "Enterprise",
    price: "$20 per TB per month",
    capacity: "Up to 5PB",
    link: "https://min.io/pricing",
  },
];

/** One feature row: the value per plan, in PLANS order; true/false draw a check or a dash. */
export interface FeatureRow {
  feature: string;
  values: [string | boolean, string | boolean, string | boolean];
}

export const FEATURES: FeatureRow[] = [
  { feature: "License", values: ["GNU AGPL v3", "Commercial License", "Commercial License"] },
  {
    feature: "Software Release",
    values: ["Latest", "1 Year Long Term Support", "5 Years Long Term Support"],
  },
  { feature: "SLA", values: ["No SLA", "< 24 Hours", "< 1 Hour"] },
  {
    feature: "Support",
    values: ["Community Slack", "SUBNET, direct to engineers", "SUBNET, direct to engineers"],
  },
  { feature: "Update Guidance", values: [false, true, true] },
  { feature: "Panic Button", values: [false, "1 per year", "Unlimited"] },
  { feature: "Annual Architecture Review", values: [false, true, true] },
  { feature: "Annual Performance Review", values: [false, true, true] },
  { feature: "Indemnification", values: [false, false, true] },
  { feature: "Security and Policy Review", values: [false, false, true] },
];

/** The button of a plan's column for the current plan (spec 3 §2.5). */
export function planButton(plan: Plan, current: PlanName): { label: string; disabled: boolean } {
  // The community channel stays open to everyone; "disabled on the current plan" applies to buying one.
  if (plan.name === "Community") return { label: "Join Slack", disabled: false };
  const order: PlanName[] = ["Community", "Standard", "Enterprise"];
  const label = order.indexOf(plan.name) > order.indexOf(current) && current !== "Community"
    ? "Upgrade"
    : "Subscribe";
  return { label, disabled: plan.name === current };
}

/** External links carry ref=op in operator mode and ref=con otherwise. */
export const withRef = (url: string, operator: boolean) =>
  `${url}${url.includes("?") ? "&" : "?"}ref=${operator ? "op" : "con"}`;
