/**
 * One user's plan drawn as the report draws every user (src/report/svg.ts): sessions and drift
 * events on a day axis, and the planned Big Five (solid steps) beside what memory tracked (dashed).
 */
import { lineChart, type Series, timelineChart } from '../report/svg.js';

const DAY_MS = 86_400_000;
const TRAITS = ['openness', 'conscientiousness', 'extraversion', 'agreeableness', 'neuroticism'] as const;
type BigFive = Record<(typeof TRAITS)[number], number>;

export interface ChartPlan {
  userId: string;
  horizon: { start: string };
  sessions: Array<{ start: string; rounds: number }>;
  drift: Array<{
    time: string;
    type: string;
    cause: string;
    preferenceId?: string | null;
    previousPreferenceId?: string | null;
  }>;
  preferences: Array<{ id: string; item: string }>;
  personality: Array<{ time: string; bigFive: BigFive }>;
}

const day = (time: string, start: string) =>
  Math.round(((Date.parse(time) - Date.parse(start)) / DAY_MS) * 100) / 100;

export function timelineSvg(plan: ChartPlan): string {
  const items = new Map(plan.preferences.map((p) => [p.id, p.item]));
  return timelineChart(
    [
      {
        label: plan.userId,
        sessions: plan.sessions.map((s) => ({ day: day(s.start, plan.horizon.start), rounds: s.rounds })),
        events: plan.drift.map((e) => ({
          day: day(e.time, plan.horizon.start),
          kind: e.type,
          label: `${items.get(e.preferenceId ?? e.previousPreferenceId ?? '') ?? ''} — ${e.cause}`,
        })),
      },
    ],
    { title: `Timeline of ${plan.userId}` },
  );
}

/** Planned personality is piecewise constant: steps held to `endDay`. */
function steps(points: Array<{ x: number; y: number }>, endDay: number): Array<{ x: number; y: number }> {
  const out: Array<{ x: number; y: number }> = [];
  for (const p of points) {
    const prev = out[out.length - 1];
    if (prev !== undefined) out.push({ x: p.x, y: prev.y });
    out.push(p);
  }
  const last = out[out.length - 1];
  if (last !== undefined && last.x < endDay) out.push({ x: endDay, y: last.y });
  return out;
}

export function personalitySvg(plan: ChartPlan, tracked: Array<{ time: string; bigFive: BigFive }>): string {
  const planned = plan.personality.map((p) => ({ day: day(p.time, plan.horizon.start), bigFive: p.bigFive }));
  const seen = tracked.map((p) => ({
    day: Math.max(0, day(p.time, plan.horizon.start)),
    bigFive: p.bigFive,
  }));
  const endDay = Math.max(0, ...planned.map((p) => p.day), ...seen.map((p) => p.day));
  const series: Series[] = [];
  TRAITS.forEach((trait, t) => {
    series.push({
      name: trait,
      colorIndex: t,
      points: steps(
        planned.map((p) => ({ x: p.day, y: p.bigFive[trait] })),
        endDay,
      ),
    });
    if (seen.length > 0)
      series.push({
        name: `${trait} (memory)`,
        colorIndex: t,
        hideInLegend: true,
        dashed: true,
        points: seen.map((p) => ({ x: p.day, y: p.bigFive[trait] })),
      });
  });
  return lineChart(series, {
    title: `Personality of ${plan.userId}`,
    xLabel: 'day',
    yMin: 1,
    yMax: 5,
    width: 760,
  });
}
