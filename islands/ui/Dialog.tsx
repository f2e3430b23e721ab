/**
 * The one dialog (spec 1 "Generic dialog"): title, close button, a message bar and a buttons row, usually
 * Cancel and the dialog's primary action (`primary`). The message bar shows the detailed message when it has
 * at least 5 characters, else the message, and hides itself after 10 s for errors and 5 s otherwise (spec 1
 * §8). Dialogs report errors here rather than in the page banner.
 *
 * Keyboard: the content is a form, so Enter in a field presses the dialog's submit button (its primary action,
 * `type="submit"`), or, in a dialog without one, its primary button; Escape closes; focus goes back to what
 * opened the dialog when it closes.
 */
import { type KeyboardEvent, type ReactNode, useEffect, useRef, useState } from "react";
import { ApiClientError } from "../lib/request.ts";
import { currentLocale, t } from "../lib/i18n/t.ts";

export interface DialogMessage {
  message: string;
  detail?: string;
  type: "error" | "success" | "info";
}

/**
 * The text the message bar shows for a message (spec 1 §8 rule): the detailed message when it has at least 5
 * characters, else the message. In another language than English the message (the console's, translated) leads,
 * as the detail is often the storage server's own English text.
 */
export const messageBarText = (m: DialogMessage) =>
  m.detail && m.detail.length >= 5
    ? currentLocale() === "en"
      ? m.detail
      : t("common.dialog.messageWithDetail", { message: m.message, detail: m.detail })
    : m.message;

export function MessageBar({ message, onDone }: { message: DialogMessage | null; onDone: () => void }) {
  useEffect(() => {
    if (!message) return;
    const timer = setTimeout(onDone, message.type === "error" ? 10_000 : 5_000);
    return () => clearTimeout(timer);
  }, [message]);
  if (!message) return null;
  const tone = message.type === "error"
    ? "alert-error"
    : message.type === "success"
    ? "alert-success"
    : "alert-info";
  return (
    <div
      role="alert"
      className={`alert ${tone} text-sm py-2 mb-3 whitespace-pre-wrap break-words`}
      data-testid="dialog-message"
    >
      {messageBarText(message)}
    </div>
  );
}

/** Turns anything thrown by an API call into a dialog message. */
export function errorMessage(error: unknown): DialogMessage {
  if (error instanceof ApiClientError) return { message: error.message, detail: error.detail, type: "error" };
  return { message: error instanceof Error ? error.message : String(error), type: "error" };
}

/**
 * The action a dialog exists for (Save, Create, Delete, Format...), shown after a Cancel button that closes the
 * dialog: most dialogs end with this pair, and passing it as `primary` keeps every copy of it alike.
 */
export interface DialogPrimaryAction {
  label: string;
  onClick: () => void;
  /** For example while the form is incomplete, or while the action runs (when no spinner is wanted). */
  disabled?: boolean;
  /** The action is running: the button is disabled and shows a spinner before its label. */
  busy?: boolean;
  /** "error" for actions that destroy something (delete, format); default "primary". */
  tone?: "primary" | "error";
  /**
   * A submit button: Enter in a field presses it through the form's own implicit submission. Without it, Enter
   * still reaches it, by its tone's class (see pressPrimaryOnEnter).
   */
  submit?: boolean;
}

interface DialogBase {
  title: string;
  open: boolean;
  onClose: () => void;
  children: ReactNode;
  message?: DialogMessage | null;
  onMessageDone?: () => void;
  /** Wider than the usual form: true for one wide column, "full" for two side by side (the policy builder). */
  wide?: boolean | "full";
}

/**
 * The usual buttons row at the bottom: Cancel (closes the dialog, as ✕ does), then the primary action; or the
 * primary action alone (`cancel={false}`), where the screen shows only it (most settings dialogs: Save).
 */
interface CancelAndPrimaryRow {
  primary: DialogPrimaryAction;
  /** Whether the row starts with Cancel (default true). */
  cancel?: boolean;
  /** Cancel cannot be pressed either, e.g. while an action runs that the dialog must see finish. */
  cancelDisabled?: boolean;
  actions?: never;
}

/** Any other buttons row (a single Save, Clear + Save, Download + Done), or none. */
interface OtherActionsRow {
  actions?: ReactNode;
  primary?: never;
  cancel?: never;
  cancelDisabled?: never;
}

export type DialogProps = DialogBase & (CancelAndPrimaryRow | OtherActionsRow);

