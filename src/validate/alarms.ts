import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PersonaForgeError } from '../errors/index.js';

/** A fidelity figure of validation.json that is off its target. */
export interface FidelityAlarm {
  name: string;
  description: string;
  value: number;
  unit: string;
  target: number;
  kind: string;
  /** Records behind the figure (`count` of `of`), when validation.json has them. */
  count: number | null;
  of: number | null;
}

/**
 * The fidelity figures of `<runDir>/validation.json` that are off their target (`ok: false`), in
 * file order. A run without validation.json has none.
 *
 * @example for (const alarm of await readFidelityAlarms('out/q')) console.error(formatAlarm(alarm));
 */
export async function readFidelityAlarms(runDir: string): Promise<FidelityAlarm[]> {
  let validation: { fidelity?: Record<string, Record<string, unknown>> };
  try {
    validation = JSON.parse(await readFile(join(runDir, 'validation.json'), 'utf8')) as typeof validation;
  } catch {
    return [];
  }
  const alarms: FidelityAlarm[] = [];
  for (const [name, figure] of Object.entries(validation.fidelity ?? {})) {
    if (figure?.ok !== false || typeof figure.value !== 'number' || typeof figure.target !== 'number')
      continue;
    alarms.push({
      name,
      description: String(figure.description ?? name),
      value: figure.value,
      unit: String(figure.unit ?? '%'),
      target: figure.target,
      kind: String(figure.kind ?? 'max'),
      count: typeof figure.count === 'number' ? figure.count : null,
      of: typeof figure.of === 'number' ? figure.of : null,
    });
  }
  return alarms;
}

/** One line: `duplicate_questions 10.7% (target ≤ 0%; 43 of 403): questions a user is asked twice`. */
export function formatAlarm(alarm: FidelityAlarm): string {
  const unit = alarm.unit === '%' ? '%' : ` ${alarm.unit}`;
  const records = alarm.count === null || alarm.of === null ? '' : `; ${alarm.count} of ${alarm.of}`;
  return `${alarm.name} ${alarm.value}${unit} (target ${alarm.kind === 'max' ? '≤' : '≈'} ${alarm.target}${unit}${records}): ${alarm.description}`;
}

/**
 * `run --strict` / `validate.strict: true`: a run whose fidelity figures are off target fails
 * (exit 1) after writing everything, naming each figure.
 */
export function assertNoAlarms(alarms: readonly FidelityAlarm[], runDir: string): void {
  if (alarms.length === 0) return;
  throw new PersonaForgeError(
    'VALIDATION_FAILED',
    `${alarms.length} fidelity figure${alarms.length === 1 ? ' is' : 's are'} off target (strict): ${alarms.map((a) => a.name).join(', ')}`,
    {
      hint: `read the examples in ${join(runDir, 'validation.json')} and report.html; the outputs are written, strict only refuses to call the run good`,
    },
  );
}
