/**
 * The only script a page loads, and only when it has islands: finds each server-rendered island marker,
 * loads that island's chunk and hydrates it with the props the server rendered it with.
 */
import { createElement, type FunctionComponent, type ReactNode, useEffect } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import { mountNotificationsWith } from "./lib/notifications_mount.ts";
import { islands } from "./registry.ts";

type Loader = () => Promise<{ default: unknown }>;

/**
 * Marks the island hydrated once React has committed it: hydrateRoot returns before hydration is done, and
 * a parent's effect runs after its children's, so by then the island's own effects have run too. Tests and
 * scripts wait for this attribute instead of guessing when the page became interactive. Renders no element,
 * so the tree matches what the server rendered.
 */
function MarkHydrated({ marker, children }: { marker: HTMLElement; children?: ReactNode }) {
  useEffect(() => void (marker.dataset.hydrated = ""), []);
  return children;
}

// The messages' UI loads the first time one is shown; most pages never show one.
mountNotificationsWith(async () => {
  const { Notifications } = await import("./ui/Notifications.tsx");
  const host = document.createElement("div");
  host.id = "deck-notifications";
  document.body.append(host);
  createRoot(host).render(createElement(Notifications));
});

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
    hydrateRoot(
      marker,
      createElement(MarkHydrated, { marker }, createElement(module.default as FunctionComponent, props)),
    );
  });
}
