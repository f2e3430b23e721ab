/**
 * The command palette and the shortcuts help, loaded by the shortcut listener on first use (never in a page's
 * first bundle) and rendered in a root of their own beside the page's islands.
 */
import { useState } from "react";
import { createRoot } from "react-dom/client";
import { CommandPalette } from "./CommandPalette.tsx";
import { ShortcutsHelp } from "./ShortcutsHelp.tsx";

type Shown = "palette" | "help" | null;

type TakeTyped = () => string;
const NOTHING_TYPED: TakeTyped = () => "";

let show: ((what: Shown, takeTyped: TakeTyped) => void) | null = null;

function Overlays({ first, takeTyped: firstTake }: { first: Shown; takeTyped: TakeTyped }) {
  const [shown, setShown] = useState<Shown>(first);
  const [takeTyped, setTakeTyped] = useState(() => firstTake);
  show = (what, take) => (setShown(what), setTakeTyped(() => take));
  const close = () => setShown(null);
  return (
    <>
      <CommandPalette
        open={shown === "palette"}
        takeTyped={takeTyped}
        onClose={close}
        onHelp={() => setShown("help")}
      />
      <ShortcutsHelp open={shown === "help"} onClose={close} />
    </>
  );
}

function open(what: Shown, takeTyped: TakeTyped): void {
  if (show) return show(what, takeTyped);
  const host = document.createElement("div");
  host.dataset.overlays = "";
  document.body.append(host);
  createRoot(host).render(<Overlays first={what} takeTyped={takeTyped} />);
}

/** Opens the palette; `takeTyped` gives what the user typed while it loaded, once its field has focus. */
export const openPalette = (takeTyped: TakeTyped = NOTHING_TYPED) => open("palette", takeTyped);
export const openHelp = () => open("help", NOTHING_TYPED);
