import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataType, type Field, tableFromIPC } from 'apache-arrow';
import { parquetMetadata, parquetReadObjects } from 'hyparquet';
import * as parquet from 'parquet-wasm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { RL_COLUMNS, SFT_COLUMNS } from '../../src/export/export-user.js';
import { datasetsFeatures, type FeatureDict } from '../../src/export/hf-features.js';
import { encodeParquet } from '../../src/export/parquet.js';
import { poolImageBytes } from '../../src/export/pool-image-bytes.js';
import { exportedFixtureRun } from './exported-fixture.js';

/*
 * Mirrors of the `datasets` rules that decide whether the Hub and `load_dataset` see the
 * `images` column as images, ported from huggingface/datasets
 * src/datasets/features/features.py and features/image.py at
 * b7cb10b0e38ab8bbefdb142d0279bc85ac8c7ab8:
 *
 * - `Features._from_yaml_list` turns the card's `dataset_info.features` into `to_dict()` form
 *   (`dtype: <Value dtype>` → Value; `dtype: image` fails `Value("image")` → `{"_type": "Image"}`;
 *   `sequence: x` → unsimplified to `{dtype: x}` → List; a list of `{name, …}` → a struct dict).
 * - `Features.from_arrow_schema` takes a column's feature from the `huggingface` schema metadata
 *   only when `metadata_features.arrow_schema.field(name) == field` (name, type and nullability
 *   all equal); otherwise it infers the feature from the Arrow type (`generate_from_arrow_type`),
 *   and a struct<bytes, path> is then a plain dict, not an Image.
 * - `get_nested_type`: Value("string") → string; Image → struct<bytes: binary, path: string>;
 *   List(f) → list<item: f>; a dict → struct; every field nullable (`pa.field` defaults).
 */
type YamlFeature = Record<string, unknown> & { name?: string };

function fromYamlInner(obj: unknown): unknown {
  if (Array.isArray(obj)) {
    return Object.fromEntries(
      (obj as YamlFeature[]).map((feature) => {
        const { name, ...rest } = feature;
        return [name, fromYamlInner(rest)];
      }),
    );
  }
  const dict = { ...(obj as Record<string, unknown>) };
  const type = Object.keys(dict)[0];
  for (const list of ['large_list', 'list', 'sequence']) {
    if (typeof dict[list] === 'string') dict[list] = { dtype: dict[list] };
  }
  if (type === 'sequence' || type === 'list') {
    const { [type]: inner, ...rest } = dict;
    return { feature: fromYamlInner(inner), ...rest, _type: 'List' };
  }
  if (type === 'dtype') {
    const dtype = dict.dtype as string;
    // Value(dtype) accepts Arrow type names; `image` is not one, so it becomes a feature class.
    if (['string', 'int64', 'int32', 'float64', 'bool', 'binary'].includes(dtype))
      return { ...dict, _type: 'Value' };
    return { _type: dtype.replace(/(^|_)([a-z])/g, (_, __, c: string) => c.toUpperCase()) };
  }
  throw new Error(`feature form not mirrored: ${JSON.stringify(obj)}`);
}

/** Arrow type of a feature as `get_nested_type` builds it, written as text with nullability. */
function typeOfFeature(feature: FeatureDict | Record<string, FeatureDict>): string {
  if ('_type' in feature && typeof feature._type === 'string') {
    const f = feature as FeatureDict;
    if (f._type === 'Value') return 'Utf8';
    if (f._type === 'Image') return 'Struct<bytes?: Binary, path?: Utf8>';
    return `List<item?: ${typeOfFeature(f.feature)}>`;
  }
  const fields = Object.entries(feature as Record<string, FeatureDict>).map(
    ([name, inner]) => `${name}?: ${typeOfFeature(inner)}`,
  );
  return `Struct<${fields.join(', ')}>`;
}

/** An Arrow field's type as text in the same notation (`?` marks a nullable child). */
function typeOfArrow(type: DataType): string {
  if (DataType.isUtf8(type)) return 'Utf8';
  if (DataType.isBinary(type)) return 'Binary';
  const child = (field: Field) => `${field.name}${field.nullable ? '?' : ''}: ${typeOfArrow(field.type)}`;
  if (DataType.isList(type)) return `List<${child(type.children[0] as Field)}>`;
  if (DataType.isStruct(type)) return `Struct<${type.children.map(child).join(', ')}>`;
  throw new Error(`type not mirrored: ${type}`);
}

