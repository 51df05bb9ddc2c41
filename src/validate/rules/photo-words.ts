import { NUMBER_WORDS, OBJECT_COLORS, SCENE_OBJECTS } from '../../plan/images/palette.js';
import type { ImageRef, UserPlan } from '../../schemas/plan.js';

/** English plural of an object name ("gift box" → "gift boxes", "strawberry" → "strawberries"). */
function pluralOf(name: string): string {
  const known = SCENE_OBJECTS.find((object) => object.name === name);
  if (known !== undefined) return known.plural;
  if (/(s|x|z|ch|sh)$/.test(name)) return `${name}es`;
  if (/[^aeiou]y$/.test(name)) return `${name.slice(0, -1)}ies`;
  return `${name}s`;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The object names and colours a user's photos can be described with (built-in palette + the plan's images). */
export interface PhotoVocabulary {
  /** Object name → its singular and plural forms. */
  names: Map<string, string[]>;
  colours: string[];
}

const vocabularies = new WeakMap<UserPlan, PhotoVocabulary>();

/**
 * The object names and colours a user's photos can be described with (built once per plan: the
 * rules and the fidelity meter ask for it, read-only, again and again).
 *
 * @example photoVocabulary(plan).names.get('gift box') // ['gift boxes', 'gift box']
 */
export function photoVocabulary(plan: UserPlan): PhotoVocabulary {
  let vocabulary = vocabularies.get(plan);
  if (vocabulary === undefined) {
    vocabulary = buildVocabulary(plan);
    vocabularies.set(plan, vocabulary);
  }
  return vocabulary;
}

function buildVocabulary(plan: UserPlan): PhotoVocabulary {
  const names = new Map<string, string[]>();
  const colours = new Set<string>(Object.keys(OBJECT_COLORS));
  const add = (name: string) =>
    names.set(
      name.toLowerCase(),
      [pluralOf(name), name].map((f) => f.toLowerCase()),
    );
  for (const object of SCENE_OBJECTS) add(object.name);
  for (const image of plan.images) {
    for (const object of image.objects) {
      add(object.name);
      colours.add(object.color.toLowerCase());
    }
  }
  return { names, colours: [...colours] };
}

/** One colour and/or count said about an object: "a red ball", "three blue mugs", "two kites". */
export interface PhotoClaim {
  phrase: string;
  object: string;
  colour: string | null;
  count: number | null;
}

const COUNT_WORDS = NUMBER_WORDS.slice(1);

function countOf(word: string | undefined): number | null {
  if (word === undefined) return null;
  if (word === 'a' || word === 'an') return 1;
  const index = NUMBER_WORDS.indexOf(word);
  if (index > 0) return index;
  return /^\d+$/.test(word) ? Number(word) : null;
}

/**
 * The colour and count claims a text makes about objects of the vocabulary. A bare article
 * counts only before a colour ("a red ball" = one, "my ball" says nothing).
 *
 * @example photoClaims('meet Rex, my red ball', vocabulary) // [{ object: 'ball', colour: 'red', count: null, … }]
 */
export function photoClaims(text: string, vocabulary: PhotoVocabulary): PhotoClaim[] {
  const lower = text.toLowerCase();
  const claims: PhotoClaim[] = [];
  for (const { object, coloured, counted } of claimPatterns(vocabulary)) {
    for (const match of lower.matchAll(coloured))
      claims.push({ phrase: match[0], object, colour: match[2] as string, count: countOf(match[1]) });
    for (const match of lower.matchAll(counted))
      claims.push({ phrase: match[0], object, colour: null, count: countOf(match[1]) });
  }
  return claims;
}

interface ClaimPatterns {
  object: string;
  /** "(three) red balls": an optional count, a colour, the object. */
  coloured: RegExp;
  /** "three balls": a count and the object. */
  counted: RegExp;
}

/**
 * The claim patterns of a vocabulary, compiled once per vocabulary (one per plan): building them
 * for every turn was most of the rule's time. `matchAll` works on a copy, so the shared `g`
 * patterns keep no state between texts.
 */
const patternsByVocabulary = new WeakMap<PhotoVocabulary, ClaimPatterns[]>();
function claimPatterns(vocabulary: PhotoVocabulary): ClaimPatterns[] {
  let patterns = patternsByVocabulary.get(vocabulary);
  if (patterns !== undefined) return patterns;
  const colours = vocabulary.colours.map(escapeRegExp).join('|');
  const numbers = ['a', 'an', ...COUNT_WORDS, '\\d+'].join('|');
  const bare = [...COUNT_WORDS, '\\d+'].join('|');
  patterns = [...vocabulary.names].map(([object, forms]) => {
    const form = forms.map(escapeRegExp).join('|');
    return {
      object,
      coloured: new RegExp(`\\b(?:(${numbers})\\s+)?(${colours})\\s+(?:${form})\\b`, 'g'),
      counted: new RegExp(`\\b(${bare})\\s+(?:${form})\\b`, 'g'),
    };
  });
  patternsByVocabulary.set(vocabulary, patterns);
  return patterns;
}

/**
 * What a claim gets wrong about the photos it is said with, or null when they show it.
 *
 * @example claimProblem({ phrase: 'red ball', object: 'ball', colour: 'red', count: null }, [image]) // 'says "red ball" but …'
 */
export function claimProblem(claim: PhotoClaim, images: readonly ImageRef[]): string | null {
  const objects = images
    .flatMap((image) => image.objects)
    .filter((o) => o.name.toLowerCase() === claim.object);
  const shown = objects.map((o) => `${o.count} ${o.color}`).join(', ');
  if (objects.length === 0) return `says "${claim.phrase}" but the photo has no ${claim.object}`;
  const matching =
    claim.colour === null ? objects : objects.filter((o) => o.color.toLowerCase() === claim.colour);
  if (matching.length === 0) return `says "${claim.phrase}" but the photo shows ${claim.object}: ${shown}`;
  if (claim.count !== null) {
    const total = matching.reduce((sum, o) => sum + o.count, 0);
    if (total !== claim.count) return `says "${claim.phrase}" but the photo shows ${claim.object}: ${shown}`;
  }
  return null;
}
