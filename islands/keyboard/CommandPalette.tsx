/**
 * The command palette (Ctrl+K / ⌘K): type to find a section, bucket, user, group or policy, or one of the
 * main actions, and press Enter. ↑ ↓ move through the results, Escape closes, Backspace in an empty field
 * goes back from the upload's "which bucket" step. A combobox over a list box, for assistive technology.
 */
import { type KeyboardEvent, useEffect, useId, useRef, useState } from "react";
import { Dialog } from "../ui/Dialog.tsx";
import { readNav } from "./keymap.ts";
import {
  actionGrants,
  actionItems,
  kindLabel,
  loadItems,
  pageItems,
  type PaletteItem,
  rankItems,
  uploadTargets,
} from "./palette_items.ts";
import { t } from "../lib/i18n/t.ts";

type Step = "all" | "upload";

export function CommandPalette({ open, takeTyped, onClose, onHelp }: {
  open: boolean;
  /** What was typed before the palette could open (its script was loading): its first query. */
  takeTyped: () => string;
  onClose: () => void;
  onHelp: () => void;
}) {
  const id = useId();
  const field = useRef<HTMLInputElement>(null);
  const [step, setStep] = useState<Step>("all");
  const [query, setQuery] = useState("");
  const [active, setActive] = useState(0);
  const { items, notes, loading } = usePaletteItems(
    open,
    step,
    () => (setStep("upload"), setQuery("")),
    onHelp,
  );
  const results = rankItems(items, query);
  const current = results[Math.min(active, results.length - 1)];
  useEffect(() => setActive(0), [query, step]);
  useEffect(() => {
    // The dialog opens in its own effect, which runs first: the field can take focus now.
    if (open) (field.current?.focus(), setQuery(takeTyped()));
    else (setStep("all"), setQuery(""));
  }, [open]);

  const run = (item: PaletteItem | undefined) => {
    if (!item) return;
    // The upload step keeps the palette open; everything else leaves it.
    if (item.key !== "upload") onClose();
    item.run();
  };
  function onKeyDown(e: KeyboardEvent<HTMLInputElement>) {
    const move = (by: number) => {
      e.preventDefault();
      if (results.length) {
        setActive((i) => (Math.min(i, results.length - 1) + by + results.length) % results.length);
      }
    };
    if (e.key === "ArrowDown") move(1);
    else if (e.key === "ArrowUp") move(-1);
    else if (e.key === "Enter") (e.preventDefault(), run(current));
    else if (e.key === "Backspace" && query === "" && step === "upload") (e.preventDefault(), setStep("all"));
  }
  const optionId = (i: number) => `${id}-option-${i}`;
  const search = step === "upload" ? t("common.palette.uploadSearch") : t("common.palette.search");
  return (
    <Dialog
      title={step === "upload" ? t("common.palette.uploadTitle") : t("common.palette.title")}
      open={open}
      onClose={onClose}
      wide
    >
      <input
        type="text"
        role="combobox"
        aria-expanded="true"
        aria-controls={`${id}-list`}
        aria-autocomplete="list"
        aria-activedescendant={current ? optionId(results.indexOf(current)) : undefined}
        aria-label={search}
        placeholder={search}
        className="input w-full border-base-300 mb-2"
        ref={field}
        autoComplete="off"
        spellCheck={false}
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        onKeyDown={onKeyDown}
      />
      <ul
        id={`${id}-list`}
        role="listbox"
        aria-label={t("common.palette.results")}
        className="max-h-96 overflow-y-auto"
        data-testid="palette-results"
      >
        {results.map((item, i) => (
          <li
            key={item.key}
            id={optionId(i)}
            role="option"
            aria-selected={item === current}
            className={`flex items-center justify-between gap-3 px-3 py-2 rounded cursor-pointer ${
              item === current ? "bg-primary text-primary-content" : ""
            }`}
            onMouseMove={() => setActive(i)}
            onClick={() => run(item)}
          >
            <span className="wrap-anywhere min-w-0">{item.label}</span>
            <span className="text-xs shrink-0">{kindLabel(item.kind)}</span>
          </li>
        ))}
      </ul>
      <div className="text-xs text-base-content/70 mt-2" role="status">
        {loading ? <p>{t("common.word.loading")}</p> : null}
        {!loading && results.length === 0
          ? (
            <p>
              {step === "upload" && query === "" ? t("common.palette.noBuckets") : t("common.palette.none")}
            </p>
          )
          : null}
        {notes.map((note) => <p key={note} className="text-error">{note}</p>)}
        <p>{step === "upload" ? t("common.palette.hintUpload") : t("common.palette.hint")}</p>
      </div>
    </Dialog>
  );
}

/** The palette's items for its step, read from the API each time it opens (so they are never stale). */
function usePaletteItems(open: boolean, step: Step, chooseBucket: () => void, onHelp: () => void) {
  const [items, setItems] = useState<PaletteItem[]>([]);
  const [notes, setNotes] = useState<string[]>([]);
  const [loading, setLoading] = useState(false);
  useEffect(() => {
    if (!open) return;
    let live = true;
    const nav = readNav();
    const add = (more: PaletteItem[]) => live && setItems((list) => [...list, ...more]);
    const note = (text: string) => live && setNotes((list) => [...list, text]);
    setNotes([]);
    setLoading(true);
    let work: Promise<unknown>;
    if (step === "upload") {
      setItems([]);
      work = uploadTargets().then(add, (error) => note(String(error?.message ?? error)));
    } else {
      setItems(pageItems(nav));
      work = Promise.all([
        actionGrants(nav).catch(() => ({ createBucket: false, createUser: false })).then((grants) =>
          add(actionItems(nav, grants, chooseBucket, onHelp))
        ),
        loadItems(nav, add, note),
      ]);
    }
    work.finally(() => live && setLoading(false));
    return () => void (live = false);
  }, [open, step]);
  return { items, notes, loading };
}
