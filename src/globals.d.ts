/** Replaced at build time with the package version (scripts/build.mjs). */
declare const __SVC_VERSION__: string;
