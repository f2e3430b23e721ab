/** The keyboard shortcuts help (`?`): every shortcut, and `g` then a letter for each section this session has. */
import { Dialog } from "../ui/Dialog.tsx";
import { GO_KEYS, readNav } from "./keymap.ts";
import { type MessageKey, t } from "../lib/i18n/t.ts";

const isMac = typeof navigator !== "undefined" && /Mac|iPhone|iPad/.test(navigator.platform);

const GENERAL: [keys: string[], what: MessageKey][] = [
  [[isMac ? "⌘" : "Ctrl", "K"], "common.shortcuts.palette"],
  [["?"], "common.shortcuts.help"],
  [["/"], "common.shortcuts.search"],
  [["↓"], "common.shortcuts.intoTable"],
  [["Esc"], "common.shortcuts.closeDialog"],
];

const TABLES: [keys: string[], what: MessageKey][] = [
  [["↑", "↓"], "common.shortcuts.rows"],
  [["Enter"], "common.shortcuts.openRow"],
  [["Space"], "common.shortcuts.tickRow"],
  [["Delete"], "common.shortcuts.deleteRows"],
];

function Keys({ keys, joiner = "+" }: { keys: string[]; joiner?: string }) {
  return (
    <span className="inline-flex items-center gap-1 shrink-0">
      {keys.map((key, i) => (
        <span key={i} className="inline-flex items-center gap-1">
          {i > 0 ? <span className="text-xs">{joiner}</span> : null}
          <kbd className="kbd kbd-sm">{key}</kbd>
        </span>
      ))}
    </span>
  );
}

function Section({ title, rows }: { title: string; rows: [keys: React.ReactNode, what: string][] }) {
  return (
    <section className="mb-4">
      <h3 className="font-bold text-sm mb-2">{title}</h3>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm items-center">
        {rows.map(([keys, what]) => (
          <div key={what} className="contents">
            <dt>{keys}</dt>
            <dd>{what}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

export function ShortcutsHelp({ open, onClose }: { open: boolean; onClose: () => void }) {
  const nav = readNav();
  const go = Object.entries(GO_KEYS).flatMap(([letter, route]) => {
    const entry = nav.entries.find((e) => e.route === route);
    return entry
      ? [
        [
          <Keys key={letter} keys={["g", letter]} joiner={t("common.shortcuts.then")} />,
          entry.label,
        ] as const,
      ]
      : [];
  });
  return (
    <Dialog
      title={t("common.shortcuts.title")}
      open={open}
      onClose={onClose}
      wide
      actions={<button type="button" className="btn" onClick={onClose}>{t("common.action.close")}</button>}
    >
      <div className="grid md:grid-cols-2 gap-x-6">
        <div>
          <Section
            title={t("common.shortcuts.general")}
            rows={GENERAL.map(([keys, what]) => [<Keys key={what} keys={keys} />, t(what)])}
          />
          <Section
            title={t("common.shortcuts.tables")}
            rows={TABLES.map(([keys, what]) => [<Keys key={what} keys={keys} joiner="" />, t(what)])}
          />
        </div>
        {go.length
          ? <Section title={t("common.shortcuts.go")} rows={go.map(([keys, what]) => [keys, what])} />
          : null}
      </div>
      <p className="text-sm text-base-content/70">{t("common.shortcuts.note")}</p>
    </Dialog>
  );
}
