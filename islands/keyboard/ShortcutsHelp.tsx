/** The keyboard shortcuts help (`?`): every shortcut, and `g` then a letter for each section this session has. */
import { Dialog } from "../ui/Dialog.tsx";
import { GO_KEYS, readNav } from "./keymap.ts";

const isMac = typeof navigator !== "undefined" && /Mac|iPhone|iPad/.test(navigator.platform);

const TEXT = {
  title: "Keyboard shortcuts",
  general: "Anywhere",
  go: "Go to",
  tables: "In a table",
  then: "then",
  note: "No shortcut takes a key while you type in a field or a dialog is open.",
  close: "Close",
};

const GENERAL: [keys: string[], what: string][] = [
  [[isMac ? "⌘" : "Ctrl", "K"], "Open the command palette"],
  [["?"], "Show this help"],
  [["/"], "Search or filter this page"],
  [["↓"], "Move into the page's table"],
  [["Esc"], "Close a dialog"],
];

const TABLES: [keys: string[], what: string][] = [
  [["↑", "↓"], "Previous or next row (Home, End: first or last)"],
  [["Enter"], "Open the row"],
  [["Space"], "Tick the row"],
  [["Delete"], "Ask to delete the ticked rows, or this row"],
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
      ? [[<Keys key={letter} keys={["g", letter]} joiner={TEXT.then} />, entry.label] as const]
      : [];
  });
  return (
    <Dialog
      title={TEXT.title}
      open={open}
      onClose={onClose}
      wide
      actions={<button type="button" className="btn" onClick={onClose}>{TEXT.close}</button>}
    >
      <div className="grid md:grid-cols-2 gap-x-6">
        <div>
          <Section
            title={TEXT.general}
            rows={GENERAL.map(([keys, what]) => [<Keys key={what} keys={keys} />, what])}
          />
          <Section
            title={TEXT.tables}
            rows={TABLES.map(([keys, what]) => [<Keys key={what} keys={keys} joiner="" />, what])}
          />
        </div>
        {go.length ? <Section title={TEXT.go} rows={go.map(([keys, what]) => [keys, what])} /> : null}
      </div>
      <p className="text-sm text-base-content/70">{TEXT.note}</p>
    </Dialog>
  );
}
