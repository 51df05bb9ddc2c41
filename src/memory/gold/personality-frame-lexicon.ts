/**
 * The situations the frame reader (personality-frames.ts) knows, per Big Five trait and side,
 * written from the construct definitions of the NEO-PI-R facets that the IPIP-NEO items measure
 * (gregariousness, excitement seeking, anxiety, vulnerability, order, self-discipline,
 * deliberation, actions, ideas, altruism, compliance, trust) and from Goldberg's (1992) unipolar
 * Big-Five marker adjectives for self-descriptions. Not one entry comes from the phrase banks that
 * write the offline style (src/synth/offline/) or the fake model's lines (src/dev/fake-llm/); the
 * reader is measured on two sets of chat sentences written apart from it
 * (test/memory/personality-paraphrases.ts, test/memory/personality-heldout.ts).
 *
 * Entries are word sequences matched on a word or its lemma ("party" meets "parties", "keep"
 * meets "kept"): "a|b" is either word, "*" any one word, "**" up to four, "?x" an optional word.
 */
import { stemmer } from 'stemmer';
import type { BigFiveTrait } from '../../schemas/common.js';
import type { Frame } from './types.js';

type Side = '+' | '-';
type Kind = Frame['kind'];
/** Per trait and side, per kind: the entries, separated by ";". A leading "~" marks `flip`. */
type Spec = Partial<Record<`${BigFiveTrait}${Side}`, Partial<Record<Kind, string>>>>;

