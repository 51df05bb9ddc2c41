import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { ImagesConfig } from '../../schemas/images-config.js';
import { crc32, encodePng } from './png.js';
import { buildImagePool } from './pool.js';
import { colorRgb, renderScene } from './scene.js';

/** A minimal PNG reader for the test: checks signature and CRCs, inflates, unfilters type-0 rows. */
function decodePng(bytes: Buffer): { width: number; height: number; rgb: Buffer; chunks: string[] } {
  expect([...bytes.subarray(0, 8)]).toEqual([137, 80, 78, 71, 13, 10, 26, 10]);
  let offset = 8;
  let width = 0;
  let height = 0;
  const idat: Buffer[] = [];
  const chunks: string[] = [];
  while (offset < bytes.length) {
    const length = bytes.readUInt32BE(offset);
    const type = bytes.toString('ascii', offset + 4, offset + 8);
    const data = bytes.subarray(offset + 8, offset + 8 + length);
    expect(bytes.readUInt32BE(offset + 8 + length)).toBe(crc32(bytes, offset + 4, offset + 8 + length));
    chunks.push(type);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      expect([data[8], data[9], data[12]]).toEqual([8, 2, 0]);
    }
    if (type === 'IDAT') idat.push(Buffer.from(data));
    offset += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * 3;
  expect(raw.length).toBe((stride + 1) * height);
  const rgb = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    expect(raw[y * (stride + 1)]).toBe(0);
    raw.copy(rgb, y * stride, y * (stride + 1) + 1, (y + 1) * (stride + 1));
  }
  return { width, height, rgb, chunks };
}

const pixel = (rgb: Buffer, width: number, x: number, y: number) => [
  ...rgb.subarray((y * width + x) * 3, (y * width + x) * 3 + 3),
];

describe('PNG encoder', () => {
  it('computes the standard CRC-32', () => {
    expect(crc32(Buffer.from('123456789'))).toBe(0xcbf43926);
    expect(crc32(Buffer.from('IEND'))).toBe(0xae426082);
  });

  it('writes a decodable PNG with the given pixels', () => {
    const png = encodePng(2, 2, new Uint8Array([255, 0, 0, 0, 255, 0, 0, 0, 255, 10, 20, 30]));
    const decoded = decodePng(png);
    expect(decoded.chunks).toEqual(['IHDR', 'IDAT', 'IEND']);
    expect([decoded.width, decoded.height]).toEqual([2, 2]);
    expect(pixel(decoded.rgb, 2, 1, 1)).toEqual([10, 20, 30]);
  });

  it('rejects a buffer of the wrong size', () => {
    expect(() => encodePng(2, 2, new Uint8Array(5))).toThrow(RangeError);
  });
});

describe('built-in scenes', () => {
  const config = ImagesConfig.parse({ size: 40 });
  const pool = buildImagePool(config, 42);

  it('records objects, colours and counts that match the caption', () => {
    expect(pool).toHaveLength(40);
    expect(new Set(pool.map((image) => image.id)).size).toBe(40);
    for (const image of pool) {
      expect(image.objects.length).toBeGreaterThanOrEqual(1);
      expect(image.objects.length).toBeLessThanOrEqual(3);
      expect(new Set(image.objects.map((o) => o.name)).size).toBe(image.objects.length);
      for (const object of image.objects) {
        expect(object.count).toBeGreaterThanOrEqual(1);
        expect(object.count).toBeLessThanOrEqual(4);
        expect(image.caption).toContain(object.color);
      }
    }
    expect(buildImagePool(config, 42)).toEqual(pool);
    expect(buildImagePool(config, 43)).not.toEqual(pool);
  });

  it('renders each object instance with its colour at its centre, on the captioned background', () => {
    for (const image of pool.slice(0, 10)) {
      const { layout, data } = renderScene(image, 256);
      const decoded = decodePng(encodePng(256, 256, data));
      expect([decoded.width, decoded.height]).toEqual([256, 256]);
      expect(layout.items).toHaveLength(image.objects.reduce((sum, o) => sum + o.count, 0));
      for (const item of layout.items) {
        expect(pixel(decoded.rgb, 256, Math.floor(item.cx), Math.floor(item.cy))).toEqual([
          ...(colorRgb(item.color) ?? []),
        ]);
      }
      expect(pixel(decoded.rgb, 256, 0, 0)).toEqual([...layout.background.rgb]);
      expect(image.caption).toContain(`on a ${layout.background.name} background`);
    }
  });

  it('renders byte-identical PNGs for the same metadata', () => {
    const image = pool[3];
    if (image === undefined) throw new Error('pool too small');
    expect(
      encodePng(128, 128, renderScene(image, 128).data).equals(
        encodePng(128, 128, renderScene(image, 128).data),
      ),
    ).toBe(true);
  });
});
