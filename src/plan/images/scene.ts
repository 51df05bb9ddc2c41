import type { ImageRef } from '../../schemas/plan.js';
import { createRng } from '../../util/rng.js';
import {
  BACKGROUNDS,
  type BackgroundName,
  OBJECT_COLORS,
  type ObjectColor,
  SCENE_OBJECTS,
  type Shape,
} from './palette.js';

type Rgb = readonly [number, number, number];

/** One drawn object instance: its centre pixel always has the object's colour. */
export interface PlacedObject {
  name: string;
  color: string;
  shape: Shape;
  cx: number;
  cy: number;
  r: number;
}

export interface SceneLayout {
  pixels: number;
  background: { name: BackgroundName; rgb: Rgb };
  items: PlacedObject[];
}

/** Background of a built-in scene; derived from the id so metadata and pixels always agree. */
export function backgroundFor(imageId: string): BackgroundName {
  const names = Object.keys(BACKGROUNDS) as BackgroundName[];
  return createRng('image-background', imageId).pick(names);
}

/**
 * Places every object instance in its own grid cell (cells shuffled by the image id), so
 * instances never overlap and counts stay countable.
 */
export function layoutScene(image: ImageRef, pixels: number): SceneLayout {
  const rng = createRng('image-layout', image.id);
  const instances = image.objects.flatMap((object) => Array.from({ length: object.count }, () => object));
  const grid = Math.max(2, Math.ceil(Math.sqrt(instances.length)));
  const cell = pixels / grid;
  const cells = rng.shuffle(Array.from({ length: grid * grid }, (_, index) => index));
  const items = instances.map((object, index) => {
    const at = cells[index] as number;
    const jitter = cell * 0.08;
    return {
      name: object.name,
      color: object.color,
      shape: SCENE_OBJECTS.find((entry) => entry.name === object.name)?.shape ?? 'circle',
      cx: (at % grid) * cell + cell / 2 + rng.float(-jitter, jitter),
      cy: Math.floor(at / grid) * cell + cell / 2 + rng.float(-jitter, jitter),
      r: cell * 0.3,
    };
  });
  const background = backgroundFor(image.id);
  return { pixels, background: { name: background, rgb: BACKGROUNDS[background] }, items };
}

class Canvas {
  readonly data: Uint8Array;
  constructor(
    readonly size: number,
    background: Rgb,
  ) {
    this.data = new Uint8Array(size * size * 3);
    this.data.set(background, 0);
    // Doubling copies: log2(pixels) calls instead of one per pixel.
    for (let filled = 3; filled < this.data.length; filled *= 2) {
      this.data.copyWithin(filled, 0, Math.min(filled, this.data.length - filled));
    }
  }
  /** Paints every pixel whose centre satisfies `inside`, within a bounding box. */
  fill(
    x0: number,
    y0: number,
    x1: number,
    y1: number,
    color: Rgb,
    inside: (x: number, y: number) => boolean,
  ) {
    const left = Math.max(0, Math.floor(x0));
    const right = Math.min(this.size - 1, Math.ceil(x1));
    const top = Math.max(0, Math.floor(y0));
    const bottom = Math.min(this.size - 1, Math.ceil(y1));
    for (let y = top; y <= bottom; y++) {
      for (let x = left; x <= right; x++)
        if (inside(x + 0.5, y + 0.5)) this.data.set(color, (y * this.size + x) * 3);
    }
  }
  ellipse(cx: number, cy: number, rx: number, ry: number, color: Rgb) {
    this.fill(
      cx - rx,
      cy - ry,
      cx + rx,
      cy + ry,
      color,
      (x, y) => ((x - cx) / rx) ** 2 + ((y - cy) / ry) ** 2 <= 1,
    );
  }
  rect(x0: number, y0: number, x1: number, y1: number, color: Rgb) {
    this.fill(x0, y0, x1, y1, color, (x, y) => x >= x0 && x <= x1 && y >= y0 && y <= y1);
  }
  polygon(points: ReadonlyArray<readonly [number, number]>, color: Rgb) {
    const xs = points.map((p) => p[0]);
    const ys = points.map((p) => p[1]);
    this.fill(Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys), color, (x, y) => {
      // Even-odd rule.
      let inside = false;
      for (let i = 0, j = points.length - 1; i < points.length; j = i++) {
        const [xi, yi] = points[i] as readonly [number, number];
        const [xj, yj] = points[j] as readonly [number, number];
        if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
      }
      return inside;
    });
  }
}