/** `from_arrow_schema`'s choice for one column: the metadata feature, or one inferred from Arrow. */
function featureDatasetsSees(field: Field, metadata: Record<string, FeatureDict>): unknown {
  const declared = metadata[field.name];
  if (declared !== undefined && field.nullable && typeOfArrow(field.type) === typeOfFeature(declared))
    return declared;
  const infer = (type: DataType): unknown => {
    if (DataType.isUtf8(type)) return { dtype: 'string', _type: 'Value' };
    if (DataType.isBinary(type)) return { dtype: 'binary', _type: 'Value' };
    if (DataType.isList(type)) return { feature: infer((type.children[0] as Field).type), _type: 'List' };
    if (DataType.isStruct(type))
      return Object.fromEntries(type.children.map((child) => [child.name, infer(child.type)]));
    throw new Error(`type not mirrored: ${type}`);
  };
  return infer(field.type);
}

let dir: string;
let root: string;
let runDir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pf-hf-features-'));
  ({ root, runDir } = await exportedFixtureRun());
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  await rm(root, { recursive: true, force: true });
});

describe('the Image feature of exported Parquet files, as `datasets` reads them', () => {
  it('embeds each image file with its relative path and declares List(Image()) in the schema metadata', async () => {
    const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
    await writeFile(join(dir, 'cat.png'), png);
    const rows = [
      { id: 'a', messages: [{ role: 'user', content: '<image> hi' }], images: ['images/cat.png'] },
      { id: 'b', messages: [{ role: 'user', content: 'no image' }], images: [] },
      { id: 'c', messages: [{ role: 'user', content: '<image>' }], images: ['images/gone.png'] },
    ];
    const bytes = encodeParquet(rows, ['id', 'messages', 'images'], {
      imageBytes: poolImageBytes(dir, 'images'),
    });
    const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
    const back = (await parquetReadObjects({ file, utf8: false })) as Array<{
      images: Array<{ bytes: unknown; path: string }>;
    }>;
    expect(back[0]?.images).toEqual([{ bytes: png, path: 'images/cat.png' }]);
    expect(back[1]?.images).toEqual([]);
    expect(back[2]?.images[0]?.path).toBe('images/gone.png');
    expect(back[2]?.images[0]?.bytes ?? null).toBeNull(); // not in the pool: the path alone

    // The file's key-value metadata and the Arrow schema (what pyarrow restores from ARROW:schema).
    const kv = parquetMetadata(file).key_value_metadata ?? [];
    const hf = JSON.parse(kv.find((entry) => entry.key === 'huggingface')?.value as string);
    expect(hf).toEqual({
      info: {
        features: {
          id: { dtype: 'string', _type: 'Value' },
          messages: {
            feature: {
              role: { dtype: 'string', _type: 'Value' },
              content: { dtype: 'string', _type: 'Value' },
            },
            _type: 'List',
          },
          images: { feature: { _type: 'Image' }, _type: 'List' },
        },
      },
    });
    const table = tableFromIPC(parquet.readParquet(bytes).intoIPCStream());
    expect(JSON.parse(table.schema.metadata.get('huggingface') as string)).toEqual(hf);
    const sees = Object.fromEntries(
      table.schema.fields.map((field) => [field.name, featureDatasetsSees(field, hf.info.features)]),
    );
    // datasets keeps every declared feature: images as images, the rest as the same types inferred.
    expect(sees).toEqual(hf.info.features);
    const images = table.schema.fields.find((field) => field.name === 'images') as Field;
    expect(featureDatasetsSees(images, hf.info.features)).toEqual({
      feature: { _type: 'Image' },
      _type: 'List',
    });
    // Had the column not matched the declared type exactly, datasets would see a plain struct.
    expect(featureDatasetsSees(images, {})).not.toEqual({ feature: { _type: 'Image' }, _type: 'List' });
  });

  it("the exported card's dataset_info features decode to the Parquet files' features", async () => {
    const card = await readFile(join(runDir, 'export', 'README.md'), 'utf8');
    const front = parseYaml(/^---\n([\s\S]*?)\n---\n/.exec(card)?.[1] as string);
    const byConfig = Object.fromEntries(
      (front.dataset_info as Array<{ config_name: string; features: unknown }>).map((info) => [
        info.config_name,
        fromYamlInner(info.features),
      ]),
    );
    expect(byConfig.sft).toEqual(datasetsFeatures(SFT_COLUMNS));
    expect(byConfig.rl).toEqual(datasetsFeatures(RL_COLUMNS));
    expect((byConfig.sft as Record<string, unknown>).images).toEqual({
      feature: { _type: 'Image' },
      _type: 'List',
    });
    for (const [kind, columns] of [
      ['sft', SFT_COLUMNS],
      ['rl', RL_COLUMNS],
    ] as const) {
      const bytes = await readFile(join(runDir, 'export', kind, 'train.parquet'));
      const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
      const kv = parquetMetadata(file).key_value_metadata ?? [];
      const hf = JSON.parse(kv.find((entry) => entry.key === 'huggingface')?.value as string);
      expect(hf.info.features).toEqual(datasetsFeatures(columns));
    }
  });
});
