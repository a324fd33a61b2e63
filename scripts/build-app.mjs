// Bundles one app into dist/: our workspace packages are compiled in, npm packages stay
// external (installed beside it), so production runs plain `node dist/main.js`.
//   node ../../scripts/build-app.mjs main=src/main.ts [child=src/prep-pool/child.ts ...]
import { build } from 'esbuild';

const entryPoints = Object.fromEntries(process.argv.slice(2).map((arg) => arg.split('=')));
await build({
  entryPoints,
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  sourcemap: true,
  logLevel: 'warning',
  plugins: [
    {
      name: 'npm-packages-external',
      setup(b) {
        b.onResolve({ filter: /^[^./]/ }, (args) =>
          args.path.startsWith('@xt/') ? undefined : { path: args.path, external: true },
        );
      },
    },
  ],
});
