export * from './common.js';
export * from './dialogue.js';
export * from './llm-config.js';
export * from './memory.js';
export * from './persona.js';
export * from './pipeline.js';
export * from './plan.js';
export * from './recipe.js';
