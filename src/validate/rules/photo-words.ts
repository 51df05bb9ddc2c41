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

/**
 * @example photoVocabulary(plan).names.get('gift box') // ['gift boxes', 'gift box']
 */
export function photoVocabulary(plan: UserPlan): PhotoVocabulary {
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
  const colours = vocabulary.colours.map(escapeRegExp).join('|');
  const numbers = ['a', 'an', ...COUNT_WORDS, '\\d+'].join('|');
  const bare = [...COUNT_WORDS, '\\d+'].join('|');
  for (const [object, forms] of vocabulary.names) {
    const form = forms.map(escapeRegExp).join('|');
    const coloured = new RegExp(`\\b(?:(${numbers})\\s+)?(${colours})\\s+(?:${form})\\b`, 'g');
    for (const match of lower.matchAll(coloured))
      claims.push({ phrase: match[0], object, colour: match[2] as string, count: countOf(match[1]) });
    const counted = new RegExp(`\\b(${bare})\\s+(?:${form})\\b`, 'g');
    for (const match of lower.matchAll(counted))
      claims.push({ phrase: match[0], object, colour: null, count: countOf(match[1]) });
  }
  return claims;
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
