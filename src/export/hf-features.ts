/**
 * The Hugging Face `datasets` features of the exported columns, in the two encodings `datasets`
 * reads, made from one table so the Parquet files and the dataset card never disagree:
 *
 * - `Features.to_dict()` (JSON under the Parquet schema's `huggingface` key, as
 *   `Features.arrow_schema` writes it: `{"info": {"features": …}}`), read by
 *   `Features.from_arrow_schema`;
 * - the dataset card's `dataset_info.features` list, read by `Features._from_yaml_list`.
 *
 * Upstream: huggingface/datasets src/datasets/features/features.py and features/image.py at
 * b7cb10b0e38ab8bbefdb142d0279bc85ac8c7ab8. `Image()` is `{"_type": "Image"}` (its fields at
 * their defaults are left out by `asdict`), stored as struct<bytes: binary, path: string>; a list
 * is `List` (`{"feature": …, "_type": "List"}`). `images` being `List(Image())` is what makes the
 * dataset viewer render the pictures; the jsonl files keep plain paths (ms-swift's contract).
 */

/** A feature in `Features.to_dict()` form. */
export type FeatureDict =
  | { dtype: 'string'; _type: 'Value' }
  | { _type: 'Image' }
  | { feature: FeatureDict | Record<string, FeatureDict>; _type: 'List' };

/** One entry of a card's `dataset_info.features` list. */
export type CardFeature =
  | { name: string; dtype: string }
  | { name: string; sequence: string }
  | { name: string; list: CardFeature[] };

const STRING: FeatureDict = { dtype: 'string', _type: 'Value' };

/** Columns of image paths (Image feature in Parquet); the rest of `STRING_LISTS` hold text. */
export const IMAGE_LISTS: ReadonlySet<string> = new Set(['images']);

/** The feature of a column, by its name (the same rule as `encodeColumns`). */
export function columnFeature(name: string): FeatureDict {
  if (name === 'messages') return { feature: { role: STRING, content: STRING }, _type: 'List' };
  if (IMAGE_LISTS.has(name)) return { feature: { _type: 'Image' }, _type: 'List' };
  if (name === 'choices') return { feature: STRING, _type: 'List' };
  return STRING;
}

/** `Features.to_dict()` of the columns, in column order. */
export function datasetsFeatures(columns: readonly string[]): Record<string, FeatureDict> {
  return Object.fromEntries(columns.map((name) => [name, columnFeature(name)]));
}

/** The Parquet schema metadata `datasets` reads its features from (key `huggingface`). */
export function huggingfaceMetadata(columns: readonly string[]): [string, string] {
  return ['huggingface', JSON.stringify({ info: { features: datasetsFeatures(columns) } })];
}

/**
 * The card's `dataset_info.features` list: `dtype: string`, `sequence: string`,
 * `sequence: image` (decoded by `_from_yaml_list` as List(Image()); `sequence` rather than the
 * newer `list:` so older `datasets` releases read it too), and `list:` of the message struct.
 */
export function cardFeatures(columns: readonly string[]): CardFeature[] {
  return columns.map((name) => {
    if (name === 'messages') {
      return {
        name,
        list: [
          { name: 'role', dtype: 'string' },
          { name: 'content', dtype: 'string' },
        ],
      };
    }
    if (IMAGE_LISTS.has(name)) return { name, sequence: 'image' };
    if (name === 'choices') return { name, sequence: 'string' };
    return { name, dtype: 'string' };
  });
}
