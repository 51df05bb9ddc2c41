/**
 * Named colours and drawable objects of the built-in scenes. Names are what captions and
 * visual-detail answers use, so each colour is far from the others and from every background.
 */
export const OBJECT_COLORS = {
  red: [220, 40, 40],
  blue: [40, 80, 220],
  green: [40, 160, 60],
  yellow: [240, 200, 30],
  orange: [245, 130, 20],
  purple: [140, 60, 180],
  pink: [240, 120, 170],
  black: [20, 20, 20],
  brown: [130, 80, 40],
  gray: [128, 128, 128],
} as const satisfies Record<string, readonly [number, number, number]>;
export type ObjectColor = keyof typeof OBJECT_COLORS;

export const BACKGROUNDS = {
  'light grey': [215, 215, 215],
  'pale yellow': [250, 242, 205],
  'pale blue': [205, 225, 245],
  mint: [210, 240, 222],
  beige: [236, 226, 206],
} as const satisfies Record<string, readonly [number, number, number]>;
export type BackgroundName = keyof typeof BACKGROUNDS;

export type Shape = 'apple' | 'circle' | 'balloon' | 'mug' | 'book' | 'box' | 'star' | 'kite';

/** Objects a scene can hold: singular, plural, how it is drawn, and the colours it comes in. */
export interface SceneObject {
  name: string;
  plural: string;
  shape: Shape;
  colors: readonly ObjectColor[];
}

const ALL = Object.keys(OBJECT_COLORS) as ObjectColor[];

export const SCENE_OBJECTS: readonly SceneObject[] = [
  { name: 'apple', plural: 'apples', shape: 'apple', colors: ['red', 'green', 'yellow'] },
  { name: 'ball', plural: 'balls', shape: 'circle', colors: ALL },
  {
    name: 'balloon',
    plural: 'balloons',
    shape: 'balloon',
    colors: ['red', 'blue', 'green', 'yellow', 'orange', 'purple', 'pink'],
  },
  { name: 'mug', plural: 'mugs', shape: 'mug', colors: ALL },
  { name: 'book', plural: 'books', shape: 'book', colors: ALL },
  { name: 'gift box', plural: 'gift boxes', shape: 'box', colors: ALL },
  {
    name: 'star',
    plural: 'stars',
    shape: 'star',
    colors: ['yellow', 'orange', 'red', 'blue', 'purple', 'pink'],
  },
  {
    name: 'kite',
    plural: 'kites',
    shape: 'kite',
    colors: ['red', 'blue', 'green', 'yellow', 'orange', 'purple', 'pink'],
  },
];

export const NUMBER_WORDS = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
];
