/**
 * The directory of this package (the one holding package.json). Two implementations, one per module
 * system, copied into the build by scripts/build: `import.meta.url` is ESM-only syntax and `__dirname`
 * CommonJS-only, so neither can be written once in a source both builds compile.
 */
export declare const packageDirectory: string;
