/**
 * The one wizard: numbered steps, each with its content and an isValid flag; Next runs the step's optional
 * async `onNext` before moving on, and steps can be revisited backwards only (spec 2 §4).
 */
import { type ReactNode, useState } from "react";
import { t } from "../lib/i18n/t.ts";

export interface WizardStep {
  title: string;
  content: ReactNode;
  isValid: boolean;
  /** Runs before moving to the next step; throwing keeps the wizard on this step. */
  onNext?: () => Promise<void>;
  /** The last step's action label (default "Finish"). */
  finishLabel?: string;
}

export function Wizard(
  { steps, onFinish, busy, onCancel }: {
    steps: WizardStep[];
    onFinish: () => void;
    busy?: boolean;
    onCancel?: () => void;
  },
) {
  const [index, setIndex] = useState(0);
  const [moving, setMoving] = useState(false);
  const step = steps[index];
  const last = index === steps.length - 1;
  async function next() {
    if (last) return onFinish();
    setMoving(true);
    try {
      await step.onNext?.();
      setIndex(index + 1);
    } catch {
      /* the step shows its own error */
    } finally {
      setMoving(false);
    }
  }
  return (
    <div>
      <ul className="steps deck-steps w-full mb-4 text-xs lg:text-sm" aria-label={t("common.wizard.steps")}>
        {steps.map((s, i) => (
          <li
            key={s.title}
            className={`step ${i <= index ? "step-primary" : ""}`}
            aria-current={i === index ? "step" : undefined}
          >
            {i < index
              ? <button type="button" className="link" onClick={() => setIndex(i)}>{s.title}</button>
              : s.title}
          </li>
        ))}
      </ul>
      {step.content}
      <div className="modal-action">
        {onCancel
          ? (
            <button type="button" className="btn btn-ghost" onClick={onCancel} disabled={busy}>
              {t("common.action.cancel")}
            </button>
          )
          : null}
        {index > 0
          ? (
            <button type="button" className="btn" onClick={() => setIndex(index - 1)}>
              {t("common.action.back")}
            </button>
          )
          : null}
        <button
          type="submit"
          className="btn btn-primary"
          disabled={!step.isValid || moving || busy}
          onClick={next}
        >
          {last ? step.finishLabel ?? t("common.wizard.finish") : t("common.action.next")}
        </button>
      </div>
    </div>
  );
}
