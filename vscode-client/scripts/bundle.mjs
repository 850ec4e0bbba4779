// Bundles the extension into dist/extension.js (one CommonJS file; `vscode` stays external), so
// the .vsix needs no node_modules (`vsce package --no-dependencies`).
import * as esbuild from 'esbuild';

await esbuild.build({
  entryPoints: ['src/extension.ts'],
  bundle: true,
  outfile: 'dist/extension.js',
  platform: 'node',
  format: 'cjs',
  target: 'node18',
  external: ['vscode'],
  sourcemap: false,
  minify: process.argv.includes('--minify'),
  logLevel: 'info',
});
