/**
 * A plan question asked the way LoCoMo asks (FORMATS.md §1): about a named speaker in the third
 * person, open-ended (no options), one sentence with no situation line before it. The speaker's
 * name and pronouns are not known here (the generated user becomes a host speaker when the
 * sessions are spliced), so the text holds placeholders the host adapter fills:
 * `{user}` (the speaker's name), `{their}` and `{them}` (their pronouns).
 */
import type { QaTarget } from '../schemas/plan.js';

/**
 * A question as LoCoMo asks it, with placeholders. `kind` is what it asks: a date (`temporal`,
 * LoCoMo category 2), an inference beyond what was said (`inference`, category 3), what one turn
 * said (`recall`, single-hop 4: the latest turn stating it is its evidence), or what several
 * turns say together (`combine`: a history, two preferences, a goal's course — multi-hop 1 when
 * its evidence spans sessions).
 */
export interface LocomoAsk {
  question: string;
  answer: string;
  kind: 'temporal' | 'inference' | 'recall' | 'combine';
}

/** A first-person question body → the LoCoMo phrasing (`$1`… are the body's groups). */
type Rule = readonly [RegExp, string, LocomoAsk['kind']];

/**
 * One rule per phrasing of the question kernels (src/qa), Persona-MME's and LoCoMo's own.
 * Questions whose kernel has no LoCoMo counterpart (how to pitch an explanation, ideas never
 * mentioned) or that need their options (several true answers without them) match no rule.
 */
