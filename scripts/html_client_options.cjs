// How the HTML view's page script is bundled, shared by the build (build-html-client.mjs) and by a
// run from the sources (src/cli/html_client_bundle.ts), so both give the same bytes. CommonJS, so
// the CLI can read it synchronously with require().
module.exports.CLIENT_BUILD_OPTIONS = {
  bundle: true,
  platform: "browser",
  format: "iife",
  target: "es2020",
  minify: true,
  write: false,
  logLevel: "silent",
  legalComments: "eof",
  charset: "utf8",
};

// The play page's script also gets a source map, read at build time into the page's source index
// (scripts/play_sources.cjs) so that a stack frame of the bundle finds the model's line. "external":
// the script itself carries no reference to it.
module.exports.PLAY_BUILD_OPTIONS = { sourcemap: "external" };
