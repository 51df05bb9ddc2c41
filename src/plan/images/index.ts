/**
 * The image pool: built-in procedural PNG scenes whose objects, colours and counts are known
 * (so visual-detail questions have checkable answers), or a user directory with captions.
 */
export { ImageCaptionLine, loadImageDirectory } from './directory.js';
export { OBJECT_COLORS, SCENE_OBJECTS } from './palette.js';
export { crc32, encodePng } from './png.js';
export { BUILTIN_IMAGE_DIR, buildImagePool, writeImagePool } from './pool.js';
export { backgroundFor, colorRgb, layoutScene, renderScene, type SceneLayout } from './scene.js';
