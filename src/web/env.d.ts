/** Replaced at build time by scripts/build.ts with the package version. */
declare const __BALCAO_VERSION__: string

declare module '*.css'
