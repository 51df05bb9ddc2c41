/**
 * Audit of an M²A export (issue 13): reads `<run>/export/eval/m2a/{merged,report}.json` and prints
 * one JSON object with
 * - `conceptTurns`, `duplicateConceptTurns`: turns of the inserted concept sessions whose text
 *   (trimmed, lower-cased) is also the text of another turn of the same merged conversation;
 * - `sessionRefs`, `wrongSessionRefs`: QA items naming "session N", and how many name a session
 *   that holds none of the item's evidence — "session N" is the file's `session_N` (evidence
 *   `S<N>:…`), the project's rule (src/util/session-refs.ts); `wrongIfOrdinal` reads N as the
 *   N-th session instead (`session_{N-1}`), for comparison;
 * - `imagesPerConversation`: image references in the inserted sessions per merged conversation
 *   (M²A: 214 over 10 = 21.4), and over all turns;
 * - `duplicateQuestions`: question texts asked twice in one conversation.
 * Run: `npx --no-install tsx bench/audit/m2a.ts <run-dir>`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

type Json = Record<string, unknown>;
interface Turn {
  speaker: number;
  dia_id: string;
  images: string[];
  text: string;
}
const run = process.argv[2] ?? 'out/m2a';
const dir = join(run, 'export/eval/m2a');
const merged = JSON.parse(readFileSync(join(dir, 'merged.json'), 'utf8')) as Array<{
  conversation: Json;
  qa: Array<{ question: { text: string }; answer: unknown; evidence: string[]; category: number }>;
}>;
const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as {
  samples: Array<{ position: number; inserted: number }>;
};
const out = {
  conversations: merged.length,
  conceptTurns: 0,
  duplicateConceptTurns: 0,
  sessionRefs: 0,
  wrongIfOrdinal: 0,
  wrongSessionRefs: 0,
  injectedImages: 0,
  allImages: 0,
  duplicateQuestions: 0,
  questions: 0,
  examples: [] as string[],
};
merged.forEach((sample, c) => {
  const { position, inserted } = report.samples[c]!;
  const sessions = Number(sample.conversation.n_session);
  const counts = new Map<string, number>();
  const all: Array<{ s: number; turn: Turn }> = [];
  for (let s = 0; s < sessions; s++)
    for (const turn of (sample.conversation[`session_${s}`] ?? []) as Turn[]) {
      all.push({ s, turn });
      const key = turn.text.trim().toLowerCase();
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  for (const { s, turn } of all) {
    out.allImages += turn.images.length;
    if (s < position || s >= position + inserted) continue;
    out.conceptTurns++;
    out.injectedImages += turn.images.length;
    if ((counts.get(turn.text.trim().toLowerCase()) ?? 0) > 1) out.duplicateConceptTurns++;
  }
  const asked = new Set<string>();
  for (const item of sample.qa) {
    out.questions++;
    if (asked.has(item.question.text)) out.duplicateQuestions++;
    asked.add(item.question.text);
    const text = `${item.question.text} ${String(item.answer)}`;
    const named = [...text.matchAll(/\bsession (\d+)\b/gi)].map((m) => Number(m[1]));
    if (named.length === 0) continue;
    out.sessionRefs++;
    const evidence = new Set(item.evidence.map((id) => Number(/^S(\d+):/.exec(id)?.[1] ?? -1)));
    if (named.some((n) => !evidence.has(n - 1))) out.wrongIfOrdinal++;
    if (named.some((n) => !evidence.has(n))) {
      out.wrongSessionRefs++;
      if (out.examples.length < 3)
        out.examples.push(`${item.question.text} → ${String(item.answer)} [${item.evidence.join(', ')}]`);
    }
  }
});
console.log(
  JSON.stringify(
    {
      ...out,
      duplicateConceptTurnShare:
        Math.round((out.duplicateConceptTurns / Math.max(1, out.conceptTurns)) * 1000) / 10,
      injectedImagesPerConversation:
        Math.round((out.injectedImages / Math.max(1, out.conversations)) * 10) / 10,
      publishedImagesPerConversation: 21.4,
    },
    null,
    2,
  ),
);
