// Libraries that only some commands need, loaded when they run (start-up stays fast).
//
// yaml, jmespath, undici and write-file-atomic are CommonJS packages. Node's import() of one gives its exports both as named
// exports and as `default`; the esbuild bundle (scripts/build.mjs) gives only `default`, the
// module.exports object. Taking `default` when there is one works in both.

const commonJs = <T>(m: T): T => (m as { default?: T }).default ?? m;

export const loadYaml = async (): Promise<typeof import('yaml')> => commonJs(await import('yaml'));

export const loadJmespath = async (): Promise<typeof import('jmespath')> => commonJs(await import('jmespath'));

export const loadUndici = async (): Promise<typeof import('undici')> => commonJs(await import('undici'));

export const loadWriteFileAtomic = async (): Promise<{ sync: typeof import('write-file-atomic').sync }> => commonJs(await import('write-file-atomic')) as never;