const SPEC: Spec = {
  'extraversion+': {
    topic: `party; with friends|mates|a group|the gang; chatting; night out; nights out; go out; went out; going out; get-together; meetup; crowd; people; stranger; socialise|socialize|socialising|socializing;
      small talk; conversation; mingle|mingling; centre|center of attention; spotlight; big group; big groups; big gathering; big gatherings;
      company of others; being around people`,
    act: `meet|met ** new people; meeting new people; make|made ?new friends; chat|chatted|talk|talked with|to ?a ?total stranger|strangers;
      talk|talked to everyone|everybody; invite|invited ** over|round; invite|invited the whole; throw|threw a party;
      host|hosted * party|dinner|night; organise|organize|organised|organized * night|nights out; life of the party;
      the more the merrier; in ** great|good|brilliant|fantastic|amazing|cheerful mood; out with friends; host|hosted|hosting; out with a * group; first to say yes`,
    trait: `outgoing; sociable; extrovert; extravert; extroverted; extraverted; talkative; chatty; people person;
      social butterfly; party animal; gregarious; bubbly`,
  },
  'extraversion-': {
    topic: `alone; on my own; by myself; my own company; solitude; quiet evening|evenings|night|nights|weekend|weekends;
      peace and quiet; silence; to myself; night in; stay|stayed|staying in; stay|stayed|staying home; stay|stayed|staying at home`,
    act: `keep|kept to myself; recharge alone; alone to recharge; to recharge; nobody to talk to`,
    trait: `shy; introvert; introverted; reserved; loner; quiet; homebody; private person; wallflower`,
  },
  'neuroticism+': {
    act: `~panic|panicked; freak|freaked out; ~overthink|overthinking; lie|lay|lying awake; ~fret|fretting; dread|dreading;
      ~stress|stressed out; on edge; knot|knots in my stomach; my stomach knot|knots|churn|churns|churned; spiral|spiralling|spiraling|spiralled;
      imagine|imagining|imagined|assume|assuming|assumed|expect|expecting the worst; can|could not let it go; ~feel|feeling|felt down; mood|moods swing; mood swings; my mind ?keeps|kept|keep race|races|raced|racing;
      fall|falling|fell apart; ~lose|lost my temper; ~bad mood; get|gets|getting|got to me; rattle|rattles|rattled me;
      faze|fazes|fazed me; bother|bothers|bothered me; ~wind|winds|wound up; knock|knocks|knocked me flat;
      ~calm down; can't|cannot sleep; couldn't sleep`,
    trait: `~anxious; ~nervous; ~tense; ~moody; ~irritable; ~touchy; ~insecure; ~jumpy; ~edgy; ~worrier; nervous wreck;
      ~neurotic; ~highly strung; ~high-strung; ~low`,
  },
  'neuroticism-': {
    act: `stay|stayed|kept|keep|staying ?totally|completely|perfectly|pretty calm; keep|kept my cool; nothing ?much ?really rattle|faze|bother|fluster|get;
      rarely|hardly|seldom|never rattle|rattles|faze|fazes|bother|bothers|fluster|flusters; rarely|hardly|seldom|never get|gets to;
      not get|got to me;
      no point|use stressing|worrying|panicking; roll|rolls|rolled off me; in my stride; shrug|shrugged; sleep|slept like a baby|log;
      at peace; at ease; go|went with the flow`,
    trait: `calm; relaxed; laid-back; laid back; easygoing; easy-going; chill; unflappable; even-tempered; composed;
      mellow; zen`,
  },
  'conscientiousness+': {
    act: `plan|planned ahead; ~planned anything|everything; ahead of time; in advance; well ahead; to-do list; to do list; checklist; spreadsheet;
      in|into my calendar|diary|planner; on my schedule; block|blocked out; tidy|tidied my|the desk|room|flat|house|inbox;
      sort|sorted ?all my inbox|files|paperwork|papers; keep|kept|keeps * spotless|tidy|organised|organized; back in its place; minutes early;
      colour|color code|coded|codes; without missing; ~finish|finished what I start|started; ~finish|finished them|things|projects;
      stick|stuck|sticking to it|my budget|the budget|the plan|my plan|a schedule; set a budget; budget|budgeted|budgeting; before the deadline; tick|ticked|ticking * off;
      my desk|room|flat|house|inbox|place be|is ?pretty ?always spotless|immaculate|tidy|organised|organized; set * alarm|alarms; on top of things; ~on time; double check|checked|checking`,
    trait: `organised; organized; ~tidy; neat; punctual; methodical; meticulous; disciplined; ~reliable; thorough; systematic;
      efficient; prepared; planner`,
  },
  'conscientiousness-': {
    act: `~forget|forgot|forgetting to pay|call|reply|answer|book|send|renew|do|bring|buy|return|water|feed|charge;
      ~forget|forgot|forgetting about; ~keep|kept forgetting; procrastinate|procrastinating|procrastinated; put|putting it off; put|putting|puts off;
      last minute; lose|lost track; lose|lost my keys|phone|wallet|passport; miss|missed * deadline; missed the deadline;
      ~be|was|am late again; always late; running late; overslept|oversleep; wing|winging it; half finished; like a bomb; miss|missed the * deadline; miss|missed the * * deadline; as I go; behind on;
      waste|wasted|wasting the|my|whole|most * afternoon|day|evening|morning|weekend; my desk|room|flat|house|place|car|inbox|life be ?a ?total mess; ~messy`,
    trait: `disorganised; disorganized; messy; lazy; forgetful; scatterbrained; scatty; chaotic; procrastinator; ~unreliable;
      careless; sloppy; all over the place`,
  },
  'openness+': {
    topic: `something new; something different; anything new; new things; new ideas; new experiences; new places;
      new cuisines; new foods; new trends|fads|gadgets|technology; the unknown; adventure; adventures; novelty; unfamiliar; trying; experimental; exotic;
      philosophy; philosophical; abstract; ideas; imagination`,
    act: `love|loved|embrace|welcome change; for the first time; on a whim; shake|shook|shaking * up; the stranger the better; take|took a * class|course|workshop;
      ~experiment|experimenting; just to try; somewhere|anywhere new; all kinds of; teach|taught myself;
      write|wrote|writing poetry|poems|stories; just to see; out of curiosity; sign|signed up for * class|course|workshop;
      explore|exploring; daydream|daydreaming; fascinated by`,
    trait: `curious; adventurous; creative; imaginative; open-minded; arty; artsy; inquisitive; dreamer`,
  },
  'openness-': {
    topic: `the usual; my usual; routine; routines; familiar; the same; what I know; tried and tested; old favourites|favorites; normal`,
    act: `stick|stuck|sticking to|with what|the usual|my usual|the familiar|my routine; ~like|liked change; hate|dislike|resist|fear change; creature of habit; same * every; over and over;
      always been done; the traditional way; set in my ways; same * as always; ~trend|trends|fad|fads my thing`,
    trait: `conventional; traditional; old-fashioned; ~predictable`,
  },
  'agreeableness+': {
    act: `help|helped|helping my|a|an|the|someone|people|others|out; lend|lent; forgive|forgave; volunteer|volunteered|volunteering;
      donate|donated; other person 's side|perspective|point|coming; give|gave up my seat; go|went|going out of my way; check|checked|checking in on; make|made room for;
      cover|covered|covering * shift|shifts; apologise|apologize|apologised|apologized first; keep|keeping the peace; let others|people go first; * side of things; benefit of the doubt; sympathise|sympathize|sympathised|sympathized;
      put|putting others first; ~trust people|anyone|others`,
    trait: `generous; trusting; forgiving; considerate; people-pleaser; people pleaser; pushover; softie; softy; warm-hearted`,
  },
  'agreeableness-': {
    topic: `conflict; argument; arguments; confrontation; confrontations; fight; fights`,
    act: `yell|yelled|shout|shouted|snap|snapped at; 
      piece of my mind; argue|argued with; hold|held a grudge; get|got back at; distrust; suffer fools; tell it like it is; not sugarcoat|sugarcoating; roll|rolled my eyes; serves * right; hang|hung up on;
      not my problem|concern; told|tell * straight; told|tell ** exactly what I thought|think; could not care less;
      make|made|making fun of; no patience for|with; get|got my own way`,
    trait: `blunt; stubborn; rude; grumpy; cynical; selfish; impatient; hard to please`,
  },
};

