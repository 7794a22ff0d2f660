export * from './enums.js';
export * from './common.js';
export * from './resources.js';
export * from './requests.js';
export * from './workflow.js';
export * from './bridge-protocol.js';
