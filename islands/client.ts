/**
 * The only script a page loads, and only when it has islands: finds each server-rendered island marker,
 * loads that island's chunk and hydrates it with the props the server rendered it with.
 */
import { createElement, type FunctionComponent } from "react";
import { hydrateRoot } from "react-dom/client";
import { islands } from "./registry.ts";

type Loader = () => Promise<{ default: unknown }>;

for (const marker of document.querySelectorAll<HTMLElement>("[data-island]")) {
  const name = marker.dataset.island ?? "";
  const load = (islands as Record<string, Loader>)[name];
  const propsScript = marker.nextElementSibling;
  if (!load || !(propsScript instanceof HTMLScriptElement) || propsScript.type !== "application/json") {
    console.error(`island ${name}: not registered or props missing`);
    continue;
  }
  const props = JSON.parse(propsScript.textContent ?? "{}");
  load().then((module) => {
    hydrateRoot(marker, createElement(module.default as FunctionComponent, props));
    // From here React has its listeners on the marker (events before hydration finishes are replayed), so
    // tests and scripts can wait for this attribute instead of guessing when the page became interactive.
    marker.dataset.hydrated = "";
  });
}