let frames: Frame[] | null = null;

/** The frames of {@link SPEC}, parsed once. */
export function personalityFrames(): readonly Frame[] {
  if (frames !== null) return frames;
  frames = [];
  for (const [key, kinds] of Object.entries(SPEC)) {
    const trait = key.slice(0, -1) as BigFiveTrait;
    const side = key.endsWith('+') ? 1 : -1;
    for (const [kind, list] of Object.entries(kinds ?? {})) {
      for (const raw of list
        .split(';')
        .map((entry) => entry.trim())
        .filter(Boolean)) {
        const flip = raw.startsWith('~');
        const words = (flip ? raw.slice(1) : raw).toLowerCase().replace(/-/g, ' ').split(/\s+/);
        frames.push({ trait, side, kind: kind as Kind, words, ...(flip ? { flip } : {}) });
      }
    }
  }
  return frames;
}

/** Words too common to tell that a text may hold a frame. */
const COMMON = new Set([
  'the',
  'and',
  'with',
  'out',
  'all',
  'for',
  'about',
  'over',
  'what',
  'know',
  'being',
  'down',
  'new',
  'same',
  'side',
  'things',
  'thing',
  'people',
  'time',
  'first',
  'just',
  'whole',
  'most',
  'day',
  'night',
]);

let triggers: Set<string> | null = null;

/**
 * Stems of the words that may start a frame's match, so a text without any is not parsed.
 *
 * @example frameTriggers().has(stemmer('parties')) // true
 */
export function frameTriggers(): ReadonlySet<string> {
  if (triggers !== null) return triggers;
  triggers = new Set();
  for (const frame of personalityFrames())
    for (const spec of frame.words)
      for (const word of spec.replace(/^\?/, '').split('|'))
        if (word.length > 2 && !COMMON.has(word)) triggers.add(stemmer(word));
  return triggers;
}

let byFirst: { words: Map<string, Frame[]>; anywhere: Frame[] } | null = null;

/** The frames a word may start (by its form or lemma), and those whose first word is open ("*"). */
export function framesStartingWith(word: string, lemma: string): readonly Frame[] {
  if (byFirst === null) {
    byFirst = { words: new Map(), anywhere: [] };
    for (const frame of personalityFrames()) {
      const first = frame.words[0]!;
      if (first === '*' || first.startsWith('?')) byFirst.anywhere.push(frame);
      else
        for (const word of first.split('|'))
          byFirst.words.set(word, [...(byFirst.words.get(word) ?? []), frame]);
    }
  }
  const key = `${word} ${lemma}`;
  let found = starting.get(key);
  if (found === undefined) {
    const forms = byFirst.words.get(word) ?? [];
    const lemmas = lemma === word ? [] : (byFirst.words.get(lemma) ?? []);
    found = [...new Set([...forms, ...lemmas, ...byFirst.anywhere])];
    if (starting.size >= STARTING_CACHE) starting.clear();
    starting.set(key, found);
  }
  return found;
}

/** The frames each word and lemma start, looked up once per pair (every parsed word asks). */
const starting = new Map<string, Frame[]>();
const STARTING_CACHE = 8192;