const STEM: Rgb = [100, 60, 30];
const STRING: Rgb = [70, 70, 70];
const EDGE: Rgb = [20, 20, 20];

function draw(canvas: Canvas, item: PlacedObject, color: Rgb, background: Rgb) {
  const { cx, cy, r } = item;
  switch (item.shape) {
    case 'apple':
      canvas.rect(cx - r * 0.08, cy - r * 1.25, cx + r * 0.08, cy - r * 0.8, STEM);
      canvas.ellipse(cx, cy, r, r * 0.92, color);
      break;
    case 'balloon':
      canvas.rect(cx - 0.6, cy + r * 0.8, cx + 0.6, cy + r * 1.45, STRING);
      canvas.ellipse(cx, cy - r * 0.15, r * 0.8, r, color);
      break;
    case 'mug':
      canvas.ellipse(cx + r * 0.5, cy, r * 0.4, r * 0.4, color);
      canvas.ellipse(cx + r * 0.5, cy, r * 0.2, r * 0.2, background);
      canvas.rect(cx - r * 0.6, cy - r * 0.7, cx + r * 0.45, cy + r * 0.8, color);
      break;
    case 'book':
      canvas.rect(cx - r * 0.75, cy - r * 0.55, cx + r * 0.75, cy + r * 0.55, color);
      canvas.rect(cx - r * 0.75, cy - r * 0.55, cx - r * 0.62, cy + r * 0.55, EDGE);
      break;
    case 'box':
      canvas.rect(cx - r * 0.72, cy - r * 0.72, cx + r * 0.72, cy + r * 0.72, EDGE);
      canvas.rect(cx - r * 0.66, cy - r * 0.66, cx + r * 0.66, cy + r * 0.66, color);
      break;
    case 'star': {
      const points: Array<[number, number]> = [];
      for (let k = 0; k < 10; k++) {
        const radius = k % 2 === 0 ? r : r * 0.45;
        const angle = -Math.PI / 2 + (k * Math.PI) / 5;
        points.push([cx + radius * Math.cos(angle), cy + radius * Math.sin(angle)]);
      }
      canvas.polygon(points, color);
      break;
    }
    case 'kite':
      canvas.rect(cx - 0.6, cy + r * 0.9, cx + 0.6, cy + r * 1.45, STRING);
      canvas.polygon(
        [
          [cx, cy - r],
          [cx + r * 0.65, cy - r * 0.1],
          [cx, cy + r],
          [cx - r * 0.65, cy - r * 0.1],
        ],
        color,
      );
      break;
    default:
      canvas.ellipse(cx, cy, r, r, color);
  }
}

/** RGB of a colour name used by the built-in scenes (undefined for unknown names). */
export function colorRgb(name: string): Rgb | undefined {
  return (OBJECT_COLORS as Record<string, Rgb>)[name as ObjectColor];
}

/**
 * Renders a built-in scene to RGB pixels (3 bytes per pixel, row-major).
 *
 * @example const { data } = renderScene(image, 256); encodePng(256, 256, data);
 */
export function renderScene(image: ImageRef, pixels: number): { layout: SceneLayout; data: Uint8Array } {
  const layout = layoutScene(image, pixels);
  const canvas = new Canvas(pixels, layout.background.rgb);
  for (const item of layout.items)
    draw(canvas, item, colorRgb(item.color) ?? [0, 0, 0], layout.background.rgb);
  return { layout, data: canvas.data };
}