export function Dialog(
  {
    title,
    open,
    onClose,
    children,
    actions,
    primary,
    cancel = true,
    cancelDisabled,
    message = null,
    onMessageDone = () => {},
    wide,
  }: DialogProps,
) {
  const ref = useRef<HTMLDialogElement>(null);
  // Declared before the effect that opens the dialog, so it sees the opener still focused.
  useEffect(() => {
    if (!open) return;
    const opener = document.activeElement;
    return () => {
      if (opener instanceof HTMLElement && opener.isConnected) opener.focus();
    };
  }, [open]);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  if (!open) return null;
  return (
    <dialog ref={ref} className="modal" aria-label={title} onCancel={(e) => (e.preventDefault(), onClose())}>
      <div className={`modal-box ${wide === "full" ? "max-w-7xl" : wide ? "max-w-3xl" : "max-w-lg"}`}>
        <div className="flex items-start justify-between gap-4 mb-4">
          <h2 className="text-lg font-bold break-words" style={{ maxWidth: 765 }}>{title}</h2>
          <button
            type="button"
            className="btn btn-sm btn-ghost btn-square"
            aria-label={t("common.action.close")}
            onClick={onClose}
          >
            ✕
          </button>
        </div>
        <form
          noValidate
          onSubmit={(e) =>
            e.preventDefault()}
          onKeyDown={pressPrimaryOnEnter}
        >
          <MessageBar message={message} onDone={onMessageDone} />
          {children}
          {primary
            ? (
              <div className="modal-action">
                <CancelAndPrimary
                  primary={primary}
                  cancelDisabled={cancelDisabled}
                  onCancel={cancel ? onClose : undefined}
                />
              </div>
            )
            : actions
            ? <div className="modal-action">{actions}</div>
            : null}
        </form>
      </div>
    </dialog>
  );
}

/** The primary action, after a Cancel button when there is `onCancel`. */
function CancelAndPrimary(
  { primary, cancelDisabled, onCancel }: {
    primary: DialogPrimaryAction;
    cancelDisabled?: boolean;
    onCancel?: () => void;
  },
) {
  const { label, onClick, disabled, busy, tone, submit } = primary;
  // Whole class names, not built from the tone: the stylesheet keeps only classes it finds spelled out.
  const toneClass = tone === "error" ? "btn btn-error" : "btn btn-primary";
  return (
    <>
      {onCancel
        ? (
          <button type="button" className="btn" disabled={cancelDisabled} onClick={onCancel}>
            {t("common.action.cancel")}
          </button>
        )
        : null}
      <button
        type={submit ? "submit" : "button"}
        className={toneClass}
        disabled={disabled || busy}
        onClick={onClick}
      >
        {busy ? <span className="loading loading-spinner loading-sm" /> : null}
        {label}
      </button>
    </>
  );
}

/** Fields where Enter means "done" (not a new line, a toggle, a list to open, or a filter). */
const ENTER_SUBMITS = new Set([
  "text",
  "password",
  "email",
  "number",
  "url",
  "tel",
  "date",
  "datetime-local",
  "time",
]);

/**
 * Enter in a field presses the dialog's primary action even when that button is not a submit button (a form
 * with one submits by itself): the primary button nearest the field (a dialog with two forms in sections, as
 * Activate License), else the one in the action row. A disabled primary button means nothing happens.
 */
function pressPrimaryOnEnter(e: KeyboardEvent<HTMLFormElement>) {
  const field = e.target;
  if (e.key !== "Enter" || e.defaultPrevented || e.nativeEvent.isComposing) return;
  if (!(field instanceof HTMLInputElement) || !ENTER_SUBMITS.has(field.type)) return;
  const form = e.currentTarget;
  if (form.querySelector('button[type="submit"]')) return;
  e.preventDefault();
  const primary = ".btn-primary, .btn-error";
  for (let scope = field.parentElement; scope && form.contains(scope); scope = scope.parentElement) {
    const button = scope === form
      ? form.querySelector<HTMLButtonElement>(`.modal-action :is(${primary})`) ??
        form.querySelector<HTMLButtonElement>(`button:is(${primary})`)
      : scope.querySelector<HTMLButtonElement>(`button:is(${primary})`);
    if (button) {
      if (!button.disabled) button.click();
      return;
    }
  }
}

/** Dialog state most forms need: the message bar and a busy flag around one async action. */
export function useDialogAction() {
  const [message, setMessage] = useState<DialogMessage | null>(null);
  const [busy, setBusy] = useState(false);
  async function run(work: () => Promise<void>) {
    setBusy(true);
    setMessage(null);
    try {
      await work();
    } catch (error) {
      setMessage(errorMessage(error));
    } finally {
      setBusy(false);
    }
  }
  return { message, setMessage, busy, run, clear: () => setMessage(null) };
}

/** A yes/no confirmation built on the dialog (delete confirmations; `tone` "primary" for what destroys nothing). */
export function ConfirmDialog(
  { title, open, onClose, onConfirm, confirmLabel = t("common.action.delete"), tone = "error", children }: {
    title: string;
    open: boolean;
    onClose: () => void;
    onConfirm: () => Promise<void>;
    confirmLabel?: string;
    tone?: "primary" | "error";
    children: ReactNode;
  },
) {
  const action = useDialogAction();
  return (
    <Dialog
      title={title}
      open={open}
      onClose={onClose}
      message={action.message}
      onMessageDone={action.clear}
      primary={{
        label: confirmLabel,
        tone,
        disabled: action.busy,
        onClick: () => action.run(onConfirm),
      }}
    >
      <div>{children}</div>
    </Dialog>
  );
}
