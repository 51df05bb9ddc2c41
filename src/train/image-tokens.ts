import { closeSync, openSync, readSync } from 'node:fs';

/**
 * How many tokens an image becomes in Qwen2-VL / Qwen2.5-VL, as ms-swift's qwen templates
 * prepare it through `qwen_vl_utils.fetch_image`: `smart_resize` rounds both sides to multiples
 * of 28 (14-pixel patches, 2 × 2 merged into one token), scales the image down when it exceeds
 * `max_pixels` (ms-swift's `MAX_PIXELS`) and up when it is under `min_pixels` (4 × 28 × 28), and
 * the result is (h / 28) × (w / 28) `<|image_pad|>` tokens between `<|vision_start|>` and
 * `<|vision_end|>`.
 */
export const IMAGE_FACTOR = 28;
export const MIN_PIXELS = 4 * IMAGE_FACTOR * IMAGE_FACTOR;

/** Python's round(): halves go to the even neighbour. */
function roundHalfEven(x: number): number {
  const floor = Math.floor(x);
  const diff = x - floor;
  if (diff > 0.5) return floor + 1;
  if (diff < 0.5) return floor;
  return floor % 2 === 0 ? floor : floor + 1;
}

/**
 * `smart_resize` → the image's token count, plus 2 for the vision start/end tokens.
 *
 * @example qwenImageTokens(48, 48, 230400) // 6: a 48 px image grows to 56 × 56 (4 tokens)
 */
export function qwenImageTokens(
  width: number,
  height: number,
  maxPixels: number,
  minPixels = MIN_PIXELS,
): number {
  const f = IMAGE_FACTOR;
  let h = Math.max(f, roundHalfEven(height / f) * f);
  let w = Math.max(f, roundHalfEven(width / f) * f);
  if (h * w > maxPixels) {
    const beta = Math.sqrt((height * width) / maxPixels);
    h = Math.max(f, Math.floor(height / beta / f) * f);
    w = Math.max(f, Math.floor(width / beta / f) * f);
  } else if (h * w < minPixels) {
    const beta = Math.sqrt(minPixels / (height * width));
    h = Math.ceil((height * beta) / f) * f;
    w = Math.ceil((width * beta) / f) * f;
  }
  return (h / f) * (w / f) + 2;
}

function readHead(file: string, bytes: number): Buffer {
  const fd = openSync(file, 'r');
  try {
    const buf = Buffer.alloc(bytes);
    const n = readSync(fd, buf, 0, bytes, 0);
    return buf.subarray(0, n);
  } finally {
    closeSync(fd);
  }
}

/** Width and height from a PNG, GIF, BMP or JPEG header; undefined for anything else. */
export function readImageSize(file: string): { width: number; height: number } | undefined {
  let head: Buffer;
  try {
    head = readHead(file, 64 * 1024);
  } catch {
    return undefined;
  }
  if (head.length >= 24 && head.readUInt32BE(0) === 0x89504e47) {
    return { width: head.readUInt32BE(16), height: head.readUInt32BE(20) };
  }
  if (head.length >= 10 && head.toString('latin1', 0, 3) === 'GIF') {
    return { width: head.readUInt16LE(6), height: head.readUInt16LE(8) };
  }
  if (head.length >= 26 && head[0] === 0x42 && head[1] === 0x4d) {
    return { width: Math.abs(head.readInt32LE(18)), height: Math.abs(head.readInt32LE(22)) };
  }
  if (head.length >= 4 && head[0] === 0xff && head[1] === 0xd8) {
    // Walk the JPEG segments to the first start-of-frame marker (C0–CF but C4, C8, CC).
    let i = 2;
    while (i + 9 < head.length) {
      if (head[i] !== 0xff) return undefined;
      const marker = head[i + 1] as number;
      const length = head.readUInt16BE(i + 2);
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        return { height: head.readUInt16BE(i + 5), width: head.readUInt16BE(i + 7) };
      }
      i += 2 + length;
    }
  }
  return undefined;
}
