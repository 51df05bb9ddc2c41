export { evidenceTurns, stripImagePlaceholders, titleCase } from './common.js';
export { buildLocomoSample } from './locomo.js';
export { buildUserData, createPersonaMmeWriter, joinPath, type PersonaMmeQuestion } from './persona-mme.js';
export { createPersonaMemWriter, csvField, PERSONAMEM_COLUMNS, pythonRepr } from './personamem.js';
