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
