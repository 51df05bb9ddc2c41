import { loadEvalSet } from '../../../eval/load.js';
import type { EvalItem } from '../../../eval/types.js';
import { formatMinute } from '../../../memory/retrieval/format-block.js';
import { sha256 } from '../../../util/hash.js';
import type { FakeChatRequest } from '../server.js';
import { promptKind } from './index.js';

/**
 * The fake model as an oracle for `persona-forge eval`: it loads the same set, recognises each
 * question in the prompt, and answers the gold answer for exactly round(rate × n) questions (the
 * ones with the lowest seeded hash), a wrong one for the rest — so a harness that scores rate
 * (± rounding) is right. In the agent protocol it first asks memory (`<retrieve>`), then answers
 * once a `<memory>` block came back.
 *
 * @example const respond = await createEvalOracle({ set: 'out/q/export/eval', rate: 0.7 }); startFakeLlmServer({ respond });
 */
export async function createEvalOracle(options: {
  set: string;
  rate: number;
  seed?: number;
}): Promise<(request: FakeChatRequest) => string | undefined> {
  const sets = await loadEvalSet(options.set);
  const items = sets.flatMap((set) => set.items);
  const seed = options.seed ?? 1;
  const ranked = [...items].sort((a, b) => {
    const ha = sha256(`${seed}|${a.id}`);
    const hb = sha256(`${seed}|${b.id}`);
    return ha < hb ? -1 : ha > hb ? 1 : 0;
  });
  const correct = new Set(ranked.slice(0, Math.round(options.rate * items.length)).map((item) => item.id));
  // Questions by text; several items may share a text (then the options tell them apart).
  const byQuestion = new Map<string, EvalItem[]>();
  for (const item of items) {
    const list = byQuestion.get(item.question) ?? [];
    list.push(item);
    byQuestion.set(item.question, list);
  }
  return (request) => {
    // Prompts persona-forge itself sends (judges, realizer, …) go to the fake model as usual.
    if (promptKind(request) !== undefined) return undefined;
    const user = request.messages.filter((m) => m.role === 'user').map((m) => m.content);
    const prompt = user[0] ?? '';
    const item = find(byQuestion, prompt);
    if (item === undefined) return undefined;
    const agent = request.messages.some((m) => m.role === 'system' && m.content.includes('<retrieve>'));
    if (agent && !user.some((text) => text.startsWith('<memory>'))) {
      const keywords = item.question.split(/\s+/).slice(0, 6).join(' ').replace(/"/g, '');
      return `<think>I should look this up in memory.</think>\n<retrieve>{"keywords": "${keywords}", "start_time": null, "end_time": null}</retrieve>`;
    }
    return `<think>Answering from what I know.</think>\n<answer>${answerFor(item, correct.has(item.id))}</answer>`;
  };
}

function find(byQuestion: Map<string, EvalItem[]>, prompt: string): EvalItem | undefined {
  let best: EvalItem | undefined;
  for (const [question, list] of byQuestion) {
    if (question === '' || !prompt.includes(question)) continue;
    for (const item of list) {
      // The same question may be asked of several users: the options and the asked-at time tell them apart.
      const asked = item.time === null ? '' : `[${formatMinute(item.time)}] ${item.question}`;
      if (asked !== '' && !prompt.includes(asked)) continue;
      if (item.choices.every((choice, i) => prompt.includes(`(${String.fromCharCode(97 + i)}) ${choice}`))) {
        if (best === undefined || item.question.length > best.question.length) best = item;
      }
    }
  }
  return best;
}

function answerFor(item: EvalItem, right: boolean): string {
  if (item.kind === 'adversarial') return right ? 'No information available' : 'Yes, on Saturday';
  // LoCoMo scores category 3 against the gold before its first ";" (task_eval/evaluation.py).
  if (item.kind === 'open')
    return right
      ? item.category === 3
        ? (item.answer.split(';')[0] ?? '').trim()
        : item.answer
      : 'purple elephants';
  if (right) return item.answer;
  const gold = /\(([a-z])\)/i.exec(item.answer)?.[1]?.toLowerCase() ?? 'a';
  const count = Math.max(2, item.choices.length);
  const wrong = (gold.charCodeAt(0) - 97 + 1) % count;
  return `(${String.fromCharCode(97 + wrong)})`;
}