const RULES: readonly Rule[] = [
  // Photos (visual detail; the image turn's blip_caption holds the photo's content).
  [
    /^In (the photo of .+?) I showed you, how many (.+?) were there\?$/,
    'How many $2 were in $1 that {user} shared?',
    'recall',
  ],
  [
    /^How many (.+?) could you see in (the photo of .+?) I shared\?$/,
    'How many $1 were in $2 that {user} shared?',
    'recall',
  ],
  [
    /^In (the photo of .+?) I showed you, what colou?r was the (.+?)\?$/,
    'What colour was the $2 in $1 that {user} shared?',
    'recall',
  ],
  [
    /^What colou?r was the (.+?) in (the photo of .+?) I sent you\?$/,
    'What colour was the $1 in $2 that {user} shared?',
    'recall',
  ],
  [
    /^What did I call the (.+?) in the photos I showed you\?$/,
    'What name did {user} give the $1 in {their} photos?',
    'recall',
  ],
  [
    /^What name did I give the (.+?) from my photos\?$/,
    'What name did {user} give the $1 in {their} photos?',
    'recall',
  ],
  // People.
  [/^What's the name of my (.+?) again\?$/, "What is the name of {user}'s $1?", 'recall'],
  [/^Remind me, what is my (.+?) called\?$/, "What is the name of {user}'s $1?", 'recall'],
  [/^Who is (.+?) to me\?$/, 'How does {user} know $1?', 'recall'],
  [/^How do I know (.+?)\?$/, 'How does {user} know $1?', 'recall'],
  [
    /^How are things between (.+?) and me now, compared with when you first heard about them\?$/,
    'How have things changed between {user} and $1 since {user} first mentioned them?',
    'combine',
  ],
  [
    /^Since I first told you about (.+?), how have things between us changed\?$/,
    'How have things changed between {user} and $1 since {user} first mentioned them?',
    'combine',
  ],
  // Habits and goals.
  [/^What do I usually do (.+?)\?$/, 'What does {user} usually do $1?', 'recall'],
  [/^What is my usual routine (.+?)\?$/, 'What does {user} usually do $1?', 'recall'],
  [
    /^(I told you about something I'm aiming for — which of these is it|Which of these goals did I tell you I had set myself|Which one of these is a goal I mentioned to you|Which of these did I say I was hoping to achieve|Remind me, which of these aims did I share with you|Out of these, which one is a target I told you I had)\?$/,
    'What goal did {user} mention working towards?',
    'recall',
  ],
  [/^How is my plan to (.+?) going\?$/, "How is {user}'s plan to $1 going?", 'combine'],
  [/^Where am I with my plan to (.+?)\?$/, "How is {user}'s plan to $1 going?", 'combine'],
  // Preferences: the current one, a conditional one, the history, the reasons.
  [
    /^What is my current preference when it comes to (.+?)\?$/,
    'How does {user} feel about $1 now?',
    'recall',
  ],
  [/^These days, what is my take on (.+?)\?$/, 'How does {user} feel about $1 now?', 'recall'],
  [
    /^I was thinking about (.+?) again — remind me where I stand on it these days\?$/,
    'How does {user} feel about $1 now?',
    'recall',
  ],
  [
    /^Where do I currently stand on (.+?)\? I keep forgetting\.$/,
    'How does {user} feel about $1 now?',
    'recall',
  ],
  [
    /^Right now, which best describes how I feel about (.+?)\?$/,
    'How does {user} feel about $1 now?',
    'recall',
  ],
  [
    /^Which of these matches my current feelings about (.+?)\?$/,
    'How does {user} feel about $1 now?',
    'recall',
  ],
  [
    /^How have my feelings about (.+?) developed over time\?$/,
    "How has {user}'s taste in $1 changed over time?",
    'combine',
  ],
  [
    /^Can you trace how my view of (.+?) has shifted over time\?$/,
    "How has {user}'s taste in $1 changed over time?",
    'combine',
  ],
  [/^How has my taste in (.+?) changed\?$/, "How has {user}'s taste in $1 changed over time?", 'combine'],
  [/^What changed about my taste in (.+?)\?$/, "How has {user}'s taste in $1 changed over time?", 'combine'],
  [/^Why did I begin to (.+?)\?$/, 'Why did {user} start to $1?', 'recall'],
  [/^What led me to (.+?)\?$/, 'Why did {user} start to $1?', 'recall'],
  [/^Why don't I (.+?) anymore\?$/, 'Why does {user} no longer $1?', 'recall'],
  [/^What is the reason I no longer (.+?)\?$/, 'Why does {user} no longer $1?', 'recall'],
  [/^Why do I see (.+?) differently now\?$/, 'Why did {user} change {their} mind about $1?', 'recall'],
  [/^What made me rethink (.+?)\?$/, 'Why did {user} change {their} mind about $1?', 'recall'],
  [
    /^After I stopped being the person who would (.+?), where did I land on (.+?), and why\?$/,
    'What did {user} turn to for $2 after no longer wanting to $1, and why?',
    'combine',
  ],
  [
    /^Once I no longer would (.+?), what did I move to on (.+?), and for what reason\?$/,
    'What did {user} turn to for $2 after no longer wanting to $1, and why?',
    'combine',
  ],
  [
    /^What do I enjoy when it comes to (.+?), and what about (.+?)\?$/,
    'What does {user} enjoy when it comes to $1 and to $2?',
    'combine',
  ],
  [
    /^Remind me of my favourites for (.+?) and for (.+?)\?$/,
    'What does {user} enjoy when it comes to $1 and to $2?',
    'combine',
  ],
  // Dates: when something was first said or began (the session date answers it).
  [/^When did I start to (.+?)\?$/, 'When did {user} start to $1?', 'temporal'],
  [/^On what date did I begin to (.+?)\?$/, 'When did {user} start to $1?', 'temporal'],
  [/^When did I first tell you that I like (.+?)\?$/, 'When did {user} first mention liking $1?', 'temporal'],
  [
    /^On what date did I first mention that I like (.+?)\?$/,
    'When did {user} first mention liking $1?',
    'temporal',
  ],
  [
    /^When did I first tell you that I dislike (.+?)\?$/,
    'When did {user} first mention disliking $1?',
    'temporal',
  ],
  [
    /^On what date did I first mention that I dislike (.+?)\?$/,
    'When did {user} first mention disliking $1?',
    'temporal',
  ],
  // Inference from what was said (LoCoMo's open-domain "would … likely …").
  [
    /^Would I enjoy an afternoon that revolves around (.+?)\?$/,
    'Would {user} likely enjoy an afternoon built around $1?',
    'inference',
  ],
  [
    /^Is an afternoon built around (.+?) something I'd enjoy\?$/,
    'Would {user} likely enjoy an afternoon built around $1?',
    'inference',
  ],
];

/** First-person words inside a captured phrase or an answer, as the speaker's placeholders. */
const PERSON: ReadonlyArray<readonly [RegExp, string]> = [
  [/\bI'm\b/g, '{user} is'],
  [/\bI've\b/g, '{user} has'],
  [/\bI\b/g, '{user}'],
  [/\bme\b/g, '{them}'],
  [/\bmyself\b/g, '{them}'],
  [/\bmy\b/g, '{their}'],
  [/\bMy\b/g, "{user}'s"],
  [/\bWe\b/g, 'They'],
  [/\bwe\b/g, 'they'],
  [/\bus\b/g, 'them'],
  [/\bour\b/g, 'their'],
];

/** Rewrites first-person words as the speaker's placeholders ("my partner" → "{their} partner"). */
export function thirdPerson(text: string): string {
  let out = text;
  for (const [pattern, replacement] of PERSON) out = out.replace(pattern, replacement);
  return out;
}

/**
 * Proper names the question wrote in lower case (a plan keyword: "a trip to iceland") spelt as
 * the answer spells them ("To save enough for a trip to Iceland").
 */
function namesAsInAnswer(question: string, answer: string): string {
  const names = (answer.match(/(?<=\s)\p{Lu}[\p{Ll}'-]+/gu) ?? []).filter((word) => word.length > 2);
  let out = question;
  for (const name of names) out = out.replace(new RegExp(`\\b${name.toLowerCase()}\\b`, 'g'), name);
  return out;
}

/** Strips a situation line before the question proper: the question is its last sentence. */
function questionBody(question: string): string {
  const sentences = question.trim().match(/[^.?!]+(?:[.?!]+|$)/g) ?? [question];
  // A body may end with a short follow-up ("… on ramen? I keep forgetting.").
  const last = sentences.length - 1;
  const lastIsQuestion = sentences[last]!.trim().endsWith('?');
  const from = lastIsQuestion ? last : Math.max(0, last - 1);
  return sentences.slice(from).join('').trim();
}

/**
 * The LoCoMo phrasing of a plan question, with `{user}`/`{their}`/`{them}` placeholders, or null
 * when LoCoMo has no such question: the plan marks it unanswerable, it needs its options (several
 * true answers without them), or no phrasing of its kind exists (explanation level, new ideas).
 *
 * @example locomoAsk(qa) // { question: 'How does {user} know Nora?', answer: 'Manager', kind: 'recall' }
 */
export function locomoAsk(
  qa: Pick<QaTarget, 'question' | 'answer' | 'unanswerable' | 'openable'>,
): LocomoAsk | null {
  if (qa.unanswerable || qa.openable === false) return null;
  const body = questionBody(qa.question);
  for (const [pattern, template, kind] of RULES) {
    const match = pattern.exec(body);
    if (match === null) continue;
    const question = template.replace(/\$(\d)/g, (_, i: string) => thirdPerson(match[Number(i)] ?? ''));
    return { question: namesAsInAnswer(question, qa.answer), answer: thirdPerson(qa.answer), kind };
  }
  return null;
}
