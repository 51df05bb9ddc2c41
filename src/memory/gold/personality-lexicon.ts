/**
 * The personality reader's lexicon, taken from an outside source: the 120 items of Johnson's
 * IPIP-NEO-PI-R (the `@bigfive-org/questions` package), each a short self-description keyed to a
 * Big Five domain, high (+) or low (−) ("Worry about things" N+, "Prefer to be alone" E−,
 * "Like to tidy up" C+). Every content word of an item votes for its domain and key; the words
 * an item turns around ("Am not easily annoyed", "Avoid crowds", "Do not like poetry") vote for
 * nothing, since what they show depends on the speaker's stance. A word is a cue only when all
 * its votes agree and it is no light word that any sentence uses ("get", "thing", "people").
 * Nothing here comes from the phrase banks that write the offline style (src/synth/offline/).
 */
import { createRequire } from 'node:module';
import { stemmer } from 'stemmer';
import { BIG_FIVE_TRAITS, type BigFiveTrait } from '../../schemas/common.js';
import { personalityFrames } from './personality-frame-lexicon.js';
import { parseSentences } from './personality-parse.js';

/** One IPIP item as the package ships it. */
interface IpipItem {
  text: string;
  domain: 'N' | 'E' | 'O' | 'A' | 'C';
  keyed: 'plus' | 'minus';
}

const DOMAINS: Readonly<Record<IpipItem['domain'], BigFiveTrait>> = {
  N: 'neuroticism',
  E: 'extraversion',
  O: 'openness',
  A: 'agreeableness',
  C: 'conscientiousness',
};

/**
 * Parts of speech whose words say a disposition (the parser tags some item-initial verbs PROPN).
 * Nouns name what an item is about ("Love large parties"), and a sentence can be for or against
 * it ("I skipped the party"): they are no cue.
 */
const CONTENT = new Set(['VERB', 'ADJ', 'ADV', 'PROPN']);
/** Words that turn the rest of an item around ("Avoid crowds", "Do not like poetry"). */
const TURNERS = new Set(['not', 'no', 'never', 'without', 'avoid', 'dislike', 'difficulty', 'rarely']);
/**
 * Words an item uses that any conversation uses too, or that name a colour, a thing or an
 * activity rather than a disposition ("blue", "life", "work", "plan", "help", "busy", "tidy" —
 * "while tidying up" says when, not who): never a cue.
 */
const LIGHT = new Set(
  `be have do get make take go put keep tell know think look see find try tend like love want feel
  thing people other others time lot way often always rarely only much many easily own just end right
  wrong change start life different event spare approach routine importance problem high highly ahead
  place room decision idea read how more expect deal situation social difficult easy wait side hard say
  work material draw attention become contact able proper enough little leave break carry handle charge
  large bright absolute tough bad good back lead use control remain vote believe prefer enjoy understand
  notice help concerned friend plan promise task complete experience blue pressure truth successfully
  smoothly intention way political candidate feeling emotion emotional interested discussion order
  rule opinion reaction crime intense talk craving temptation flight effort busy tidy`
    .split(/\s+/)
    .filter(Boolean)
    .map((word) => stemmer(word)),
);

/** A cue: the trait a word shows and on which side (1 high, −1 low). */
export interface Cue {
  trait: BigFiveTrait;
  side: 1 | -1;
}

/** The IPIP-NEO items (English), read from the installed package. */
export function ipipItems(): IpipItem[] {
  const require = createRequire(import.meta.url);
  return require('@bigfive-org/questions/data/en/questions.json') as IpipItem[];
}

/** The stem a word is looked up by ("worrying" → "worri"). */
export const cueStem = (lemma: string): string => stemmer(lemma.toLowerCase());

let cues: Map<string, Cue> | null = null;

/**
 * Stem → cue, built once from the IPIP items.
 *
 * @example personalityCues().get(cueStem('worry')) // { trait: 'neuroticism', side: 1 }
 */
export function personalityCues(): ReadonlyMap<string, Cue> {
  if (cues !== null) return cues;
  const votes = new Map<string, Set<string>>();
  for (const item of ipipItems()) {
    const trait = DOMAINS[item.domain];
    const keyed = item.keyed === 'plus' ? 1 : -1;
    let turned = false;
    for (const token of parseSentences(item.text).flat()) {
      if (TURNERS.has(token.lemma)) {
        turned = true;
        continue;
      }
      if (!CONTENT.has(token.pos)) continue;
      const stem = cueStem(token.lemma);
      if (stem.length < 3 || LIGHT.has(stem)) continue;
      if (turned) continue;
      const side = keyed;
      const set = votes.get(stem) ?? new Set<string>();
      set.add(`${trait}:${side}`);
      votes.set(stem, set);
    }
  }
  // A word the frame reader reads with the speaker's stance ("alone", "routine") shows nothing on its own.
  const topics = new Set(
    personalityFrames()
      .filter((frame) => frame.kind === 'topic' && frame.words.length === 1)
      .flatMap((frame) => frame.words[0]!.split('|').map(cueStem)),
  );
  cues = new Map();
  for (const [stem, set] of votes) {
    if (set.size !== 1 || topics.has(stem)) continue;
    const [trait, side] = [...set][0]!.split(':') as [BigFiveTrait, string];
    if (BIG_FIVE_TRAITS.includes(trait)) cues.set(stem, { trait, side: side === '1' ? 1 : -1 });
  }
  return cues;
}
