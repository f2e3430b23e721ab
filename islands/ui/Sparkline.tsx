/**
 * A small trend line drawn as inline SVG: no script, so server-rendered pages use it as they are, and the
 * widget dashboard's counters draw it too. The area under the line is filled faintly.
 */
import { t } from "../lib/i18n/t.ts";

export interface SparklineProps {
  values: number[];
  color: string;
  /** Accessible description, e.g. "Requests per second over the last hour". */
  label: string;
  height?: number;
  className?: string;
}

export function Sparkline({ values, color, label, height = 32, className = "" }: SparklineProps) {
  const width = 100;
  if (values.length < 2) {
    return (
      <svg
        role="img"
        aria-label={t("common.sparkline.noData", { label })}
        className={className}
        height={height}
      />
    );
  }
  const max = Math.max(...values);
  const min = Math.min(0, ...values);
  const span = max - min || 1;
  const x = (i: number) => (i / (values.length - 1)) * width;
  const y = (v: number) => height - 2 - ((v - min) / span) * (height - 4);
  const line = values.map((v, i) => `${x(i).toFixed(2)},${y(v).toFixed(2)}`).join(" ");
  return (
    <svg
      role="img"
      aria-label={label}
      viewBox={`0 0 ${width} ${height}`}
      preserveAspectRatio="none"
      className={`w-full ${className}`}
      height={height}
    >
      <polygon points={`0,${height} ${line} ${width},${height}`} fill={color} fillOpacity="0.18" />
      <polyline
        points={line}
        fill="none"
        stroke={color}
        strokeWidth="1.5"
        vectorEffect="non-scaling-stroke"
        strokeLinejoin="round"
      />
    </svg>
  );
}
