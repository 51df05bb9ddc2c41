import { MONTH_NAMES as MONTHS } from '../../src/util/months.js';
/**
 * A small LoCoMo-format record (FORMATS.md §1 shape; invented content, no LoCoMo data) with the
 * quirks the interpolation must survive: image turns with extra fields, observations whose
 * dia_ids are a string, a list or a comma list, and malformed QA evidence like the real file's.
 */
export interface LocomoFixtureOptions {
  /** Content sessions. @default 4 */
  sessions?: number;
  /** Turns per session. @default 6 */
  turns?: number;
  /** Days between sessions. @default 9 */
  gapDays?: number;
}

function locomoTime(ms: number): string {
  const d = new Date(ms);
  const h = d.getUTCHours();
  return `${h % 12 === 0 ? 12 : h % 12}:${String(d.getUTCMinutes()).padStart(2, '0')} ${h < 12 ? 'am' : 'pm'} on ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]}, ${d.getUTCFullYear()}`;
}

/** @example const record = makeLocomoFixture(); record.conversation.session_1 */
export function makeLocomoFixture(
  options: LocomoFixtureOptions = {},
): Record<string, unknown> & { conversation: Record<string, unknown>; qa: Array<Record<string, unknown>> } {
  const sessions = options.sessions ?? 4;
  const turns = options.turns ?? 6;
  const gap = (options.gapDays ?? 9) * 86_400_000;
  const conversation: Record<string, unknown> = { speaker_a: 'Nadia', speaker_b: 'Felix' };
  const observation: Record<string, unknown> = {};
  const sessionSummary: Record<string, unknown> = {};
  const eventSummary: Record<string, unknown> = {};
  for (let s = 1; s <= sessions; s++) {
    const start = Date.UTC(2023, 4, 8, 13, 56) + (s - 1) * gap + (s % 3) * 3_600_000;
    conversation[`session_${s}_date_time`] = locomoTime(start);
    conversation[`session_${s}`] = Array.from({ length: turns }, (_, t) => {
      const turn: Record<string, unknown> = {
        speaker: t % 2 === 0 ? 'Nadia' : 'Felix',
        dia_id: `D${s}:${t + 1}`,
        text: `Session ${s} line ${t + 1}: we talked about the garden and the ${['bakery', 'trip', 'concert'][t % 3]}.`,
      };
      if (t === 2) {
        return {
          speaker: turn.speaker,
          img_url: [`https://example.org/img-${s}.jpg`],
          blip_caption: 'a photo of a dog on a beach',
          query: 'dog beach',
          dia_id: turn.dia_id,
          text: turn.text,
          ...(s === 2 ? { 're-download': true } : {}),
        };
      }
      return turn;
    });
    observation[`session_${s}_observation`] = {
      Nadia: [[`Nadia mentioned the garden in session ${s}.`, `D${s}:1`]],
      Felix: [
        [`Felix likes the bakery (session ${s}).`, s % 2 === 0 ? [`D${s}:2`, `D${s}:4`] : `D${s}:2, D${s}:4`],
      ],
    };
    sessionSummary[`session_${s}_summary`] = `Nadia and Felix caught up (session ${s}).`;
    eventSummary[`events_session_${s}`] = {
      Nadia: [`Nadia planted tomatoes (${s}).`],
      Felix: [],
      date: locomoTime(start).split(' on ')[1],
    };
  }
  const last = sessions;
  const qa: Array<Record<string, unknown>> = [
    { question: 'What did Nadia plant?', answer: 'Tomatoes', evidence: ['D1:1'], category: 4 },
    {
      question: 'When did Felix visit the bakery?',
      answer: '9 May 2023',
      evidence: [`D${last}:2`],
      category: 2,
    },
    {
      question: 'Which two things came up?',
      answer: 'garden; trip',
      evidence: [`D2:1; D${last}:3`],
      category: 1,
    },
    { question: 'What did Felix plan?', answer: 'a trip', evidence: [`D2:2 D3:4 D${last}:6`], category: 3 },
    { question: 'What broke?', evidence: ['D'], category: 5, adversarial_answer: 'a vase' },
    { question: 'What did Nadia read?', answer: 42, evidence: ['D:3:2', 'D3:5'], category: 4 },
    { question: 'Where did they meet?', answer: 'at the park', evidence: [`D${last}:99`], category: 4 },
  ];
  return {
    sample_id: 'conv-fixture',
    conversation,
    observation,
    session_summary: sessionSummary,
    event_summary: eventSummary,
    qa,
  };
}
