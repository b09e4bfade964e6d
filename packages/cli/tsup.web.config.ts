import { defineConfig } from 'tsup';

// The scripts of the pages `evcal serve` shows (src/web): one file each for the browser, with
// FullCalendar and @evcal/client bundled in, so the server serves them itself (no CDN). Run
// after the library build (`npm run build`), which cleans dist/.
export default defineConfig({
  entry: { 'calendar-page': 'src/web/browser/calendar-page.ts', 'reference-page': 'src/web/browser/reference-page.ts' },
  outDir: 'dist/web',
  format: ['iife'],
  platform: 'browser',
  target: 'es2020',
  minify: true,
  sourcemap: false,
  clean: false,
  noExternal: [/.*/],
  // @evcal/client from its sources, as the tests read it: the page is built without building the client first.
  esbuildOptions(options) {
    options.conditions = ['@evcal/source'];
  },
});
