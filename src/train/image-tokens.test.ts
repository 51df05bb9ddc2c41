import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { qwenImageTokens, readImageSize } from './image-tokens.js';

const dir = mkdtempSync(path.join(tmpdir(), 'pf-img-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("Qwen2-VL image tokens (qwen_vl_utils' smart_resize, factor 28, +2 vision start/end)", () => {
  it('scales a 1920×1080 photo under max_pixels 230400 to 616×336: 22 × 12 tokens', () => {
    expect(qwenImageTokens(1920, 1080, 230_400)).toBe(22 * 12 + 2);
  });
  it('grows small images to min_pixels (56 × 56: 4 tokens)', () => {
    expect(qwenImageTokens(48, 48, 230_400)).toBe(4 + 2);
    expect(qwenImageTokens(28, 28, 230_400)).toBe(4 + 2);
  });
  it("rounds halves to even like Python's round (70 px → 56, not 84)", () => {
    expect(qwenImageTokens(70, 42, 230_400)).toBe(2 * 2 + 2);
  });
});

describe('readImageSize', () => {
  it('reads PNG, GIF, BMP and baseline JPEG headers', () => {
    const png = Buffer.alloc(33);
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(png, 0);
    png.writeUInt32BE(13, 8);
    png.write('IHDR', 12, 'latin1');
    png.writeUInt32BE(640, 16);
    png.writeUInt32BE(480, 20);
    writeFileSync(path.join(dir, 'a.png'), png);
    expect(readImageSize(path.join(dir, 'a.png'))).toEqual({ width: 640, height: 480 });

    const gif = Buffer.from('GIF89a\x20\x03\x58\x02', 'latin1'); // 800 × 600
    writeFileSync(path.join(dir, 'a.gif'), gif);
    expect(readImageSize(path.join(dir, 'a.gif'))).toEqual({ width: 800, height: 600 });

    const bmp = Buffer.alloc(30);
    bmp.write('BM', 0, 'latin1');
    bmp.writeInt32LE(100, 18);
    bmp.writeInt32LE(-50, 22); // top-down bitmap
    writeFileSync(path.join(dir, 'a.bmp'), bmp);
    expect(readImageSize(path.join(dir, 'a.bmp'))).toEqual({ width: 100, height: 50 });

    // SOI, an APP0 segment of 16 bytes, then SOF0 (length 17, precision 8, height 720, width 1280).
    const app0 = Buffer.concat([Buffer.from([0xff, 0xe0, 0x00, 0x10]), Buffer.alloc(14)]);
    const sof0 = Buffer.from([0xff, 0xc0, 0x00, 0x11, 0x08, 0x02, 0xd0, 0x05, 0x00, 0x03]);
    writeFileSync(
      path.join(dir, 'a.jpg'),
      Buffer.concat([Buffer.from([0xff, 0xd8]), app0, sof0, Buffer.alloc(16)]),
    );
    expect(readImageSize(path.join(dir, 'a.jpg'))).toEqual({ width: 1280, height: 720 });

    writeFileSync(path.join(dir, 'x.txt'), 'not an image');
    expect(readImageSize(path.join(dir, 'x.txt'))).toBeUndefined();
    expect(readImageSize(path.join(dir, 'missing.png'))).toBeUndefined();
  });
});
